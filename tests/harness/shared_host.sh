#!/bin/bash
# An Apache configured as a shared host is, for the release's tests: one
# user's public_html under a virtual host with AllowOverride All, mod_fcgid
# (or, with MODE cgi, no mod_fcgid: plain CGI through mod_cgid), no
# mod_xsendfile, nothing of the project in the server config, the worker
# running as www-data (as root) on 127.0.0.1:PORT.
#
#   tests/harness/shared_host.sh start DIR PORT HOME fcgid|cgi
#   tests/harness/shared_host.sh stop  DIR
#
# HOME is the user's home folder: HOME/public_html is the site's document
# root, what the owner uploaded there is the owner's business (the tests
# deploy the release as its INSTALL.txt says). The host's own settings are
# those of a small shared host: at most FCGID_MAX_PROCESSES (default 4)
# FastCGI processes for the account, mod_fcgid's default timeouts. Logs in
# DIR/log. stop SIGTERMs the pid in DIR/run/apache2.pid and waits.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin
MODULES=/usr/lib/apache2/modules

log() { echo "shared_host.sh: $*"; }
die() { echo "shared_host.sh: $*" >&2; exit 1; }
usage() { sed -n '9,10p' "$0" | sed 's/^# *//' >&2; exit 2; }

CMD=${1:-}
case $CMD in
    start) [ $# -eq 5 ] || usage ;;
    stop) [ $# -eq 2 ] || usage ;;
    *) usage ;;
esac
DIR=$2
PIDFILE=$DIR/run/apache2.pid

stop() {
    local pid i
    [ -s "$PIDFILE" ] || { log "not running"; return 0; }
    pid=$(cat "$PIDFILE")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = apache2 ] || { log "not running"; return 0; }
    kill -TERM "$pid"
    for i in $(seq 600); do
        [ -e "/proc/$pid" ] || { log "stopped (pid $pid)"; return 0; }
        sleep 0.1
    done
    die "apache2 (pid $pid) did not stop within 60 s"
}
if [ "$CMD" = stop ]; then
    [ -d "$DIR" ] || { log "not running (no folder $DIR)"; exit 0; }
    stop
    exit 0
fi

PORT=$3 HOME_DIR=$4 MODE=$5
[[ $PORT =~ ^[0-9]+$ ]] || die "bad port: $PORT"
case $MODE in fcgid|cgi) ;; *) usage ;; esac
[ -d "$HOME_DIR/public_html" ] || die "no folder $HOME_DIR/public_html"
HOME_DIR=$(cd "$HOME_DIR" && pwd)
mkdir -p "$DIR/run" "$DIR/log" "$DIR/fcgid" "$DIR/cgid"
DIR=$(cd "$DIR" && pwd)
chmod 755 "$DIR"
WEB_USER=
if [ "$(id -u)" = 0 ]; then
    WEB_USER=www-data
    chown "$WEB_USER:" "$DIR/fcgid" "$DIR/cgid"
    # The path to the home must be searchable by the web server, as on a host.
    p=$HOME_DIR
    while [ "$p" != / ]; do chmod o+x "$p" 2>/dev/null || true; p=$(dirname "$p"); done
fi

if [ "$MODE" = fcgid ]; then
    fcgid="LoadModule fcgid_module $MODULES/mod_fcgid.so
FcgidIPCDir \"$DIR/fcgid\"
FcgidProcessTableFile \"$DIR/fcgid/shm\"
FcgidMaxProcessesPerClass ${FCGID_MAX_PROCESSES:-4}
FcgidMaxProcesses ${FCGID_MAX_PROCESSES:-4}"
else
    fcgid=''
fi

cat >"$DIR/apache2.conf" <<CONF
# Written by tests/harness/shared_host.sh: a shared host's server config,
# in which the site owner has no say.
ServerRoot "$DIR"
ServerName 127.0.0.1
Listen 127.0.0.1:$PORT
PidFile "$PIDFILE"
DefaultRuntimeDir "$DIR/run"
ErrorLog "$DIR/log/error.log"
LogLevel warn
LogFormat "%h %t \"%r\" %>s %B %Dus" timed
CustomLog "$DIR/log/access.log" timed
${WEB_USER:+User $WEB_USER
Group $WEB_USER}
LoadModule mpm_event_module $MODULES/mod_mpm_event.so
LoadModule authz_core_module $MODULES/mod_authz_core.so
LoadModule authz_host_module $MODULES/mod_authz_host.so
LoadModule access_compat_module $MODULES/mod_access_compat.so
LoadModule alias_module $MODULES/mod_alias.so
LoadModule mime_module $MODULES/mod_mime.so
LoadModule dir_module $MODULES/mod_dir.so
LoadModule rewrite_module $MODULES/mod_rewrite.so
LoadModule cgid_module $MODULES/mod_cgid.so
ScriptSock "$DIR/cgid/cgid.sock"
$fcgid
TypesConfig /etc/mime.types

<Directory />
    AllowOverride None
    Options None
    Require all denied
</Directory>
<FilesMatch "^\.ht">
    Require all denied
</FilesMatch>
<VirtualHost 127.0.0.1:$PORT>
    DocumentRoot "$HOME_DIR/public_html"
    <Directory "$HOME_DIR/public_html">
        AllowOverride All
        Options SymLinksIfOwnerMatch
        Require all granted
    </Directory>
</VirtualHost>
CONF
stop >/dev/null
: >>"$DIR/log/error.log"
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C apache2 -f "$DIR/apache2.conf" -k start </dev/null ||
    { tail -n 5 "$DIR/log/error.log" >&2; die "Apache did not start, see $DIR/log/error.log"; }
for i in $(seq 100); do
    curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/" && break
    [ "$i" = 100 ] && die "Apache does not answer on 127.0.0.1:$PORT, see $DIR/log/error.log"
    sleep 0.1
done
log "started ($MODE): http://127.0.0.1:$PORT/ serving $HOME_DIR/public_html"
