#!/bin/bash
# `make bench`: feed.fcgi against the legacy PHP scripts it replaces and the
# database's own speed, on the legacy board of ../shared/board. See
# bench/README.md.
#
#   BENCH_ADS (1000000), BENCH_JOBS (200000)   size of the board
#   BENCH_ADS_SMALL (200000)                   the full Yads dump's second board
#                                              (1,000 vacancies; 0: none)
#   BENCH_ROUNDS (3)                           rounds per measurement
#   BENCH_DIR (/tmp/feed-bench)                databases, kept between runs
#   BENCH_ONLY (all)                           e.g. sitemaps: only that group
#                                              (yads robots jooble sitemaps baidu msn)
#   BENCH_RESULTS (bench/results)              where the report goes
#
#   bench/run.sh [--only sitemaps]             arguments go to bench/bench.py
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
[ -f ../shared/board/serve.sh ] || { echo "bench: ../shared/board (the legacy board) is not beside this clone" >&2; exit 1; }
# time: GNU time, the peak memory of `feed.fcgi write`. Node.js and npm run
# the sitemap.js contender: Debian's packages only when there is no node
# (a Node.js from elsewhere, such as NodeSource's, brings its own npm).
EXTRA=(php-cgi php-mysql wrk gnuplot-nox time)
command -v node >/dev/null && command -v npm >/dev/null || EXTRA+=(nodejs npm)
tools/deps.sh "${EXTRA[@]}"
make -s -j"$(nproc)" BUILD=build/bench CXXFLAGS="-O2 -DNDEBUG" build/bench/feed.fcgi
exec python3 bench/bench.py "$@"
