#!/bin/bash
# Manual check of the test harness (not part of `make test`):
#
#   tests/harness/selftest.sh [DIR]        (DIR default /tmp/feed-harness-check)
#
# 1. mariadb.sh start DIR/mariadb; as the password user feed: database
#    `sample`, sql/sample-board.sql, tools/gen_sample_board.py --ads 3000
#    --jobs 1000; checks row counts, that every text value reads back byte
#    for byte (control characters, emoji, CJK), the dirty-data shares, that
#    the generator is deterministic, a --mutate run; a second start is a
#    no-op; stop, start again (data kept), stop.
# 2. apache.sh with a 20-line libfcgi echo program as ROOT/cgi-bin/feed.fcgi:
#    PATH_INFO, QUERY_STRING, FEED_CONFIG, FEED_DB_* and TZ reach it, nothing
#    else of the caller's environment does, it runs as www-data (as root), a
#    taken port is refused; stop.
# Ends with "selftest: OK", or the first failure (exit 1).
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
DIR=${1:-/tmp/feed-harness-check}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
DB=$DIR/mariadb WEB=$DIR/apache ROOT=$DIR/root
SOCK=$DB/run/mysqld.sock

log() { echo "selftest: $*"; }
fail() { echo "selftest: FAILED: $*" >&2; exit 1; }
check() {  # check WHAT GOT WANT
    [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
    log "ok  $1 = $2"
}

cleanup() {
    "$HERE/apache.sh" stop "$WEB" >/dev/null 2>&1 || true
    "$HERE/apache.sh" stop "$DIR/apache2" >/dev/null 2>&1 || true
    "$HERE/mariadb.sh" stop "$DB" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$TOP/tools/deps.sh"

# ------------------------------------------------------------ MariaDB
t0=$(date +%s%N)
"$HERE/mariadb.sh" start "$DB"
t1=$(date +%s%N)
log "first start: $(( (t1 - t0) / 1000000 )) ms"
"$HERE/mariadb.sh" start "$DB" | grep -q 'already running' || fail "second start is not a no-op"
"$HERE/mariadb.sh" status "$DB" >/dev/null || fail "status says not running"

sql() { mariadb --no-defaults --socket="$SOCK" --default-character-set=utf8mb4 "$@"; }
feed() { sql -ufeed -pfeed "$@"; }

if [ "$(id -u)" = 0 ]; then
    check "www-data connects as feed over the socket" \
        "$(runuser -u www-data -- mariadb --no-defaults --socket="$SOCK" -ufeed -pfeed -N -e 'SELECT CURRENT_USER()')" \
        feed@localhost
fi
sql -e 'DROP DATABASE IF EXISTS sample; CREATE DATABASE sample'
feed sample <"$TOP/sql/sample-board.sql"
GEN=$DIR/sample.sql
python3 "$TOP/tools/gen_sample_board.py" --ads 3000 --jobs 1000 >"$GEN"
python3 "$TOP/tools/gen_sample_board.py" --ads 3000 --jobs 1000 | cmp -s - "$GEN" ||
    fail "the generator's output differs between two runs"
log "ok  generator output is deterministic ($(wc -c <"$GEN") bytes)"
check "first line" "$(head -n1 "$GEN")" "SET NAMES utf8mb4;"
t0=$(date +%s%N)
feed sample <"$GEN"
t1=$(date +%s%N)
log "loaded in $(( (t1 - t0) / 1000000 )) ms"

q() { feed -N -B sample -e "$1"; }
check "region rows" "$(q 'SELECT COUNT(*) FROM region')" 25
check "listing rows" "$(q 'SELECT COUNT(*) FROM listing')" 3000
check "job rows" "$(q 'SELECT COUNT(*) FROM job')" 1000
check "listing ids follow added" \
    "$(q 'SELECT COUNT(*) FROM listing a JOIN listing b ON b.id = a.id + 1 WHERE b.added < a.added')" 0
check "updated >= added" \
    "$(q 'SELECT (SELECT COUNT(*) FROM listing WHERE updated < added) + (SELECT COUNT(*) FROM job WHERE updated < created)')" 0
check "dates within 60 days before now" \
    "$(q "SELECT COUNT(*) FROM listing WHERE added < '2026-09-02 12:00:00' OR updated > '2026-11-01 12:00:00'")" 0

# A body with \x01, read back as hex.
id=$(q "SELECT id FROM listing WHERE body LIKE CONCAT('%', CHAR(1), '%') ORDER BY id LIMIT 1")
[ -n "$id" ] || fail "no listing body holds \\x01"
hex=$(q "SELECT HEX(body) FROM listing WHERE id = $id")
case $hex in *01*) ;; *) fail "HEX(body) of listing $id has no 01" ;; esac
log "ok  listing $id body with \\x01: ...$(echo "$hex" | grep -o '.\{0,12\}01.\{0,12\}' | head -n1)..."

