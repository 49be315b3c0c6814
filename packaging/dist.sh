#!/usr/bin/env bash
# `make dist`: the release archives in dist/, one file per platform with the network embedded,
# and their SHA256SUMS. Installs nothing: it names the Debian packages that are missing.
#
#   dist/ferrum-VERSION-x86_64-windows.zip     ferrum.exe (x86-64-v2), ferrum-avx2.exe (x86-64-v3)
#   dist/ferrum-VERSION-aarch64-linux.tar.gz   ferrum (static, ARMv8.0)
#   dist/ferrum-VERSION-x86_64-linux.tar.gz    ferrum-x86-64, ferrum-x86-64-v2, ferrum-x86-64-v3
#   dist/SHA256SUMS
#
# Each archive holds one folder, ferrum-VERSION-PLATFORM/, with the binaries, README.txt (the GUI
# steps) and LICENSE. File times are the commit's, so the archives depend only on the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=packaging/cross.sh
. packaging/cross.sh

missing=$(cross_missing "${CROSS_BUILD_NEEDS[@]}" "${CROSS_PACK_NEEDS[@]}")
if [[ -n $missing ]]; then
    echo "make dist needs these Debian packages: $missing" >&2
    echo "  apt-get install $missing" >&2
    exit 1
fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p dist
rm -f dist/ferrum-"$version"-* dist/SHA256SUMS

# folder PLATFORM FILE...: stages ferrum-VERSION-PLATFORM/ with FILE... (SOURCE:NAME pairs),
# README.txt and LICENSE, and prints the folder's name. Windows gets its text with CRLF endings,
# as older Notepads need.
folder() {
    local name="ferrum-$version-$1" pair end=''
    [[ $1 == *windows* ]] && end=$'\r'
    shift
    mkdir -p "$stage/$name"
    for pair in "$@"; do
        cp "${pair%%:*}" "$stage/$name/${pair#*:}"
    done
    sed "s/@VERSION@/$version/g; s/\$/$end/" packaging/README.txt >"$stage/$name/README.txt"
    sed "s/\$/$end/" LICENSE >"$stage/$name/LICENSE.txt"
    find "$stage/$name" -exec touch -d "@$epoch" {} +
    echo "$name"
}

tarball() {
    local name=$1
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
        -cf - "$name" | gzip -n -9 >"dist/$name.tar.gz"
}

echo "== Windows x86-64 (v2 and AVX2)" >&2
win_v2=$(cross_build_named windows-v2)
win_v3=$(cross_build_named windows-v3)
name=$(folder x86_64-windows "$win_v2:ferrum.exe" "$win_v3:ferrum-avx2.exe")
(cd "$stage" && zip -q -X -r -9 "$OLDPWD/dist/$name.zip" "$name")

echo "== Linux aarch64" >&2
arm=$(cross_build_named aarch64)
tarball "$(folder aarch64-linux "$arm:ferrum")"

echo "== Linux x86-64 (the levels of make release)" >&2
make --no-print-directory release >&2
tarball "$(folder x86_64-linux ferrum-x86-64:ferrum-x86-64 ferrum-x86-64-v2:ferrum-x86-64-v2 \
    ferrum-x86-64-v3:ferrum-x86-64-v3)"

(cd dist && sha256sum ferrum-"$version"-* >SHA256SUMS && sha256sum -c --quiet SHA256SUMS)
ls -l dist >&2
