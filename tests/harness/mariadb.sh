#!/bin/bash
# A private MariaDB for the tests: no system service, no TCP, data in DIR.
#
#   tests/harness/mariadb.sh start  DIR
#   tests/harness/mariadb.sh stop   DIR
#   tests/harness/mariadb.sh status DIR     (exit 0 running, 3 not running)
#
# start creates DIR/db (mariadb-install-db, only when DIR/db/mysql is
# missing), runs mariadbd on the socket DIR/run/mysqld.sock (pid file
# DIR/run/mariadbd.pid, error log DIR/log/mariadbd.err), waits until it
# answers, and makes sure of the users: root over the socket (unix_socket
# auth; as another OS user, that user) and 'feed'@'localhost' password
# 'feed' with ALL on sample.*, sample_test.* and board.* ('feed'@'127.0.0.1',
# for TCP, on sample_test.*). It is a no-op
# (apart from the users) when the server already runs; a second start
# reuses the data. stop SIGTERMs exactly the pid in the pid file and waits.
# Each server has its own temporary folder, DIR/tmp: a mariadbd that starts
# deletes every #sql* file in its tmpdir, so servers sharing /tmp removed
# each other's temporary tables mid-query (a replica set started while the
# integration tests ran: "Error on delete of '/tmp/#sql-temptable-...'").
# MARIADB_POOL sets the InnoDB buffer pool (default 64M). MARIADB_ARGS adds
# mariadbd options after the harness's own (later ones win: replicas.sh
# turns on the binary log and TCP on loopback this way).
# As root, mariadbd runs as the mysql user, and DIR and the socket are
# opened to mysql and www-data (feed.fcgi under Apache connects as www-data).
#
# Connect:  mariadb --no-defaults --socket=DIR/run/mysqld.sock sample
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

log() { echo "mariadb.sh: $*"; }
die() { echo "mariadb.sh: $*" >&2; exit 1; }
usage() { sed -n '4,6p' "$0" | sed 's/^# *//' >&2; exit 2; }

