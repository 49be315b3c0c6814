# Cross-building Ferrum for Windows and ARM with Debian's packages; sourced by packaging/dist.sh
# and packaging/test-cross.sh, run from the repository root.
#
# rustup cannot add targets on machines without its download site, but Debian's rustc-web and
# cargo-web (in /usr/bin) with rust-web-src build the standard library for any target
# (-Zbuild-std, which a stable compiler accepts with RUSTC_BOOTSTRAP=1); mingw-w64 links Windows
# executables and gcc-aarch64-linux-gnu ARM ones (the linkers are named in .cargo/config.toml).
# wine and qemu-user run the results for the tests.

# The packages each part needs, as "command-or-path package" pairs.
CROSS_BUILD_NEEDS=(
    "/usr/bin/cargo cargo-web"
    "/usr/bin/rustc rustc-web"
    "/usr/lib/rustlib/src/rust/library/std/Cargo.toml rust-web-src"
    "x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64"
    "aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu"
    "/usr/aarch64-linux-gnu/lib/libc.a libc6-dev-arm64-cross"
)
CROSS_PACK_NEEDS=("zip zip" "sha256sum coreutils")
CROSS_RUN_NEEDS=("wine wine64" "qemu-aarch64 qemu-user")

# cross_missing NEED...: prints the Debian packages whose command or file is absent.
cross_missing() {
    local pair what package
    for pair in "$@"; do
        what=${pair% *}
        package=${pair#* }
        if [[ $what == /* ]]; then
            [[ -e $what ]] || echo "$package"
        else
            command -v "$what" >/dev/null || echo "$package"
        fi
    done | sort -u | tr '\n' ' '
}

# cross_build TARGET NAME RUSTFLAGS: builds the ferrum binary for TARGET with RUSTFLAGS in a
# target directory of its own (target/cross/NAME), and prints the binary's path.
cross_build() {
    local target=$1 name=$2 flags=$3 dir="target/cross/$2" exe=ferrum
    [[ $target == *windows* ]] && exe=ferrum.exe
    # /usr/bin first, so that the compiler cargo runs is Debian's and not rustup's proxy.
    PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" \
        /usr/bin/cargo build --release --locked --bin ferrum -Zbuild-std=std,panic_abort \
        --target "$target" --target-dir "$dir" >&2 || return 1
    echo "$dir/$target/release/$exe"
}

# The builds, by name: target and RUSTFLAGS. Windows gets the x86-64-v2 level (POPCNT; every
# CPU that runs Windows 10 has it) and an AVX2 one (x86-64-v3). The ARM binary is linked
# statically, so it runs on any 64-bit ARM Linux whatever its C library (Raspberry Pi OS,
# Ubuntu, Alpine, an Android terminal), at the ARMv8.0 baseline that every such CPU has.
cross_target() {
    case $1 in
        windows-v2) echo "x86_64-pc-windows-gnu|-C target-cpu=x86-64-v2" ;;
        windows-v3) echo "x86_64-pc-windows-gnu|-C target-cpu=x86-64-v3" ;;
        aarch64) echo "aarch64-unknown-linux-gnu|-C target-feature=+crt-static" ;;
        *) return 1 ;;
    esac
}

# cross_build_named NAME: cross_build for one of the builds above.
cross_build_named() {
    local spec
    spec=$(cross_target "$1")
    cross_build "${spec%%|*}" "$1" "${spec#*|}"
}

# wine_stage EXE DIR: copies EXE into DIR beside the test-only bcryptprimitives.dll (see
# packaging/wine/bcryptprimitives.c) and prints the staged exe's path.
wine_stage() {
    local exe=$1 dir=$2
    mkdir -p "$dir"
    cp "$exe" "$dir/"
    x86_64-w64-mingw32-gcc -O2 -shared -o "$dir/bcryptprimitives.dll" \
        packaging/wine/bcryptprimitives.c -ladvapi32
    echo "$dir/$(basename "$exe")"
}

# engine_wrapper PATH COMMAND...: writes an executable script PATH that runs COMMAND with the
# script's arguments, for tools that take an engine as one path (uci_probe.py, perft_check.py,
# fastchess).
engine_wrapper() {
    local path=$1
    shift
    printf '#!/bin/sh\nexec %s "$@"\n' "$*" >"$path"
    chmod +x "$path"
}
