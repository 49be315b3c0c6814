#!/bin/sh
# A quick yardstick for a network: it plays a baseline, both at a fixed node count a move (so
# the result does not depend on what else the machine is doing), from
# ../shared/openings/balanced.epd with colours swapped, through ../shared/tools/match.py.
#   training/vs-hce.sh NET [GAMES] [NODES] [PGN]
# FERRUM_BIN names the binary (default target/release/ferrum). BASE names the baseline: `hce`
# (the hand-crafted evaluation, the default), `embedded` (the binary's embedded network) or a
# `.nnue` file. Fixed nodes leave out speed differences: the SPRT at a clock decides.
set -eu
net=$1
games=${2:-100}
nodes=${3:-20000}
pgn=${4:-/dev/null}
bin=${FERRUM_BIN:-target/release/ferrum}
base=${BASE:-hce}
here=$(dirname "$0")
shared=$here/../../shared
# A net the engine refuses would leave that side on the embedded network: check first.
check() {
  loaded=$(printf 'setoption name EvalFile value %s\nisready\nquit\n' "$1" | "$bin" | grep 'EvalFile')
  case $loaded in
    *"EvalFile: network"*) ;;
    *) echo "vs-hce.sh: $1: $loaded" >&2; exit 1 ;;
  esac
}
check "$net"
case $base in
  hce) base_option="option.Use NNUE=false" ;;
  embedded) base_option="option.EvalFile=<embedded>" ;;
  *) check "$base"; base_option="option.EvalFile=$base" ;;
esac
python3 "$shared/tools/match.py" \
  --engine "cmd=$bin" name=net "option.EvalFile=$net" option.Hash=16 \
  --engine "cmd=$bin" name=base "$base_option" option.Hash=16 \
  --nodes "$nodes" --openings "$shared/openings/balanced.epd" --games "$games" \
  --concurrency "${CONCURRENCY:-1}" --pgn "$pgn" | grep -E 'games:|Elo|pentanomial'
