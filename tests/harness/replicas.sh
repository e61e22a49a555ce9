#!/bin/bash
# A private MariaDB primary with two replicas for the replica tests: three
# mariadbd processes (mariadb.sh each), GTID replication between them.
#
#   tests/harness/replicas.sh start  DIR
#   tests/harness/replicas.sh stop   DIR
#
# start runs DIR/primary (server_id 1, binary log, TCP on 127.0.0.1 at a
# free port kept in DIR/primary.port, so that the replicas can connect) and
# DIR/replica1, DIR/replica2 (server_id 2 and 3, binary log with
# log_slave_updates, no TCP), each on its socket DIR/NAME/run/mysqld.sock.
# The first start creates the database sample_test on the primary, grants
# 'feed' SLAVE MONITOR (SHOW SLAVE STATUS, the program's health check) and
# points the replicas at the primary with CHANGE MASTER TO ...
# MASTER_USE_GTID=slave_pos; it returns once both replicas replicate. A
# later start starts only what is not running (a replica killed by a test,
# the primary stopped by one): the replicas resume by themselves. stop
# stops all three. With NO_CATCH_UP=1, start does not wait for the
# replicas to catch up.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin
HERE=$(cd "$(dirname "$0")" && pwd)

log() { echo "replicas.sh: $*"; }
die() { echo "replicas.sh: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
CMD=$1
DIR=$2
export MARIADB_POOL=${MARIADB_POOL:-16M}

admin() {  # admin NAME SQL: as the harness's admin over NAME's socket
    mariadb --no-defaults --socket="$DIR/$1/run/mysqld.sock" -N -B -e "$2"
}

case $CMD in
stop)
    [ -d "$DIR" ] || { log "not running (no folder $DIR)"; exit 0; }
    for n in replica2 replica1 primary; do "$HERE/mariadb.sh" stop "$DIR/$n" >/dev/null; done
    log "stopped"
    exit 0 ;;
start) ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ ! -s "$DIR/primary.port" ]; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
        >"$DIR/primary.port"
fi
PORT=$(cat "$DIR/primary.port")
COMMON="--log-bin=mariadb-bin --binlog-format=ROW --innodb-log-file-size=8M --performance-schema=OFF"

MARIADB_ARGS="$COMMON --server-id=1 --skip-networking=0 --bind-address=127.0.0.1 --port=$PORT" \
    "$HERE/mariadb.sh" start "$DIR/primary" >"$DIR/primary.start.log" 2>&1 ||
    { cat "$DIR/primary.start.log" >&2; die "the primary did not start"; }
for i in 1 2; do
    MARIADB_ARGS="$COMMON --server-id=$((i + 1)) --log-slave-updates --read-only=0" \
        "$HERE/mariadb.sh" start "$DIR/replica$i" >"$DIR/replica$i.start.log" 2>&1 ||
        { cat "$DIR/replica$i.start.log" >&2; die "replica$i did not start"; }
done

if [ ! -e "$DIR/.replicating" ]; then
    # What mariadb.sh did on each server stays there: the positions start
    # empty, and everything from here on comes from the primary.
    for n in primary replica1 replica2; do admin "$n" "RESET MASTER"; done
    admin primary "
        CREATE USER IF NOT EXISTS 'repl'@'127.0.0.1' IDENTIFIED BY 'repl';
        GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1';
        GRANT SLAVE MONITOR ON *.* TO 'feed'@'localhost';
        CREATE DATABASE IF NOT EXISTS sample_test;"
    for i in 1 2; do
        admin "replica$i" "
            STOP SLAVE; RESET SLAVE ALL; SET GLOBAL gtid_slave_pos = '';
            CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = $PORT, MASTER_USER = 'repl',
                MASTER_PASSWORD = 'repl', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1;
            START SLAVE;"
    done
    touch "$DIR/.replicating"
fi

# Both replicas have what the primary has now (unless NO_CATCH_UP=1: a test
# that holds a replica back starts only the primary again).
if [ "${NO_CATCH_UP:-0}" = 1 ]; then
    log "started; not waiting for the replicas"
    exit 0
fi
pos=$(admin primary "SELECT @@gtid_binlog_pos")
for i in 1 2; do
    r=$(admin "replica$i" "SELECT MASTER_GTID_WAIT('$pos', 60)")
    [ "$r" = 0 ] || die "replica$i did not reach $pos within 60 s: $(admin "replica$i" 'SHOW SLAVE STATUS\G' | grep -E 'Running|Error' | tr '\n' ' ')"
done
log "primary $DIR/primary/run/mysqld.sock (port $PORT), replicas $DIR/replica1 and $DIR/replica2 at $pos"