[ $# -eq 2 ] || usage
CMD=$1
DIR=$2
POOL=${MARIADB_POOL:-64M}

if [ "$(id -u)" = 0 ]; then DB_USER=mysql; else DB_USER=''; fi

# alive PIDFILE NAME: the process named in PIDFILE is running and is NAME.
alive() {
    local pid
    [ -s "$1" ] && pid=$(cat "$1") && [ -n "$pid" ] &&
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && ! zombie "$pid"
}

# zombie PID: PID has exited and waits for its parent to reap it (a server
# killed with -9 whose parent is still there, such as the test that
# started it): gone as far as a client can tell.
zombie() {
    grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

# open_path USER PATH: USER can reach PATH. Folders under /tmp (or $TMPDIR)
# that are closed to USER get o+x (search only); elsewhere it is an error.
open_path() {
    local user=$1 path=$2
    runuser -u "$user" -- test -x "$path" && return 0
    # From the top down, so that each check sees its parents already open.
    local parts=() p=$path
    while [ "$p" != / ]; do parts=("$p" "${parts[@]}"); p=$(dirname "$p"); done
    for p in "${parts[@]}"; do
        runuser -u "$user" -- test -x "$p" && continue
        case $p/ in
            /tmp/*|"${TMPDIR:-/tmp}"/*)
                log "chmod o+x $p (so that $user can reach $path)"
                chmod o+x "$p" ;;
            *)
                die "$user cannot reach $path: $p is closed to it; use a folder under /tmp" ;;
        esac
    done
    runuser -u "$user" -- test -x "$path" || die "$user cannot reach $path"
}

case $CMD in start|stop|status) ;; *) usage ;; esac

if [ "$CMD" != start ]; then
    if [ ! -d "$DIR" ]; then
        [ "$CMD" = status ] && { log "not running (no folder $DIR)"; exit 3; }
        log "not running (no folder $DIR)"; exit 0
    fi
fi
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
SOCK=$DIR/run/mysqld.sock
PIDFILE=$DIR/run/mariadbd.pid
ERRLOG=$DIR/log/mariadbd.err

if [ "$CMD" = status ]; then
    if alive "$PIDFILE" mariadbd; then
        log "running (pid $(cat "$PIDFILE")), socket $SOCK"
        exit 0
    fi
    log "not running"
    exit 3
fi

if [ "$CMD" = stop ]; then
    if ! alive "$PIDFILE" mariadbd; then
        log "not running"
        exit 0
    fi
    pid=$(cat "$PIDFILE")
    kill -TERM "$pid"
    for i in $(seq 600); do
        { [ -e "/proc/$pid" ] && ! zombie "$pid"; } || { log "stopped (pid $pid)"; exit 0; }
        sleep 0.1
    done
    die "mariadbd (pid $pid) did not stop within 60 s, see $ERRLOG"
fi

# ---- start
command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null ||
    die "MariaDB is not installed (run tools/deps.sh)"

mkdir -p "$DIR/db" "$DIR/run" "$DIR/log" "$DIR/tmp"
chmod 755 "$DIR" "$DIR/run" "$DIR/log"
chmod 700 "$DIR/db" "$DIR/tmp"
# Two starts at once for the same DIR: the second waits for the first.
exec 9>"$DIR/log/.mariadb.lock"
flock 9

if [ -n "$DB_USER" ]; then
    chown "$DB_USER:" "$DIR/db" "$DIR/run" "$DIR/tmp"
    touch "$ERRLOG"
    chown "$DB_USER:" "$ERRLOG"
    open_path "$DB_USER" "$DIR/run"
    id www-data >/dev/null 2>&1 && open_path www-data "$DIR/run"
fi

if alive "$PIDFILE" mariadbd; then
    log "already running (pid $(cat "$PIDFILE"))"
else
    if [ ! -d "$DIR/db/mysql" ]; then
        log "creating the database in $DIR/db"
        mariadb-install-db --no-defaults --datadir="$DIR/db" ${DB_USER:+--user=$DB_USER} \
            --auth-root-authentication-method=socket --skip-test-db \
            >"$DIR/log/mariadb-install.log" 2>&1 ||
            die "mariadb-install-db failed, see $DIR/log/mariadb-install.log"
    fi
    rm -f "$PIDFILE"
    setsid mariadbd --no-defaults --datadir="$DIR/db" --socket="$SOCK" \
        --pid-file="$PIDFILE" --log-error="$ERRLOG" --tmpdir="$DIR/tmp" \
        --skip-networking ${DB_USER:+--user=$DB_USER} \
        --innodb-buffer-pool-size="$POOL" --innodb-flush-log-at-trx-commit=2 \
        --skip-log-bin --max-allowed-packet=64M \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
        ${MARIADB_ARGS:-} \
        </dev/null >/dev/null 2>&1 9>&- &
    pid=$!
    for i in $(seq 600); do
        mariadb-admin --no-defaults --socket="$SOCK" ping >/dev/null 2>&1 && break
        if [ ! -e "/proc/$pid" ]; then
            tail -n 20 "$ERRLOG" >&2 || true
            die "mariadbd exited at start, see $ERRLOG"
        fi
        [ "$i" = 600 ] && die "mariadbd did not answer within 60 s, see $ERRLOG"
        sleep 0.1
    done
    log "started (pid $(cat "$PIDFILE" 2>/dev/null || echo $pid)), socket $SOCK"
fi

# Users. The admin connection is unix_socket auth as the OS user running this
# script (root; mariadb-install-db gives that account all privileges).
mariadb --no-defaults --socket="$SOCK" -e "
    CREATE USER IF NOT EXISTS 'feed'@'localhost' IDENTIFIED BY 'feed';
    ALTER USER 'feed'@'localhost' IDENTIFIED BY 'feed';
    GRANT ALL ON \`sample\`.* TO 'feed'@'localhost';
    GRANT ALL ON \`sample_test\`.* TO 'feed'@'localhost';
    GRANT ALL ON \`board\`.* TO 'feed'@'localhost';
    CREATE USER IF NOT EXISTS 'feed'@'127.0.0.1' IDENTIFIED BY 'feed';
    ALTER USER 'feed'@'127.0.0.1' IDENTIFIED BY 'feed';
    GRANT ALL ON \`sample_test\`.* TO 'feed'@'127.0.0.1';" ||
    die "could not create the user feed (root over the socket refused?)"
