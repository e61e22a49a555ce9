#!/bin/bash
# A private Apache 2 (mpm_event + mod_fcgid) serving feed.fcgi on loopback.
#
#   tests/harness/apache.sh start  DIR PORT ROOT CONFIG
#   tests/harness/apache.sh stop   DIR
#   tests/harness/apache.sh status DIR      (exit 0 running, 3 not running)
#
# start writes DIR/apache2.conf (pid file DIR/run/apache2.pid, logs
# DIR/log/apache-error.log and DIR/log/apache-access.log, fcgid sockets and
# process table in DIR/fcgid) and starts Apache on 127.0.0.1:PORT, serving
# ROOT/cgi-bin/feed.fcgi through mod_fcgid at /cgi-bin/feed.fcgi (PATH_INFO
# passed on: /cgi-bin/feed.fcgi/yads gives PATH_INFO=/yads), configured by
# the shipped snippet ROOT/conf/apache-feed.conf with /srv/feeds read as
# ROOT (ROOT/spool is made, writable by the web user). It waits until
# the port answers (10 s). It refuses when PORT is taken by something else.
# Already running with the same configuration: nothing to do; with another
# one: stopped and started again. stop SIGTERMs exactly the pid in the pid
# file and waits until it is gone; not running is not an error.
#
# The FastCGI program's environment is exactly: FEED_CONFIG=CONFIG (absolute
# path; not set when CONFIG is ''), each of FEED_DB_HOST FEED_DB_PORT
# FEED_DB_SOCKET FEED_DB_USER FEED_DB_PASSWORD FEED_DB_NAME FEED_SECRET, TZ
# (if not empty), ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS that is set when
# apache.sh starts, plus FEED_STOP_AT when set (a test's kill point,
# lib/stop_point.h) and what mod_fcgid adds itself. Apache itself starts
# with a clean environment (env -i). As root, Apache and feed.fcgi run as
# www-data; DIR, ROOT and CONFIG must then be reachable by www-data: folders
# under /tmp are opened (chmod) as needed, elsewhere it is an error.
# FCGID_MAX_PROCESSES (default 8) caps the number of feed.fcgi processes.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

log() { echo "apache.sh: $*"; }
die() { echo "apache.sh: $*" >&2; exit 1; }
usage() { sed -n '4,6p' "$0" | sed 's/^# *//' >&2; exit 2; }

PASS_ENV=(FEED_DB_HOST FEED_DB_PORT FEED_DB_SOCKET FEED_DB_USER FEED_DB_PASSWORD
          FEED_DB_NAME FEED_SECRET TZ ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS FEED_STOP_AT)
MODULES=/usr/lib/apache2/modules

CMD=${1:-}
case $CMD in
    start) [ $# -eq 5 ] || usage ;;
    stop|status) [ $# -eq 2 ] || usage ;;
    *) usage ;;
esac
DIR=$2

if [ "$(id -u)" = 0 ]; then WEB_USER=www-data; else WEB_USER=''; fi