# Every text column of every row, as loaded, against the generator's literals.
q 'SELECT id, HEX(ref), HEX(title), HEX(body), HEX(author), HEX(phone), HEX(email), HEX(icq), HEX(photo) FROM listing ORDER BY id' >"$DIR/listing.hex"
q 'SELECT id, HEX(title), HEX(regions), HEX(salary), HEX(company), HEX(company_info), HEX(description), HEX(contacts) FROM job ORDER BY id' >"$DIR/job.hex"
python3 - "$GEN" "$DIR/listing.hex" "$DIR/job.hex" <<'EOF' || fail "values do not read back byte for byte"
import re, sys
ESC = {'\\': '\\', "'": "'", 'n': '\n', 'r': '\r', '0': '\0', 'Z': '\x1a'}
TOKEN = re.compile(r"'((?:[^'\\]|\\.)*)'|(NULL)|(-?\d+)", re.S)
def values(line):
    out = []
    for s, null, num in TOKEN.findall(line[1:]):
        out.append(None if null else int(num) if num else
                   re.sub(r'\\(.)', lambda m: ESC[m.group(1)], s, flags=re.S))
    return out
rows = {'listing': {}, 'job': {}}
table = None
for line in open(sys.argv[1], encoding='utf-8', newline='\n'):
    m = re.match(r'INSERT INTO (\w+) ', line)
    if m:
        table = m.group(1)
    elif line.startswith('(') and table in rows:
        v = values(line.rstrip('\n').rstrip(';,').rstrip(')'))
        rows[table][v[0]] = v
# columns: listing: id ref kind title body author region phone email icq photo ...
#          job: id is_resume title regions salary company info description contacts ...
pick = {'listing': [1, 3, 4, 5, 7, 8, 9, 10], 'job': [2, 3, 4, 5, 6, 7, 8]}
bad = n = 0
for table, path in (('listing', sys.argv[2]), ('job', sys.argv[3])):
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        want = rows[table][int(f[0])]
        for col, h in zip(pick[table], f[1:]):
            n += 1
            if bytes.fromhex(h) != want[col].encode('utf-8'):
                bad += 1
                if bad < 5:
                    print('mismatch %s id %s column %d' % (table, f[0], col), file=sys.stderr)
    if len(rows[table]) != sum(1 for _ in open(path)):
        sys.exit('%s: row count differs' % table)
print('selftest: ok  %d values read back byte for byte' % n if not bad else '%d bad' % bad)
sys.exit(1 if bad else 0)
EOF

