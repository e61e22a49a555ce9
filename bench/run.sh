#!/bin/bash
# `make bench`: feed.fcgi against the legacy PHP scripts it replaces and the
# database's own speed, on the legacy board of ../shared/board. See
# bench/README.md.
#
#   BENCH_ADS (1000000), BENCH_JOBS (200000)   size of the board
#   BENCH_ROUNDS (3)                           rounds per measurement
#   BENCH_DIR (/tmp/feed-bench)                databases, kept between runs
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
[ -f ../shared/board/serve.sh ] || { echo "bench: ../shared/board (the legacy board) is not beside this clone" >&2; exit 1; }
tools/deps.sh php-cgi php-mysql wrk gnuplot-nox
make -s -j"$(nproc)" BUILD=build/bench CXXFLAGS="-O2 -DNDEBUG" build/bench/feed.fcgi
exec python3 bench/bench.py "$@"