# alive PIDFILE NAME: the process named in PIDFILE is running and is NAME.
alive() {
    local pid
    [ -s "$1" ] && pid=$(cat "$1") && [ -n "$pid" ] &&
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

under_tmp() {
    case $1/ in /tmp/*|"${TMPDIR:-/tmp}"/*) return 0 ;; esac
    return 1
}

# open_path USER PATH: USER can reach (search) the folder PATH. Folders under
# /tmp (or $TMPDIR) closed to USER get o+x; elsewhere it is an error.
open_path() {
    local user=$1 path=$2 parts=() p
    runuser -u "$user" -- test -x "$path" && return 0
    p=$path
    while [ "$p" != / ]; do parts=("$p" "${parts[@]}"); p=$(dirname "$p"); done
    for p in "${parts[@]}"; do
        runuser -u "$user" -- test -x "$p" && continue
        under_tmp "$p" ||
            die "$user cannot reach $path: $p is closed to it; use a folder under /tmp"
        log "chmod o+x $p (so that $user can reach $path)"
        chmod o+x "$p"
    done
    runuser -u "$user" -- test -x "$path" || die "$user cannot reach $path"
}

# conf_str VALUE: VALUE as a double-quoted Apache config string.
conf_str() {
    local v=$1
    case $v in
        *$'\n'*|*$'\r'*) die "a configuration value holds a line break: $v" ;;
        *'${'*) die "a configuration value holds \${, which Apache would expand: $v" ;;
    esac
    v=${v//\\/\\\\}
    v=${v//\"/\\\"}
    printf '"%s"' "$v"
}

# port_taken PORT: something accepts connections on 127.0.0.1:PORT.
port_taken() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

stop_apache() {
    local pid i
    if ! alive "$PIDFILE" apache2; then
        log "not running"
        return 0
    fi
    pid=$(cat "$PIDFILE")
    kill -TERM "$pid"
    for i in $(seq 600); do
        [ -e "/proc/$pid" ] || { log "stopped (pid $pid)"; return 0; }
        sleep 0.1
    done
    die "apache2 (pid $pid) did not stop within 60 s, see $DIR/log/apache-error.log"
}

if [ ! -d "$DIR" ]; then
    case $CMD in
        stop) log "not running (no folder $DIR)"; exit 0 ;;
        status) log "not running (no folder $DIR)"; exit 3 ;;
    esac
fi
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
PIDFILE=$DIR/run/apache2.pid
CONF=$DIR/apache2.conf

case $CMD in
    stop)
        stop_apache
        exit 0 ;;
    status)
        if alive "$PIDFILE" apache2; then
            log "running (pid $(cat "$PIDFILE")), $(sed -n 's/^Listen /http:\/\//p' "$CONF")/cgi-bin/feed.fcgi"
            exit 0
        fi
        log "not running"
        exit 3 ;;
esac

# ---- start
PORT=$3 ROOT=$4 CONFIG=$5
[[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] ||
    die "bad port: $PORT"
[ -d "$ROOT" ] || die "no folder $ROOT"
ROOT=$(cd "$ROOT" && pwd)
PROGRAM=$ROOT/cgi-bin/feed.fcgi
SNIPPET=$ROOT/conf/apache-feed.conf
[ -f "$SNIPPET" ] || die "no $SNIPPET (the shipped Apache snippet)"
[[ $ROOT != *'#'* ]] || die "ROOT holds '#': $ROOT"
[ -f "$PROGRAM" ] || die "no program $PROGRAM (build it first: make)"
if [ -n "$CONFIG" ]; then
    CONFIG=$(realpath -m -- "$CONFIG")
    [ -f "$CONFIG" ] || log "warning: no file $CONFIG (FEED_CONFIG is set to it anyway)"
fi
command -v apache2 >/dev/null && [ -e "$MODULES/mod_fcgid.so" ] ||
    die "apache2 or mod_fcgid is not installed (run tools/deps.sh)"

mkdir -p "$DIR/run" "$DIR/log" "$DIR/fcgid" "$DIR/htdocs" "$ROOT/spool"
chmod 755 "$DIR" "$DIR/htdocs"
exec 9>"$DIR/log/.apache.lock"
flock 9

if [ -n "$WEB_USER" ]; then
    chown "$WEB_USER:" "$DIR/fcgid" "$ROOT/spool"
    chmod 700 "$DIR/fcgid"
    open_path "$WEB_USER" "$DIR/fcgid"
    open_path "$WEB_USER" "$ROOT/cgi-bin"
    if under_tmp "$ROOT"; then
        chmod -R a+rX "$ROOT"   # the program, and what it reads (templates)
    fi
    runuser -u "$WEB_USER" -- test -x "$PROGRAM" ||
        die "$WEB_USER cannot run $PROGRAM (chmod a+rx it)"
    if [ -n "$CONFIG" ] && [ -e "$CONFIG" ]; then
        open_path "$WEB_USER" "$(dirname "$CONFIG")"
        runuser -u "$WEB_USER" -- test -r "$CONFIG" ||
            { under_tmp "$CONFIG" && chmod a+r "$CONFIG"; } ||
            die "$WEB_USER cannot read $CONFIG"
    fi
fi

env_lines=''
[ -n "$CONFIG" ] && env_lines+="FcgidInitialEnv FEED_CONFIG $(conf_str "$CONFIG")"$'\n'
for v in "${PASS_ENV[@]}"; do
    # TZ='' would mean UTC to glibc: only a non-empty TZ is passed on.
    if [ -n "${!v+set}" ] && { [ "$v" != TZ ] || [ -n "$TZ" ]; }; then
        env_lines+="FcgidInitialEnv $v $(conf_str "${!v}")"$'\n'
    fi
done

new_conf=$(cat <<EOF
# Written by tests/harness/apache.sh start; rewritten on each start.
ServerRoot $(conf_str "$DIR")
ServerName 127.0.0.1
Listen 127.0.0.1:$PORT
PidFile $(conf_str "$PIDFILE")
DefaultRuntimeDir $(conf_str "$DIR/run")
ErrorLog $(conf_str "$DIR/log/apache-error.log")
LogLevel warn
TraceEnable off
LogFormat "%h %t \"%r\" %>s %B %Dus" timed
CustomLog $(conf_str "$DIR/log/apache-access.log") timed
${WEB_USER:+User $WEB_USER
Group $WEB_USER}

LoadModule mpm_event_module $MODULES/mod_mpm_event.so
LoadModule authz_core_module $MODULES/mod_authz_core.so
LoadModule alias_module $MODULES/mod_alias.so
LoadModule fcgid_module $MODULES/mod_fcgid.so
LoadModule xsendfile_module $MODULES/mod_xsendfile.so
LoadModule deflate_module $MODULES/mod_deflate.so
LoadModule filter_module $MODULES/mod_filter.so
LoadModule rewrite_module $MODULES/mod_rewrite.so
LoadModule setenvif_module $MODULES/mod_setenvif.so

DocumentRoot $(conf_str "$DIR/htdocs")
<Directory />
    AllowOverride None
    Options None
    Require all denied
</Directory>
<Directory $(conf_str "$DIR/htdocs")>
    Require all granted
</Directory>

# The shipped snippet, with the paths of this site.
$(sed -e "s#^Alias /feeds #Alias /cgi-bin/feed.fcgi #" -e "s#/srv/feeds#$ROOT#g" \
      -e '/^FcgidInitialEnv FEED_CONFIG/d' -e '/^FcgidInitialEnv FEED_SECRET/d' \
      -e '/^FcgidMaxProcessesPerClass/d' "$SNIPPET")

FcgidIPCDir $(conf_str "$DIR/fcgid")
FcgidProcessTableFile $(conf_str "$DIR/fcgid/shm")
FcgidMaxProcesses ${FCGID_MAX_PROCESSES:-8}
FcgidMaxProcessesPerClass ${FCGID_MAX_PROCESSES:-8}
${env_lines}
EOF
)

if alive "$PIDFILE" apache2; then
    if [ -f "$CONF" ] && [ "$(cat "$CONF")" = "$new_conf" ]; then
        log "already running (pid $(cat "$PIDFILE")) on 127.0.0.1:$PORT"
        exit 0
    fi
    log "running with another configuration; restarting"
    stop_apache
fi

if port_taken "$PORT"; then
    holder=$(ss -Hltnp "sport = :$PORT" 2>/dev/null |
             grep -o '(("[^"]*",pid=[0-9]*' | head -n1 | tr -d '(")' || true)
    die "port $PORT on 127.0.0.1 is taken by another program${holder:+ ($holder)}; choose another port"
fi

printf '%s\n' "$new_conf" >"$CONF"
chmod 600 "$CONF"   # it may hold FEED_SECRET and FEED_DB_PASSWORD
: >>"$DIR/log/apache-error.log"
# A clean environment: nothing of the caller's leaks into Apache, hence into
# mod_fcgid and feed.fcgi; what feed.fcgi gets is in FcgidInitialEnv above.
if ! env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C \
        apache2 -f "$CONF" -k start 9>&- </dev/null; then
    tail -n 5 "$DIR/log/apache-error.log" >&2 || true
    die "Apache did not start, see $DIR/log/apache-error.log"
fi
for i in $(seq 100); do
    curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/" && break
    if [ "$i" = 100 ]; then
        tail -n 5 "$DIR/log/apache-error.log" >&2 || true
        die "Apache does not answer on 127.0.0.1:$PORT within 10 s, see $DIR/log/apache-error.log"
    fi
    sleep 0.1
done
alive "$PIDFILE" apache2 ||
    die "Apache exited at start, see $DIR/log/apache-error.log"
log "started (pid $(cat "$PIDFILE")): http://127.0.0.1:$PORT/cgi-bin/feed.fcgi"