log "shares (want about: ctrl 1%, tags 3%, ]]> 1%, 20KB 1%, emoji 3%, no phone 3%, hidden 2%, deleted 2%, days0 1%, email '' 40%, icq '' 88%, photo '' 55%, demand 25%):"
q "SELECT CONCAT('  listing: ctrl ', ROUND(100*AVG(body REGEXP '[\\\\x01\\\\x08\\\\x0b\\\\x1f]'),1),
        '%, tags ', ROUND(100*AVG(body LIKE '%<b>%' OR body LIKE '%<br%' OR body LIKE '%<script>%'),1),
        '%, ]]> ', ROUND(100*AVG(body LIKE '%]]>%'),1),
        '%, 20KB ', ROUND(100*AVG(LENGTH(body) > 20000),1),
        '%, emoji ', ROUND(100*AVG(body REGEXP '[\\\\x{10000}-\\\\x{10FFFF}]'),1),
        '%, no phone ', ROUND(100*AVG(phone = ''),1),
        '%, hidden ', ROUND(100*AVG(status = 'hidden'),1),
        '%, deleted ', ROUND(100*AVG(status = 'deleted'),1),
        '%, days0 ', ROUND(100*AVG(days = 0),1),
        '%, email-empty ', ROUND(100*AVG(email = ''),1),
        '%, icq-empty ', ROUND(100*AVG(icq = ''),1),
        '%, photo-empty ', ROUND(100*AVG(photo = ''),1),
        '%, demand ', ROUND(100*AVG(kind = 'demand'),1),
        '%, edited ', ROUND(100*AVG(updated > added),1),
        '%, ref>32 ', SUM(CHAR_LENGTH(ref) > 32),
        ' rows, ref-punct ', SUM(ref REGEXP '[^A-Za-z0-9]'), ' rows') FROM listing"
q "SELECT CONCAT('  job: resumes ', ROUND(100*AVG(is_resume),1),
        '%, expires NULL ', ROUND(100*AVG(expires IS NULL),1),
        '%, no contacts ', ROUND(100*AVG(contacts = ''),1),
        '%, script ', ROUND(100*AVG(description LIKE '%<script>%'),1),
        '%, emoji ', ROUND(100*AVG(description REGEXP '[\\\\x{10000}-\\\\x{10FFFF}]'),1),
        '%, ukrainian ', ROUND(100*AVG(CONCAT(title, description) REGEXP '[іїєґІЇЄҐ]'),1),
        '%, hidden ', ROUND(100*AVG(status = 'hidden'),1),
        '%, deleted ', ROUND(100*AVG(status = 'deleted'),1), '%') FROM job"
check "listings with \\x01\\x08\\x0b\\x1f > 0" \
    "$(q "SELECT COUNT(*) > 0 FROM listing WHERE body REGEXP '[\\\\x01\\\\x08\\\\x0b\\\\x1f]'")" 1
check "jobs with ґ > 0" "$(q "SELECT COUNT(*) > 0 FROM job WHERE CONCAT(title, description, company_info) LIKE BINARY '%ґ%'")" 1
check "listings with 😀 > 0" "$(q "SELECT COUNT(*) > 0 FROM listing WHERE body LIKE BINARY '%😀%'")" 1

# Later activity.
python3 "$TOP/tools/gen_sample_board.py" --mutate 'add=10,edit=5,delete=3' \
    --now '2026-11-01 13:00:00' | feed sample
check "listing rows after --mutate add=10" "$(q 'SELECT COUNT(*) FROM listing')" 3010
check "job rows after --mutate add=10" "$(q 'SELECT COUNT(*) FROM job')" 1010
n=$(q "SELECT COUNT(*) FROM listing WHERE updated = '2026-11-01 13:00:00'")
[ "$n" -ge 10 ] && [ "$n" -le 18 ] || fail "listing rows stamped by --mutate: $n"
log "ok  listing rows stamped by --mutate: $n (10 new + up to 8 edits/deletes)"

"$HERE/mariadb.sh" stop "$DB"
"$HERE/mariadb.sh" status "$DB" >/dev/null && fail "status says running after stop"
"$HERE/mariadb.sh" stop "$DB" >/dev/null || fail "a second stop is an error"
t0=$(date +%s%N)
"$HERE/mariadb.sh" start "$DB"
t1=$(date +%s%N)
log "second start (data kept): $(( (t1 - t0) / 1000000 )) ms"
check "listing rows after restart" "$(q 'SELECT COUNT(*) FROM listing')" 3010
"$HERE/mariadb.sh" stop "$DB"

