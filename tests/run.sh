#!/bin/bash
# `make test`: builds everything (plain, with AddressSanitizer +
# UndefinedBehaviorSanitizer, and the libFuzzer targets with clang), starts
# a private MariaDB and an Apache with mod_fcgid on loopback, runs every
# layer of tests, stops what it started and prints "N passed, N failed"
# last. Exit 0 only when nothing failed.
#
#   FUZZ_SECONDS  how long each fuzz target runs (default 8; nproc targets at a time)
#   KEEP=1        leave the servers and the work folder for a look afterwards
#   QUICK=1       a developer's quick round: no sanitized build, no fuzzing
#   SERVE=1       start the servers, write WORK/env.sh and stop there, the
#                 servers kept: `. WORK/env.sh` and run one test binary with
#                 --gtest_filter (implies QUICK=1 and KEEP=1)
set -uo pipefail
export PATH=$PATH:/usr/sbin:/sbin
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)
[ "${SERVE:-0}" != 1 ] || export QUICK=1 KEEP=1

log() { echo "== $*"; }

passed=0 failed=0
failures=()

# count NAME LOGFILE RC: adds a gtest binary's results to the totals.
count() {
    local name=$1 logf=$2 rc=$3 p f
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$logf" | tail -1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\{0,1\}, listed below:.*/\1/p' "$logf" | tail -1)
    p=${p:-0} f=${f:-0}
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=1  # crashed or failed outside a test
    fi
    passed=$((passed + p)) failed=$((failed + f))
    [ "$f" = 0 ] || failures+=("$name")
    echo "   $name: $p passed, $f failed"
}

# gtest NAME BINARY: runs one test binary, shows failures, counts.
gtest() {
    local name=$1 bin=$2 logf rc
    logf=$WORK/$name.log
    log "$name"
    "$bin" --gtest_color=no >"$logf" 2>&1
    rc=$?
    # Each failure with the lines that say what was expected (cut short: a
    # value can be a whole document), so that a failure seen once in CI can
    # be read from its output.
    grep -E -A6 '^\[  FAILED  \]|Failure$|^(tests|lib)/.*(Failure|error)|ERROR: (Address|Leak)Sanitizer|runtime error' \
        "$logf" | cut -c1-400 | head -80
    count "$name" "$logf" "$rc"
}

# --- build
log "build"
make -s -j"$JOBS" all binaries || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
if [ "${QUICK:-0}" != 1 ]; then
    make -s -j"$JOBS" SANITIZE=1 binaries || { echo "sanitizer build failed"; echo "0 passed, 1 failed"; exit 1; }
    make -s -j"$JOBS" fuzzers || { echo "fuzz build failed"; echo "0 passed, 1 failed"; exit 1; }
fi

