#!/bin/bash
# A private nginx serving feed.fcgi on loopback, the processes kept by
# spawn-fcgi on a Unix socket: the deploy conf/nginx-feed.conf describes.
#
#   tests/harness/nginx.sh start  DIR PORT ROOT CONFIG
#   tests/harness/nginx.sh stop   DIR
#
# start writes DIR/nginx.conf (pid DIR/run/nginx.pid, logs DIR/log/), starts
# FEED_PROCESSES (default 4) feed.fcgi processes of ROOT/cgi-bin/feed.fcgi
# with spawn-fcgi on DIR/run/feed.sock (pid file DIR/run/spawn.pid, their
# stderr in DIR/log/feed-error.log), and nginx on 127.0.0.1:PORT with the
# shipped snippet ROOT/conf/nginx-feed.conf, /srv/feeds read as ROOT, /feeds
# as /cgi-bin/feed.fcgi and /run/feed as DIR/run. It waits until the port
# answers (10 s). The processes' environment is exactly FEED_CONFIG=CONFIG
# and each of FEED_DB_* FEED_SECRET TZ ASAN_OPTIONS UBSAN_OPTIONS that is
# set. As root, nginx's workers and feed.fcgi run as www-data. stop ends
# nginx and the feed.fcgi processes; not running is not an error.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

log() { echo "nginx.sh: $*"; }
die() { echo "nginx.sh: $*" >&2; exit 1; }
usage() { sed -n '5,6p' "$0" | sed 's/^# *//' >&2; exit 2; }

PASS_ENV=(FEED_DB_HOST FEED_DB_PORT FEED_DB_SOCKET FEED_DB_USER FEED_DB_PASSWORD
          FEED_DB_NAME FEED_SECRET TZ ASAN_OPTIONS UBSAN_OPTIONS)

CMD=${1:-}
case $CMD in
    start) [ $# -eq 5 ] || usage ;;
    stop) [ $# -eq 2 ] || usage ;;
    *) usage ;;
esac
DIR=$2
if [ "$(id -u)" = 0 ]; then WEB_USER=www-data; else WEB_USER=''; fi

# stop_pid PIDFILE NAME: ends the process named in PIDFILE if it is NAME.
stop_pid() {
    local pid i
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || return 0
    kill -TERM "$pid"
    for i in $(seq 300); do
        [ -e "/proc/$pid" ] || return 0
        sleep 0.1
    done
    die "$2 (pid $pid) did not stop within 30 s"
}

stop_all() {
    stop_pid "$DIR/run/nginx.pid" nginx
    # spawn-fcgi -F N writes one pid a line: the feed.fcgi processes.
    # The last line has no line end.
    local pid pids=() i
    if [ -s "$DIR/run/spawn.pid" ]; then
        while read -r pid || [ -n "$pid" ]; do
            [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = feed.fcgi ] && kill -TERM "$pid" && pids+=("$pid")
        done <"$DIR/run/spawn.pid"
        rm -f "$DIR/run/spawn.pid"
    fi
    for pid in "${pids[@]}"; do
        for i in $(seq 300); do
            [ -e "/proc/$pid" ] || break
            [ "$i" = 300 ] && die "feed.fcgi (pid $pid) did not stop within 30 s"
            sleep 0.1
        done
    done
}

if [ "$CMD" = stop ]; then
    [ -d "$DIR" ] || { log "not running (no folder $DIR)"; exit 0; }
    DIR=$(cd "$DIR" && pwd)
    stop_all
    log "stopped"
    exit 0
fi

PORT=$3 ROOT=$4 CONFIG=$5
[[ $PORT =~ ^[0-9]+$ ]] || die "bad port: $PORT"
ROOT=$(cd "$ROOT" && pwd)
PROGRAM=$ROOT/cgi-bin/feed.fcgi
SNIPPET=$ROOT/conf/nginx-feed.conf
[ -f "$SNIPPET" ] || die "no $SNIPPET (the shipped nginx snippet)"
[ -x "$PROGRAM" ] || die "no program $PROGRAM"
command -v nginx >/dev/null && command -v spawn-fcgi >/dev/null ||
    die "nginx or spawn-fcgi is not installed (run tools/deps.sh)"
mkdir -p "$DIR/run" "$DIR/log" "$DIR/tmp" "$ROOT/spool"
DIR=$(cd "$DIR" && pwd)
CONFIG=$(realpath -m -- "$CONFIG")
stop_all

if [ -n "$WEB_USER" ]; then
    chown "$WEB_USER:" "$DIR/run" "$DIR/tmp" "$ROOT/spool"
    chmod 755 "$DIR"
    case $ROOT/ in /tmp/*) chmod -R a+rX "$ROOT" ;; esac
    case $CONFIG in /tmp/*) chmod a+r "$CONFIG" ;; esac
fi

env_args=(FEED_CONFIG="$CONFIG")
for v in "${PASS_ENV[@]}"; do
    if [ -n "${!v+set}" ] && { [ "$v" != TZ ] || [ -n "$TZ" ]; }; then env_args+=("$v=${!v}"); fi
done
: >"$DIR/log/feed-error.log"
chmod 666 "$DIR/log/feed-error.log"
env -i PATH=/usr/bin:/bin "${env_args[@]}" \
    spawn-fcgi -s "$DIR/run/feed.sock" -M 0600 ${WEB_USER:+-u $WEB_USER -g $WEB_USER} \
        -F "${FEED_PROCESSES:-4}" -P "$DIR/run/spawn.pid" -- \
        /bin/sh -c "exec '$PROGRAM' 2>>'$DIR/log/feed-error.log'" >"$DIR/log/spawn.log" 2>&1 ||
    { cat "$DIR/log/spawn.log" >&2; die "spawn-fcgi did not start the processes"; }

cat >"$DIR/nginx.conf" <<CONF
# Written by tests/harness/nginx.sh start; rewritten on each start.
${WEB_USER:+user $WEB_USER;}
worker_processes 2;
pid $DIR/run/nginx.pid;
error_log $DIR/log/nginx-error.log warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    access_log $DIR/log/nginx-access.log;
    client_body_temp_path $DIR/tmp/body;
    fastcgi_temp_path $DIR/tmp/fastcgi;
    proxy_temp_path $DIR/tmp/proxy;
    uwsgi_temp_path $DIR/tmp/uwsgi;
    scgi_temp_path $DIR/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        server_name 127.0.0.1;
        # The shipped snippet, with the paths of this site.
$(sed -e "s#/srv/feeds#$ROOT#g" -e "s#/run/feed/#$DIR/run/#g" -e "s#/feeds#/cgi-bin/feed.fcgi#g" \
      -e "s#include fastcgi_params;#include /etc/nginx/fastcgi_params;#" "$SNIPPET" |
  sed 's/^/        /')
    }
}
CONF
nginx -c "$DIR/nginx.conf" -g 'daemon on;' 2>"$DIR/log/nginx-start.log" ||
    { cat "$DIR/log/nginx-start.log" >&2; die "nginx did not start"; }
for i in $(seq 100); do
    curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/" && break
    [ "$i" = 100 ] && die "nginx does not answer on 127.0.0.1:$PORT"
    sleep 0.1
done
log "running on http://127.0.0.1:$PORT/cgi-bin/feed.fcgi ($(wc -l <"$DIR/run/spawn.pid") feed.fcgi processes)"
