#!/bin/sh
# The record of a data set kept in training/NAME.chunks: one `ferrum datainfo` line per complete
# chunk (sizes, seed, games, positions, results, order-independent digest), then the chunks'
# SHA-256. A chunk still being written (.part) is left out.
#   training/record.sh "$FERRUM_DATA/gen0" > training/gen0.chunks.new
# FERRUM_BIN names the binary (default target/release/ferrum).
set -eu
dir=$1
bin=${FERRUM_BIN:-target/release/ferrum}
"$bin" datainfo "$dir" | grep '^chunk-.*\.bin '
(cd "$dir" && sha256sum chunk-*.bin)
