#!/bin/bash
# Deploys the release archive (make dist) the way its INSTALL.txt says, for
# the tests: its contents (feed.fcgi, .htaccess, feed.ini, feed-files/)
# unpacked into DEST, and feed.ini made from the shipped sample mapping
# (feed-files/conf/sample-board.ini), edited as an owner edits it: the
# database (the test MariaDB over TCP on 127.0.0.1:DB_PORT, user feed),
# a secret of its own, the hand-off the release's feed.ini has (HAND_OFF:
# redirect by default; none for byte-for-byte comparisons), the spool in
# feed-files/spool, and pages of PAGE_SIZE ads (150 by default, so that
# paging shows on a small board).
#
#   tests/harness/deploy_release.sh ARCHIVE DEST DB_PORT DB_NAME
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 ARCHIVE DEST DB_PORT DB_NAME" >&2; exit 2; }
ARCHIVE=$1 DEST=$2 DB_PORT=$3 DB_NAME=$4
mkdir -p "$DEST"
tar -C "$DEST" --strip-components=1 -xzf "$ARCHIVE"
sed -E -e 's#\.\./(templates|sql)/#feed-files/\1/#' \
    -e '/^(socket|user|password|name|hand_off|spool_dir|secret|redirect_dir) *=/d' \
    -e "s#^page_size *= *1000\$#page_size = ${PAGE_SIZE:-150}#" \
    -e "s#^\\[database\\]\$#[database]\\nhost = 127.0.0.1\\nport = $DB_PORT\\nuser = feed\\npassword = feed\\nname = $DB_NAME#" \
    -e "s#^\\[server\\]\$#[server]\\nhand_off = ${HAND_OFF:-redirect}\\nredirect_dir = feed-out\\nspool_dir = feed-files/spool\\nsecret = release-test-secret-8d41c2e7f0#" \
    "$DEST/feed-files/conf/sample-board.ini" >"$DEST/feed.ini"
chmod 600 "$DEST/feed.ini"
