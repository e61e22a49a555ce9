#!/bin/bash
# Runs one libFuzzer target for a while and says how it went, in one line:
#
#   tests/fuzz/run.sh build/fuzz/NAME_fuzz [WORK]
#
# Seeds, read only: tests/fuzz/corpus/NAME/ and the shipped templates/, sql/
# and conf/. New inputs that reach new code go to WORK (default
# build/fuzz/work/NAME, kept for the next run), libFuzzer's output to
# WORK.log, and a crashing input to build/fuzz/crashes/NAME_fuzz-crash-<sha1>
# (or leak-, timeout-, oom-), kept whatever happens to WORK.
#
#   FUZZ_SECONDS   how long to fuzz (default 8)
#
# Exit 0 when nothing crashed; otherwise the tail of the log and the crash
# file's name, exit 1.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 1

bin=${1:?usage: tests/fuzz/run.sh build/fuzz/NAME_fuzz [WORK]}
target=$(basename "$bin")
name=${target%_fuzz}
work=${2:-build/fuzz/work/$name}
seconds=${FUZZ_SECONDS:-8}
crashes=build/fuzz/crashes
logf=$work.log

[ -x "$bin" ] || { echo "$target: no such fuzz target (make fuzzers)"; exit 1; }
[ -d "tests/fuzz/corpus/$name" ] || { echo "$target: no seed corpus tests/fuzz/corpus/$name"; exit 1; }
mkdir -p "$work" "$crashes"

# -timeout: an input that takes half a minute is a bug (a hang), not a slow
# machine. -print_final_stats: the runs and speed for the summary.
"$bin" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$crashes/$target-" \
    "$work" "tests/fuzz/corpus/$name" templates sql conf >"$logf" 2>&1
rc=$?

stat() { sed -n "s/^stat::$1: *//p" "$logf" | tail -1; }
if [ "$rc" = 0 ]; then
    cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$logf" | tail -1)
    echo "$target: $(stat number_of_executed_units) runs in ${seconds} s," \
        "$(stat average_exec_per_sec)/s, $cov edges covered, $(stat new_units_added) new inputs kept in $work"
    exit 0
fi
tail -40 "$logf"
crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$logf" | tail -1)
echo "$target: CRASHED (exit $rc; log $logf)"
if [ -n "$crash" ]; then
    echo "$target: crashing input: $crash (reproduce: $bin $crash)"
fi
exit 1