WORK=$(mktemp -d /tmp/feed-test.XXXXXX)
chmod 755 "$WORK"
cleanup() {
    if [ "${KEEP:-0}" = 1 ]; then
        echo "kept: $WORK (stop: tests/harness/apache.sh stop $WORK/apache; tests/harness/nginx.sh stop $WORK/nginx;" \
             "tests/harness/mariadb.sh stop $WORK/db; tests/harness/replicas.sh stop $WORK/replicas)"
        return
    fi
    tests/harness/apache.sh stop "$WORK/apache" >/dev/null 2>&1
    tests/harness/nginx.sh stop "$WORK/nginx" >/dev/null 2>&1
    tests/harness/mariadb.sh stop "$WORK/db" >/dev/null 2>&1
    tests/harness/replicas.sh stop "$WORK/replicas" >/dev/null 2>&1
    for mode in fcgid cgi; do tests/harness/shared_host.sh stop "$WORK/host-$mode/apache" >/dev/null 2>&1; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- unit tests and fuzzing need no server
[ "${SERVE:-0}" = 1 ] || gtest unit build/unit_tests
[ "${QUICK:-0}" = 1 ] || gtest unit-sanitized build/sanitize/unit_tests

# Each libFuzzer target (tests/fuzz/run.sh) for FUZZ_SECONDS, $JOBS at a
# time, each one pass or one failure. What they find goes to $WORK/fuzz, not
# into the tree's seed corpus; a crashing input to build/fuzz/crashes/.
fuzz() {
    local src name n=0
    mkdir -p "$WORK/fuzz"
    log "fuzz (${FUZZ_SECONDS:-8} s per target, $JOBS at a time)"
    for src in tests/fuzz/*_fuzz.cpp; do
        name=$(basename "$src" .cpp)
        if [ "$n" -ge "$JOBS" ]; then wait -n; n=$((n - 1)); fi
        { tests/fuzz/run.sh "build/fuzz/$name" "$WORK/fuzz/${name%_fuzz}" >"$WORK/fuzz/$name.out" 2>&1
          echo $? >"$WORK/fuzz/$name.rc"; } &
        n=$((n + 1))
    done
    wait
    for src in tests/fuzz/*_fuzz.cpp; do
        name=$(basename "$src" .cpp)
        if [ "$(cat "$WORK/fuzz/$name.rc" 2>/dev/null)" = 0 ]; then
            passed=$((passed + 1))
            sed 's/^/   /' "$WORK/fuzz/$name.out"
        else
            failed=$((failed + 1))
            failures+=("$name")
            cat "$WORK/fuzz/$name.out"
        fi
    done
}
[ "${QUICK:-0}" = 1 ] || fuzz

# --- the servers
log "start MariaDB and Apache in $WORK"
# On its socket and, for the release's chroot test (no socket there), on
# TCP at a free port of 127.0.0.1. Exported, so that a test that restarts
# the server (test_env.cpp's StartDatabase) keeps the port.
DB_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export MARIADB_ARGS="--skip-networking=0 --bind-address=127.0.0.1 --port=$DB_PORT"
tests/harness/mariadb.sh start "$WORK/db" >"$WORK/mariadb-start.log" 2>&1 ||
    { cat "$WORK/mariadb-start.log"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }
SOCKET=$WORK/db/run/mysqld.sock
# The replica tests' own servers (a primary and two replicas, issue #13),
# started meanwhile: they are needed only after the other integration tests.
MARIADB_ARGS= tests/harness/replicas.sh start "$WORK/replicas" >"$WORK/replicas-start.log" 2>&1 &
REPLICAS_PID=$!
mariadb --no-defaults --socket="$SOCKET" -ufeed -pfeed -e 'CREATE DATABASE IF NOT EXISTS sample_test'

# The site as an owner deploys it: cgi-bin/feed.fcgi beside conf/,
# templates/ and sql/.
SITE=$WORK/site
mkdir -p "$SITE/cgi-bin"
cp -r conf templates sql "$SITE/"
# Short database timeouts, so that the frozen-database test takes seconds.
# The test Apache loads mod_xsendfile (tests/harness/apache.sh), so its copy
# hands large bodies off as a root-managed server would (the shipped config
# says none); nginx's copy below goes back to none.
sed -i -e 's/^\[database\]$/[database]\nconnect_timeout = 2\nread_timeout = 4\nwrite_timeout = 4/' \
    -e 's/^hand_off *=.*/hand_off = x-sendfile/' "$SITE/conf/sample-board.ini"
grep -q '^hand_off = x-sendfile$' "$SITE/conf/sample-board.ini" ||
    { echo "the test site's config has no hand_off line to set"; echo "0 passed, 1 failed"; exit 1; }
# The status page on, behind a random token the tests get as
# FEED_TEST_STATUS_TOKEN (the shipped config leaves it off). Last in the
# file, so that nginx's copy below can drop it again.
STATUS_TOKEN=$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')
printf '\n[status]\nenabled = 1\ntoken = %s\nreports = 20\n' "$STATUS_TOKEN" >>"$SITE/conf/sample-board.ini"
cp build/feed.fcgi "$SITE/cgi-bin/feed.fcgi"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The shipped configs carry no secret: a random one keys this run's tokens.
FEED_DB_SOCKET=$SOCKET FEED_DB_NAME=sample_test FEED_SECRET=$(head -c 24 /dev/urandom | base64) \
    tests/harness/apache.sh start "$WORK/apache" "$PORT" "$SITE" "$SITE/conf/sample-board.ini" >"$WORK/apache-start.log" 2>&1 ||
    { cat "$WORK/apache-start.log"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

# The same site behind nginx, its processes kept by spawn-fcgi
# (conf/nginx-feed.conf): nginx buffers responses itself, so no hand-off.
# spawn-fcgi starts the processes at once, and each checks its queries
# against the tables as it starts: the board's schema comes first.
cat sql/sample-board.sql sql/state.sql | mariadb --no-defaults --socket="$SOCKET" -ufeed -pfeed sample_test
NGINX_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# ...and the status page off as shipped (the e2e tests expect 404 there).
sed -e 's/^hand_off *=.*/hand_off = none/' -e '/^\[status\]$/,$d' "$SITE/conf/sample-board.ini" \
    >"$SITE/conf/sample-board-nginx.ini"
FEED_DB_SOCKET=$SOCKET FEED_DB_NAME=sample_test FEED_SECRET=$(head -c 24 /dev/urandom | base64) \
    tests/harness/nginx.sh start "$WORK/nginx" "$NGINX_PORT" "$SITE" "$SITE/conf/sample-board-nginx.ini" \
    >"$WORK/nginx-start.log" 2>&1 ||
    { cat "$WORK/nginx-start.log"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

# The legacy board of ../shared (when present): its own schema and data
# generator, served by conf/legacy-board.ini.
LEGACY=$ROOT/../shared/board
if [ -f "$LEGACY/schema.sql" ] && [ -f "$LEGACY/gen.py" ]; then
    mariadb --no-defaults --socket="$SOCKET" -ufeed -pfeed -e 'DROP DATABASE IF EXISTS board; CREATE DATABASE board'
    if { cat "$LEGACY/schema.sql" sql/state.sql sql/legacy-baidu-index.sql
         python3 "$LEGACY/gen.py" --ads 3000 --jobs 1000 --files 300 --seed 1; } |
        mariadb --no-defaults --socket="$SOCKET" -ufeed -pfeed board; then
        export FEED_TEST_LEGACY_DB=board
    else
        echo "loading the legacy board failed"; failed=$((failed + 1)); failures+=(legacy-board-load)
    fi
fi

# The release for shared hosts (make dist), deployed as its INSTALL.txt
# says into an empty folder, the sample mapping as its feed.ini: the
# end-to-end tests run it in a chroot holding nothing else, and under an
# Apache set up as a shared host is (mod_fcgid, then plain CGI), from a
# user's public_html/cgi-bin.
if release/make-dist.sh build/feed.fcgi test "$WORK/dist" >"$WORK/dist.log" 2>&1 &&
    HAND_OFF=none tests/harness/deploy_release.sh "$WORK/dist/feed-fcgi-test-linux-x86_64.tar.gz" \
        "$WORK/release" "$DB_PORT" sample_test >>"$WORK/dist.log" 2>&1; then
    export FEED_TEST_RELEASE=$WORK/release
    log "release: $(grep 'KiB packed' "$WORK/dist.log")"
    for mode in fcgid cgi; do
        h=$WORK/host-$mode/home/user
        # As the release ships it: hand_off = redirect; pages of 50,000 ads.
        PAGE_SIZE=50000 tests/harness/deploy_release.sh "$WORK/dist/feed-fcgi-test-linux-x86_64.tar.gz" \
            "$h/public_html/cgi-bin" "$DB_PORT" sample_test >>"$WORK/dist.log" 2>&1
        # On a shared host the owner's files are the owner's, and scripts run
        # as the owner: here the web server's user stands for both.
        [ "$(id -u)" = 0 ] && chown -R www-data: "$h"
        port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        if tests/harness/shared_host.sh start "$WORK/host-$mode/apache" "$port" "$h" "$mode" \
            >"$WORK/host-$mode.log" 2>&1; then
            export "FEED_TEST_SHARED_${mode^^}_URL=http://127.0.0.1:$port" "FEED_TEST_SHARED_${mode^^}_HOME=$h"
        else
            cat "$WORK/host-$mode.log"; failed=$((failed + 1)); failures+=("shared-host-$mode")
        fi
    done
else
    cat "$WORK/dist.log"; echo "make dist failed"; failed=$((failed + 1)); failures+=(dist)
fi

# What tests leave for a person to look at (the status page's screenshots);
# kept after the run.
export FEED_TEST_OUTPUT=$ROOT/build/test-output
mkdir -p "$FEED_TEST_OUTPUT"
export FEED_TEST_STATUS_TOKEN=$STATUS_TOKEN FEED_TEST_NGINX_URL=http://127.0.0.1:$NGINX_PORT/cgi-bin/feed.fcgi
export FEED_TEST_APACHE_LOG=$WORK/apache/log/apache-error.log FEED_TEST_SITE=$SITE
export FEED_TEST_ROOT=$ROOT FEED_TEST_SOCKET=$SOCKET FEED_TEST_DB=sample_test \
       FEED_TEST_DB_DIR=$WORK/db FEED_TEST_URL=http://127.0.0.1:$PORT/cgi-bin/feed.fcgi
export FEED_TEST_BIN=$ROOT/build/feed.fcgi

if [ "${SERVE:-0}" = 1 ]; then
    wait "$REPLICAS_PID" || cat "$WORK/replicas-start.log"
    { export -p | grep -E ' (FEED_TEST_[A-Z0-9_]*|MARIADB_ARGS)='
      R=$WORK/replicas
      echo "# the replica tests: GTEST_FILTER=Replica* with these instead"
      echo "# FEED_TEST_SOCKET=$R/primary/run/mysqld.sock FEED_TEST_DB_DIR=$R/primary FEED_TEST_REPLICA_DIR=$R" \
           "FEED_TEST_REPLICA1_SOCKET=$R/replica1/run/mysqld.sock FEED_TEST_REPLICA2_SOCKET=$R/replica2/run/mysqld.sock"
    } >"$WORK/env.sh"
    log "servers up; . $WORK/env.sh, then run build/integration_tests or build/e2e_tests --gtest_filter=..."
    exit 0
fi

GTEST_FILTER=-Replica* FEED_TEST_BIN=$ROOT/build/feed.fcgi gtest integration build/integration_tests
[ "${QUICK:-0}" = 1 ] ||
    GTEST_FILTER=-Replica* FEED_TEST_BIN=$ROOT/build/sanitize/feed.fcgi \
    gtest integration-sanitized build/sanitize/integration_tests
# Against the primary and its two replicas: FEED_TEST_SOCKET and
# FEED_TEST_DB_DIR are the primary's there, FEED_TEST_REPLICA{1,2}_SOCKET
# the replicas', FEED_TEST_REPLICA_DIR the set's folder (replicas.sh).
if wait "$REPLICAS_PID"; then
    R=$WORK/replicas
    GTEST_FILTER=Replica* FEED_TEST_SOCKET=$R/primary/run/mysqld.sock FEED_TEST_DB_DIR=$R/primary \
        FEED_TEST_REPLICA_DIR=$R FEED_TEST_REPLICA1_SOCKET=$R/replica1/run/mysqld.sock \
        FEED_TEST_REPLICA2_SOCKET=$R/replica2/run/mysqld.sock FEED_TEST_BIN=$ROOT/build/feed.fcgi \
        gtest integration-replicas build/integration_tests
else
    cat "$WORK/replicas-start.log"
    echo "starting the replica set failed"; failed=$((failed + 1)); failures+=(replicas-start)
fi
FEED_TEST_BIN=$ROOT/build/feed.fcgi gtest e2e build/e2e_tests
# The end-to-end core through nginx: headers, gzip, 304, HEAD, 405, 413,
# sitemaps, a robot's cut visit.
NGINX_CORE='HttpE2e.GetAnswers*:HttpE2e.Gzip*:HttpE2e.Conditional*:HttpE2e.Head*:HttpE2e.OtherMethods*'
NGINX_CORE+=':HttpE2e.SitemapIndex*:HttpE2e.ARobotPages*:HttpE2e.JoobleBot*'
NGINX_CORE+=':HostileE2e.AVisitCut*:HostileE2e.RequestBodies*:HostileE2e.ErrorsAre*:HostileE2e.LookAlike*'
GTEST_FILTER=$NGINX_CORE FEED_TEST_FRONT=nginx FEED_TEST_URL=http://127.0.0.1:$NGINX_PORT/cgi-bin/feed.fcgi \
    gtest e2e-nginx build/e2e_tests
if grep -q 'feed.fcgi' "$WORK/apache/log/apache-error.log" 2>/dev/null; then
    log "feed.fcgi in Apache's error log:"
    grep 'feed.fcgi' "$WORK/apache/log/apache-error.log" | tail -5 | cut -c1-300
fi

for f in "$FEED_TEST_OUTPUT"/status-*.png; do
    [ -f "$f" ] && log "status page screenshot: $f"
done

echo
[ ${#failures[@]} -eq 0 ] || echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
