#!/usr/bin/env bash
# The cross-built binaries, tested where they run: ferrum.exe under wine, the ARM binary under
# qemu-user, each beside the x86-64 Linux build it must agree with.
#
#   packaging/test-cross.sh LINUX_FERRUM [PLATFORM...]      PLATFORM: windows, aarch64 (both)
#
# Builds each platform's binary (packaging/cross.sh), then checks: the perft suite (depth-limited)
# through UCI `go perft`, `bench` with the Linux build's node count, Syzygy probes against
# python-chess (11,000 positions), the UCI probe, a short game
# against the Linux build with no fault, and, for Windows, a session with CRLF line endings,
# Windows paths (drive letters, backslashes, ';') for SyzygyPath, BookFile and EvalFile, and a
# Hash too large to allocate. SHARED (default ../shared) holds the tools, suites and tables.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=packaging/cross.sh
. packaging/cross.sh
SHARED="${SHARED:-../shared}"
LINUX=$(realpath "$1")
shift
PLATFORMS=("${@:-windows aarch64}")
# shellcheck disable=SC2206
PLATFORMS=(${PLATFORMS[*]})
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export WINEDEBUG=-all WINEPREFIX="$WORK/wineprefix"

step() { printf '\n---- %s (%s)\n' "$1" "$(date +%T)"; }
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# lines FILE END LINE...: writes each LINE to FILE, ended by END (\n or \r\n).
lines() {
    local file=$1 end=$2
    shift 2
    printf "%s$end" "$@" >"$file"
}

# session ENGINE INPUT REGEX...: feeds the file INPUT to ENGINE and requires a line of its
# output matching each REGEX.
session() {
    local engine=$1 input=$2 out="$WORK/session.out" re
    shift 2
    timeout 60 "$engine" <"$input" >"$out" 2>&1 || fail "$engine exited with $?: $(tail -n 3 "$out")"
    for re in "$@"; do
        grep -Eq "$re" "$out" || fail "no line matching '$re' in: $(cat "$out")"
    done
}

# common NAME ENGINE TABLES: the checks every platform gets; TABLES is $SHARED/syzygy as the
# binary names it. The perft suite is limited to 5 M nodes a
# position, as on Linux in .ci/run (about 170 M nodes in all: a few seconds even under qemu).
common() {
    local name=$1 engine=$2 tables=$3 want got
    step "$name: perft suite through go perft (up to 5 M nodes a position)"
    python3 "$SHARED/tools/perft_check.py" --engine "$engine" --max-nodes 5000000 \
        "$SHARED/perft/standard.epd" | tail -n 1
    step "$name: bench node count equal to the Linux build's"
    want=$("$LINUX" bench | tail -n 1 | cut -d' ' -f1)
    got=$("$engine" bench | tail -n 1 | tr -d '\r')
    echo "linux: $want nodes; $name: $got"
    [[ ${got%% *} == "$want" ]] || fail "$name bench $got, Linux $want nodes"
    step "$name: Syzygy probes against python-chess (tests/syzygy_interop.py)"
    python3 tests/syzygy_interop.py --engine "$engine" --path "$SHARED/syzygy" \
        --engine-path "$tables" | tail -n 1
    step "$name: UCI probe"
    python3 "$SHARED/tools/uci_probe.py" --strict --time-scale "${TIME_SCALE:-1}" "$engine" | tail -n 1
    step "$name: two games against the Linux build (5+0.05), no fault"
    python3 "$SHARED/tools/match.py" --engine "cmd=$engine" "name=ferrum-$name" \
        --engine "cmd=$LINUX" name=ferrum-linux --tc 5+0.05 --games 2 \
        --openings "$SHARED/openings/balanced.epd" --random-seed 7 | tail -n 3
}

windows() {
    step "windows: build (x86-64-v2)"
    local exe dir engine
    exe=$(cross_build_named windows-v2)
    dir="$WORK/windows"
    exe=$(wine_stage "$exe" "$dir")
    engine="$dir/ferrum-wine"
    engine_wrapper "$engine" wine "$exe"
    wineboot -i >/dev/null 2>&1 || true
    common windows "$engine" "$(winepath -w "$(realpath "$SHARED/syzygy")")"

    step "windows: CRLF line endings"
    lines "$WORK/crlf" '\r\n' uci isready 'position startpos moves e2e4' 'go depth 4' quit
    session "$engine" "$WORK/crlf" '^uciok' '^readyok' '^bestmove [a-h][1-8][a-h][1-8]'

    step "windows: Windows paths (drive C:, backslashes, spaces, ';') for SyzygyPath, BookFile, EvalFile"
    # The files are copied to drive C: (the wine prefix's drive_c), which is not the current
    # drive (Z:, wine's view of /), into a folder whose name has a space.
    local data="$WINEPREFIX/drive_c/Ferrum data" c='C:\Ferrum data'
    mkdir -p "$data"
    cp -r "$SHARED/syzygy" "$data/syzygy"
    cp book/ferrum.bin src/eval/nnue/g6-724tr.nnue "$data/"
    lines "$WORK/paths" '\n' uci \
        "setoption name SyzygyPath value D:\\nowhere;$c\\syzygy" \
        "setoption name BookFile value $c\\ferrum.bin" 'setoption name OwnBook value true' \
        "setoption name EvalFile value $c\\g6-724tr.nnue" isready 'position startpos' 'go depth 3' \
        'position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1' 'go depth 3' quit
    session "$engine" "$WORK/paths" 'Syzygy: found 35 WDL and 35 DTZ tables' \
        '^info string EvalFile: network C:' '^info string book move ' 'tbhits [1-9]'

    step "windows: a Hash too large to allocate"
    lines "$WORK/hash" '\n' uci 'setoption name Hash value 65536' isready 'go depth 3' quit
    session "$engine" "$WORK/hash" 'cannot allocate a 65536 MB hash table' '^readyok' '^bestmove '
}

aarch64() {
    step "aarch64: build (static, ARMv8.0)"
    local bin engine
    bin=$(cross_build_named aarch64)
    bin=$(realpath "$bin")
    engine="$WORK/ferrum-qemu"
    engine_wrapper "$engine" qemu-aarch64 "$bin"
    # Static: no program interpreter (dynamic loader) to find on the user's system.
    if aarch64-linux-gnu-readelf -l "$bin" | grep -q INTERP; then
        fail "$bin is linked dynamically"
    fi
    TIME_SCALE=3 common aarch64 "$engine" "$(realpath "$SHARED/syzygy")"
}

missing=$(cross_missing "${CROSS_BUILD_NEEDS[@]}" "${CROSS_RUN_NEEDS[@]}")
[[ -z $missing ]] || fail "the cross tests need these Debian packages: $missing"
for platform in "${PLATFORMS[@]}"; do
    case $platform in
        windows | aarch64) "$platform" ;;
        *) fail "unknown platform $platform" ;;
    esac
done
step "cross-built binaries: every check passed (${PLATFORMS[*]})"
