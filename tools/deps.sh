#!/bin/bash
# Checks for, and as root installs, the Debian packages that building and
# testing feed.fcgi need.
#
#   tools/deps.sh [EXTRA-PACKAGE...]
#
# Does nothing (quickly, without apt) when every package is installed. As
# root it runs `apt-get update -q` and `apt-get install -y` for the missing
# ones, without starting the system services those packages ship (the tests
# run their own private MariaDB and Apache); not root, it names what is
# missing and the command to run, and exits 1. EXTRA-PACKAGE arguments are
# checked and installed too (the bench passes php-cgi php-mysql wrk gnuplot-nox).
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin

PACKAGES=(
    g++ make                    # compiler
    clang-14 libclang-rt-14-dev # fuzz targets: clang++-14 -fsanitize=fuzzer (libFuzzer)
    libfcgi-dev                 # FastCGI (fcgiapp.h, -lfcgi)
    libmysqlcppconn-dev         # MySQL Connector/C++ 1.1 (-lmysqlcppconn)
    libtinyxml2-dev             # templates (-ltinyxml2)
    libxml2-dev                 # check: sitemaps against the sitemaps.org XSDs (-lxml2)
    zlib1g-dev                  # gzip output (-lz)
    libgtest-dev                # googletest (-lgtest -lgtest_main)
    mariadb-server mariadb-client   # private test database
    apache2 libapache2-mod-fcgid libapache2-mod-xsendfile  # private test web server
    nginx-light spawn-fcgi      # the same, behind nginx: spawn-fcgi keeps the pool
    libfcgi-bin                 # cgi-fcgi: a FastCGI client, for the release's chroot test
    curl python3 tzdata         # test harness, fixture generator, time zones
    libxml2-utils               # xmllint: sitemaps checked against the sitemaps.org XSDs
    chromium                    # the status page, tested in a real browser (headless)
    nlohmann-json3-dev          # tests read the status page's JSON with a parser of their own
    xfsprogs                    # mkfs.xfs, xfs_quota: the web user's disk quota on a test file system (EDQUOT)
)
PACKAGES+=("$@")

log() { echo "deps.sh: $*"; }

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

missing=()
for p in "${PACKAGES[@]}"; do
    installed "$p" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
    {
        echo "deps.sh: missing Debian packages: ${missing[*]}"
        echo "deps.sh: install them as root with:"
        echo "    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
    } >&2
    exit 1
fi

# Keep the packages' postinst from starting system-wide mariadb/apache2
# services (they would take port 80 and /run/mysqld for nothing). Only when
# the admin has no policy of their own; removed again on exit.
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\n# temporary, written by feed.fcgi tools/deps.sh\nexit 101\n' >"$POLICY"
    chmod 755 "$POLICY"
    trap 'rm -f "$POLICY"' EXIT
fi

log "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"

still=()
for p in "${missing[@]}"; do
    installed "$p" || still+=("$p")
done
if [ ${#still[@]} -gt 0 ]; then
    echo "deps.sh: still not installed after apt-get: ${still[*]}" >&2
    exit 1
fi
log "done"
