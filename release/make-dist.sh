#!/bin/bash
# `make dist`: the release an owner downloads and uploads to a shared host,
# dist/feed-fcgi-VERSION-linux-x86_64.tar.gz. It runs on any x86_64 Linux
# (kernel 3.2 or later) and needs nothing from the host but the kernel: it
# carries the program, its dynamic loader and every library it loads
# (Debian 12's glibc, libstdc++, Connector/C++, libmariadb and its
# authentication plugins, OpenSSL, libfcgi, tinyxml2, libxml2), the
# character set converters iconv loads, one archive of every IANA time zone,
# and feed.fcgi: a small static launcher that starts the program with them
# (release/launcher.c). See docs/deploy.md, "Why a bundle".
#
#   release/make-dist.sh BINARY VERSION OUTDIR
#
# BINARY is the built program (build/feed.fcgi); it is copied stripped.
# Prints the archive's path last.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BINARY=$1 VERSION=$2 OUTDIR=$3
NAME=feed-fcgi-$VERSION-linux-x86_64
LIBDIR=/usr/lib/x86_64-linux-gnu
PLUGINS=(caching_sha2_password sha256_password client_ed25519 mysql_clear_password dialog)
# Single-byte character sets boards store text in, beyond UTF-8 and
# windows-1251 (which the program writes itself) and ISO-8859-1 (glibc's own).
GCONV=(CP1250 CP1252 CP1253 CP1254 CP1257 KOI8-R KOI8-U IBM866 ISO8859-2 ISO8859-5 ISO8859-7 ISO8859-9 ISO8859-15)

die() { echo "make-dist: $*" >&2; exit 1; }
[ -x "$BINARY" ] || die "no program $BINARY (make first)"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
TOP=$STAGE/$NAME
FILES=$TOP/feed-files
LIB=$FILES/lib
mkdir -p "$LIB/plugin" "$LIB/gconv" "$FILES/spool" "$TOP/feed-out"

# The program and the libraries the loader finds for it. ICU comes in only
# through libxml2, for encodings the program never gives it: a stub of its
# converter functions stands in for its 33 MB.
strip -o "$LIB/feed" "$BINARY"
icu=
while read -r soname path; do
    case $soname in
        libicuuc.so.*) icu=${soname#libicuuc.so.} ;;
        libicu*) ;;
        *) cp -L "$path" "$LIB/$soname" ;;
    esac
done < <(ldd "$BINARY" | sed -n 's/^[[:space:]]*\([^ ]*\) => \(\/[^ ]*\) .*/\1 \2/p')
cp -L /lib64/ld-linux-x86-64.so.2 "$LIB/ld-linux-x86-64.so.2"
if [ -n "$icu" ]; then
    wanted=$(objdump -T "$LIB/libxml2.so.2" | awk '$2 ~ /\*UND\*/ || $3 ~ /\*UND\*/ {print $NF}' | grep "_$icu\$" | sort)
    stub=$(printf '%s\n' ucnv_close ucnv_convertEx ucnv_open ucnv_setFromUCallBack ucnv_setToUCallBack \
               UCNV_FROM_U_CALLBACK_STOP UCNV_TO_U_CALLBACK_STOP | sed "s/\$/_$icu/" | sort)
    [ "$wanted" = "$stub" ] || die "libxml2 wants other ICU functions than release/icu_stub.c has: $wanted"
    gcc -O2 -shared -fPIC -DVERSION="$icu" -Wl,-soname,"libicuuc.so.$icu" \
        -o "$LIB/libicuuc.so.$icu" "$ROOT/release/icu_stub.c"
