#!/bin/sh
# A quick yardstick for a network: it plays the hand-crafted evaluation, both at a fixed node
# count a move (so the result does not depend on what else the machine is doing), from
# ../shared/openings/balanced.epd with colours swapped, through ../shared/tools/match.py.
#   training/vs-hce.sh NET [GAMES] [NODES] [PGN]
# FERRUM_BIN names the binary (default target/release/ferrum). Fixed nodes leave out the net's
# speed (about 1.2x the hand-crafted evaluation's nodes per second): the SPRT at a clock decides.
set -eu
net=$1
games=${2:-100}
nodes=${3:-20000}
pgn=${4:-/dev/null}
bin=${FERRUM_BIN:-target/release/ferrum}
here=$(dirname "$0")
shared=$here/../../shared
# A net the engine refuses would leave that side on the embedded network: check first.
loaded=$(printf 'setoption name EvalFile value %s\nisready\nquit\n' "$net" | "$bin" | grep 'EvalFile')
case $loaded in
  *"EvalFile: network"*) ;;
  *) echo "vs-hce.sh: $net: $loaded" >&2; exit 1 ;;
esac
python3 "$shared/tools/match.py" \
  --engine "cmd=$bin" name=net "option.EvalFile=$net" option.Hash=16 \
  --engine "cmd=$bin" name=hce "option.Use NNUE=false" option.Hash=16 \
  --nodes "$nodes" --openings "$shared/openings/balanced.epd" --games "$games" \
  --concurrency "${CONCURRENCY:-1}" --pgn "$pgn" | grep -E 'games:|Elo|pentanomial'
