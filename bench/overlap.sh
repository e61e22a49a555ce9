#!/bin/bash
# What Jooble's overlapping visits cost (docs/formats/jooble.md, "What the program
# guarantees"): on the legacy bench board, JoobleBot visits the feed
# VISITS times, UPDATES random vacancies changing between two visits, once
# with overlap_visits = 0 and once with 1 (the default), through feed.fcgi
# as a CGI program; prints the vacancies and bytes each visit carried.
#
#   bench/overlap.sh [--jobs N] [--visits N] [--updates N]
#
# Needs ../shared/board beside the clone (serve.sh starts the board's
# MariaDB in bench/var/overlap-board-N, kept for the next run).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
JOBS=200000 VISITS=6 UPDATES=2000
while [ $# -gt 0 ]; do
    case $1 in
        --jobs) JOBS=$2; shift 2 ;;
        --visits) VISITS=$2; shift 2 ;;
        --updates) UPDATES=$2; shift 2 ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
SHARED=$ROOT/../shared/board
[ -x "$SHARED/serve.sh" ] || { echo "overlap: ../shared/board is not beside this clone" >&2; exit 1; }
make -s all
DIR=$ROOT/bench/var/overlap-board-$JOBS
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$SHARED/serve.sh" start -d "$DIR" -p "$PORT" --ads 1000 --jobs "$JOBS" --files 10 >/dev/null
trap '"$SHARED/serve.sh" stop -d "$DIR" >/dev/null' EXIT
SOCK=$(find "$DIR" -name '*.sock' | head -1)
db() { mariadb --no-defaults --socket="$SOCK" -uroot -N -B board "$@"; }
db < sql/state.sql

# The legacy config, no settle margin (visits are seconds apart here), the
# program sending bodies itself; one feed per overlap setting.
WORK=$(mktemp -d)
CONF=$WORK/conf/board.ini
mkdir -p "$WORK/conf"
cp -r templates sql "$WORK/"
python3 - "$ROOT/conf/legacy-board.ini" "$CONF" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
t = t.replace('hand_off  = x-sendfile', 'hand_off  = none')
m = re.search(r'\[feed jooble\]\n(.*?)\n\n', t, re.S)
body = m.group(1).replace('settle_seconds = 10', 'settle_seconds = 0')
feeds = '[feed jooble]\n' + body.replace('path           = /jooble', 'path           = /jooble-0') + '\noverlap_visits = 0\n\n'
feeds += '[feed jooble-1]\n' + body.replace('path           = /jooble', 'path           = /jooble-1') + '\noverlap_visits = 1\n\n'
t = t[:m.start()] + feeds + t[m.end():]
open(sys.argv[2], 'w').write(t)
EOF
ZONE=$(sed -n 's/^time_zone *= *\([^ ;]*\).*/\1/p' "$CONF" | head -1)
db -e "DELETE FROM feed_robot_visit WHERE feed IN ('jooble', 'jooble-1')"

visit() {  # visit PATH: jobs and bytes of one JoobleBot visit
    local out=$WORK/out
    env -i PATH="$PATH" FEED_CONFIG="$CONF" FEED_DB_SOCKET="$SOCK" FEED_DB_USER=root FEED_DB_PASSWORD= \
        FEED_SECRET=overlap-bench-secret-0123456789 REQUEST_METHOD=GET PATH_INFO="$1" \
        HTTP_USER_AGENT='JoobleBot/2.0' GATEWAY_INTERFACE=CGI/1.1 "$ROOT/cgi-bin/feed.fcgi" >"$out" 2>/dev/null
    echo "$(grep -o '<job id=' "$out" | wc -l) $(stat -c %s "$out")"
}

printf '| visit | overlap_visits = 0: jobs | bytes | overlap_visits = 1: jobs | bytes |\n|---|---|---|---|---|\n'
sum0=0 sum1=0
for v in $(seq 1 "$VISITS"); do
    if [ "$v" -gt 1 ]; then
        sleep 1.1   # the change comes after the last visit's snapshot (second resolution)
        # In the site's time (the config's time_zone), as the board writes it.
        db -e "UPDATE vacancy SET modified = '$(TZ=$ZONE date '+%F %T')', status = 'active' ORDER BY RAND() LIMIT $UPDATES"
        sleep 1.1   # and the next visit's snapshot comes after it
    fi
    read -r j0 b0 < <(visit /jooble-0)
    read -r j1 b1 < <(visit /jooble-1)
    printf '| %d | %d | %d | %d | %d |\n' "$v" "$j0" "$b0" "$j1" "$b1"
    if [ "$v" -gt 2 ]; then sum0=$((sum0 + j0)); sum1=$((sum1 + j1)); fi
done
echo
echo "from the third visit on: $sum1 jobs with overlap against $sum0 without ($(python3 -c "print('%.2f' % ($sum1 / max($sum0, 1)))")x), $UPDATES changes between visits"
rm -rf "$WORK"