fi
for p in "${PLUGINS[@]}"; do cp "$LIBDIR/libmariadb3/plugin/$p.so" "$LIB/plugin/"; done
# Whatever a plugin or converter links against must be in the bundle too.
for f in "$LIB"/plugin/*.so; do
    for need in $(objdump -p "$f" | awk '$1 == "NEEDED" {print $2}'); do
        [ -e "$LIB/$need" ] || die "$f needs $need, which the bundle lacks"
    done
done

# iconv's converters, and a gconv-modules naming only those (glibc reads
# GCONV_PATH's file, which the launcher sets).
for m in "${GCONV[@]}"; do cp "$LIBDIR/gconv/$m.so" "$LIB/gconv/"; done
python3 - "$LIBDIR/gconv" "$LIB/gconv" "${GCONV[@]}" <<'PY'
import glob, os, sys
src, dst, mods = sys.argv[1], sys.argv[2], set(sys.argv[3:])
lines = []
for f in [os.path.join(src, 'gconv-modules')] + sorted(glob.glob(os.path.join(src, 'gconv-modules.d', '*.conf'))):
    for line in open(f):
        w = line.split()
        if len(w) >= 4 and w[0] == 'module' and w[3] in mods:
            lines.append(line)
        elif len(w) == 3 and w[0] == 'alias' and w[2].rstrip('/') in mods:
            lines.append(line)
with open(os.path.join(dst, 'gconv-modules'), 'w') as out:
    out.write('# The converters this release carries (release/make-dist.sh).\n')
    out.writelines(lines)
PY

# Every IANA zone in one file (lib/time_zone.h, the zone archive).
python3 - /usr/share/zoneinfo "$LIB/zones" <<'PY'
import os, sys
root, out = sys.argv[1], sys.argv[2]
zones = {}
for d, dirs, files in os.walk(root, followlinks=False):
    dirs[:] = [x for x in dirs if x not in ('posix', 'right')]
    for f in files:
        p = os.path.join(d, f)
        try:
            data = open(p, 'rb').read()
        except OSError:
            continue
        if data[:4] == b'TZif':
            zones[os.path.relpath(p, root)] = data
blobs, where, index = [], {}, []
offset = 0
for name in sorted(zones):
    data = zones[name]
    if data not in where:
        where[data] = offset
        blobs.append(data)
        offset += len(data)
    index.append('%s %d %d\n' % (name, where[data], len(data)))
with open(out, 'wb') as f:
    f.write(b'feed-zones 1\n' + ''.join(index).encode() + b'\n' + b''.join(blobs))
PY

# The launcher: static, so that it starts without any loader.
gcc -O2 -static -o "$TOP/feed.fcgi" "$ROOT/release/launcher.c"
strip "$TOP/feed.fcgi"

# The mappings, templates and SQL, as the source tree has them (the configs
# in feed-files/conf name ../templates and ../sql, which hold there too).
cp -r "$ROOT/templates" "$ROOT/sql" "$ROOT/conf" "$FILES/"
cp "$ROOT/release/htaccess" "$TOP/.htaccess"
cp "$ROOT/release/htaccess-sitemaps" "$FILES/htaccess-sitemaps"
cp "$ROOT/release/htaccess-out" "$TOP/feed-out/.htaccess"
cp "$ROOT/release/INSTALL.txt" "$TOP/INSTALL.txt"
# feed.ini: the legacy board's mapping (conf/legacy-board.ini) as it reads
# from beside feed.fcgi, on a host with no X-Sendfile and no environment.
sed -e 's#\.\./templates/#feed-files/templates/#' -e 's#\.\./sql/#feed-files/sql/#' \
    -e 's#^socket *=.*#host     = localhost#' \
    -e 's#^hand_off *=.*#; Large bodies are published in feed-out/ (served by Apache, see its\n; .htaccess) and the robot is sent there: slow readers hold no FastCGI\n; process, of which a shared host allows few. none: the program sends all.\nhand_off  = redirect\nredirect_dir = feed-out#' \
    -e 's#^spool_dir *=.*#spool_dir = feed-files/spool#' \
    -e 's#^\[server\]$#[server]\n; Keys the continue tokens of the paged feeds: replace it with the output\n; of  head -c 24 /dev/urandom | base64  (the program refuses this one).\nsecret    = change-me-to-a-long-random-string#' \
    "$ROOT/conf/legacy-board.ini" >"$TOP/feed.ini"
grep -q '^secret *= change-me' "$TOP/feed.ini" || die "feed.ini: the [server] secret line was not added"

chmod -R u=rwX,go=rX "$TOP"
chmod 600 "$TOP/feed.ini"
chmod 755 "$TOP/feed.fcgi" "$LIB/feed" "$LIB/ld-linux-x86-64.so.2"
mkdir -p "$OUTDIR"
tar -C "$STAGE" --owner=0 --group=0 --numeric-owner -czf "$OUTDIR/$NAME.tar.gz.tmp" "$NAME"
mv -f "$OUTDIR/$NAME.tar.gz.tmp" "$OUTDIR/$NAME.tar.gz"
echo "$(cd "$OUTDIR" && pwd)/$NAME.tar.gz: $(find "$TOP" | wc -l) files and folders, $(du -sk "$TOP" | cut -f1) KiB unpacked, $(($(stat -c %s "$OUTDIR/$NAME.tar.gz") / 1024)) KiB packed"