# ------------------------------------------------------------ Apache
mkdir -p "$ROOT/cgi-bin"
cat >"$DIR/echo.c" <<'EOF'
/* FastCGI echo: request's PATH_INFO and QUERY_STRING, the process's environment. */
#include <fcgiapp.h>
#include <stdlib.h>
#include <unistd.h>
extern char **environ;
int main(void) {
    FCGX_Stream *in, *out, *err;
    FCGX_ParamArray envp;
    while (FCGX_Accept(&in, &out, &err, &envp) >= 0) {
        const char *pi = FCGX_GetParam("PATH_INFO", envp);
        const char *qs = FCGX_GetParam("QUERY_STRING", envp);
        FCGX_FPrintF(out, "Content-Type: text/plain\r\n\r\n");
        FCGX_FPrintF(out, "PATH_INFO=%s\nQUERY_STRING=%s\nUID=%d\n",
                     pi ? pi : "(unset)", qs ? qs : "(unset)", (int)getuid());
        for (char **e = environ; *e; e++)
            FCGX_FPrintF(out, "env %s\n", *e);
    }
    return 0;
}
EOF
gcc -O2 -Wall -o "$ROOT/cgi-bin/feed.fcgi" "$DIR/echo.c" -lfcgi || fail "cannot build the echo program"
printf '[db]\n' >"$DIR/feed.ini"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

FEED_DB_SOCKET=$SOCK FEED_DB_USER=feed FEED_DB_PASSWORD='fe"e\d' FEED_DB_NAME=sample \
    TZ=Europe/Kyiv SELFTEST_LEAK=1 "$HERE/apache.sh" start "$WEB" "$PORT" "$ROOT" "$DIR/feed.ini"
out=$(curl -sS --max-time 10 "http://127.0.0.1:$PORT/cgi-bin/feed.fcgi/yads?x=1")
printf '%s\n' "$out" | sed 's/^/    /'
line() { printf '%s\n' "$out" | grep -Fx -- "$1" >/dev/null || fail "no line '$1' in the answer"; log "ok  $1"; }
line 'PATH_INFO=/yads'
line 'QUERY_STRING=x=1'
line "env FEED_CONFIG=$DIR/feed.ini"
line "env FEED_DB_SOCKET=$SOCK"
line 'env FEED_DB_PASSWORD=fe"e\d'
line 'env TZ=Europe/Kyiv'
printf '%s\n' "$out" | grep -q SELFTEST_LEAK && fail "the caller's environment leaks into feed.fcgi"
printf '%s\n' "$out" | grep -q FEED_DB_HOST && fail "FEED_DB_HOST passed though not set"
log "ok  nothing else of the caller's environment"
[ "$(id -u)" = 0 ] && line 'UID=33'
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/cgi-bin/feed.fcgi/jooble")
check "status of /cgi-bin/feed.fcgi/jooble" "$code" 200

if "$HERE/apache.sh" start "$DIR/apache2" "$PORT" "$ROOT" "$DIR/feed.ini" 2>"$DIR/taken.err"; then
    fail "a second Apache on the same port was not refused"
fi
grep -q 'taken' "$DIR/taken.err" || fail "no clear message for a taken port: $(cat "$DIR/taken.err")"
log "ok  port taken: $(cat "$DIR/taken.err")"

"$HERE/apache.sh" stop "$WEB"
"$HERE/apache.sh" stop "$WEB" >/dev/null || fail "a second stop is an error"
curl -s -o /dev/null "http://127.0.0.1:$PORT/" && fail "port $PORT still answers after stop"
pgrep -f "$ROOT/cgi-bin/feed.fcgi" >/dev/null && fail "feed.fcgi processes left after stop"
trap - EXIT
log "OK"
