#!/bin/bash
# `make run` and `make stop`: the sample board served by feed.fcgi.
#
#   tools/demo.sh start    start (or reuse) a private MariaDB holding the
#                          sample board and Apache + mod_fcgid serving
#                          feed.fcgi on 127.0.0.1:PORT; print the feed URLs;
#                          stay in the foreground until Ctrl-C or `make stop`
#   tools/demo.sh stop     stop exactly what start started
#
#   PORT      (8080)             where Apache listens, on loopback only
#   DEMO_DIR  (/tmp/feed-demo)   data, logs, the deployed site and the
#                                random FEED_SECRET (DEMO_DIR/secret)
#   ADS, JOBS, DOCS (5000, 1000, 2000)  size of the generated sample board
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${DEMO_DIR:-/tmp/feed-demo}
PORT=${PORT:-8080}

stop() {
    "$ROOT/tests/harness/apache.sh" stop "$DIR/apache" || true
    "$ROOT/tests/harness/mariadb.sh" stop "$DIR/db" || true
}

start() {
    [ -x "$ROOT/cgi-bin/feed.fcgi" ] || { echo "demo.sh: build first (make)" >&2; exit 1; }
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    "$ROOT/tests/harness/mariadb.sh" start "$DIR/db"
    local sock=$DIR/db/run/mysqld.sock
    sql() { mariadb --no-defaults --default-character-set=utf8mb4 --socket="$sock" -ufeed -pfeed "$@"; }
    sql -e 'CREATE DATABASE IF NOT EXISTS sample'
    # Generated when empty, or when made before the board had documents.
    if [ "$(sql -N -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sample' AND table_name = 'document'")" = 0 ]; then
        # Dates end now, so the feed looks like a live board's.
        local now
        now=$(TZ=Europe/Kiev date '+%F %T')
        echo "demo.sh: generating the sample board (${ADS:-5000} ads, ${JOBS:-1000} jobs, ${DOCS:-2000} documents, up to $now)"
        { cat "$ROOT/sql/sample-board.sql"
          python3 "$ROOT/tools/gen_sample_board.py" --ads "${ADS:-5000}" --jobs "${JOBS:-1000}" --docs "${DOCS:-2000}" \
              --now "$now"; } | sql sample
    fi
    sql sample <"$ROOT/sql/state.sql"   # the project's own tables; safe to run again
    # Deployed as a site owner would: cgi-bin/feed.fcgi beside conf/,
    # templates/ and sql/.
    local site=$DIR/site
    rm -rf "$site.new"
    mkdir -p "$site.new/cgi-bin"
    cp -r "$ROOT/conf" "$ROOT/templates" "$ROOT/sql" "$site.new/"
    cp "$ROOT/cgi-bin/feed.fcgi" "$site.new/cgi-bin/"
    "$ROOT/tests/harness/apache.sh" stop "$DIR/apache" >/dev/null
    rm -rf "$site"
    mv "$site.new" "$site"
    # The shipped config carries no secret: the demo makes a random one,
    # kept across restarts so that tokens already handed out stay good.
    if [ ! -s "$DIR/secret" ]; then
        (umask 077; head -c 24 /dev/urandom | base64 >"$DIR/secret")
    fi
    FEED_DB_SOCKET=$sock FEED_DB_NAME=sample FEED_SECRET=$(cat "$DIR/secret") \
        "$ROOT/tests/harness/apache.sh" start "$DIR/apache" "$PORT" "$site" "$site/conf/sample-board.ini"
    local base=http://127.0.0.1:$PORT/cgi-bin/feed.fcgi
    local day
    day=$(TZ=Europe/Kiev date -d '1 day ago' '+%F')
    cat <<MSG

The sample board's feeds:
  $base/yads                              every active ad, 1000 a page
  $base/yads?date=$day+00:00:00      ads added since then
Follow <continue> with: ...&continue=TOKEN (same date).
  $base/jooble                            what JoobleBot has not seen yet
  $base/sitemap.xml                       the sitemap index (its parts: sitemap-ads-1.xml, ...)
  $base/urls-ad-urls-1.txt                the same pages as a text sitemap (and urls-job-urls-1.txt, urls-doc-urls-1.txt)
  $base/baidu.xml                         Baidu's document sitemap (its parts: baidu-documents-1.xml, ...)
  $base/rss  $base/atom   the 50 newest ads
  $base/msn                               MSN: what changed in the last 7 days, take-downs
  $base/indeed  $base/careerjet   every open job, for Indeed and Careerjet
Static sitemap files: FEED_DB_SOCKET=$sock FEED_DB_NAME=sample FEED_SECRET=\$(cat $DIR/secret) cgi-bin/feed.fcgi --config conf/sample-board.ini write --robots /sitemap.xml /tmp/sitemaps
Command line:   FEED_DB_SOCKET=$sock FEED_DB_NAME=sample FEED_SECRET=\$(cat $DIR/secret) cgi-bin/feed.fcgi --config conf/sample-board.ini render /yads date='$day 00:00:00'
Database:       mariadb --no-defaults --socket=$sock -ufeed -pfeed sample
Logs:           $DIR/apache/log/apache-error.log

Ctrl-C here (or \`make stop\` elsewhere) stops MariaDB and Apache.
MSG
    trap 'echo; stop; exit 0' INT TERM
    while "$ROOT/tests/harness/apache.sh" status "$DIR/apache" >/dev/null 2>&1; do sleep 2; done
    echo "demo.sh: Apache stopped; stopping MariaDB"
    "$ROOT/tests/harness/mariadb.sh" stop "$DIR/db" || true
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    *) sed -n '4,8p' "$0" | sed 's/^# *//' >&2; exit 2 ;;
esac
