#!/usr/bin/env python3
"""make bench: feed.fcgi measured against the legacy PHP scripts it replaces
and against the database's own speed, on the legacy board of ../shared/board,
in the same run. Run through bench/run.sh (which builds the binary).

Every contender's output is checked for completeness (its item count equals
the database's) before its time is used: a fast wrong answer is no result.
Results: a Markdown table and latest.json in bench/results/, and PNG charts.

    bench.py                   every measurement
    bench.py --only yads       only the Yads group (full at both sizes, incremental)
    bench.py --only robots     only the four robots dumping the full Yads feed at once
    bench.py --only sitemaps   only the sitemap group (also BENCH_ONLY=sitemaps)
    bench.py --only baidu      only Baidu's document sitemap (BENCH_FILES documents)
    bench.py --only msn        only the MSN group (also BENCH_ONLY=msn)
    bench.py --report          the report again from the last run's figures
"""

import concurrent.futures
import datetime
import gzip
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import xml.parsers.expat
import zoneinfo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, '..', 'shared', 'board'))
ADS = int(os.environ.get('BENCH_ADS', 1000000))
JOBS = int(os.environ.get('BENCH_JOBS', 200000))
# The full Yads dump's second size: a board of its own with this many ads
# (0: none) and few vacancies.
ADS_SMALL = int(os.environ.get('BENCH_ADS_SMALL', 200000))
JOBS_SMALL = 1000
# Robots dumping the full Yads feed at once (the robots group).
ROBOTS = 4
# The document library of the Baidu group: a board of its own, this many
# documents (with their comments), few ads and vacancies.
FILES = int(os.environ.get('BENCH_FILES', 200000))
ROUNDS = int(os.environ.get('BENCH_ROUNDS', 3))
BASE = os.environ.get('BENCH_DIR', '/tmp/feed-bench')
WRK_SECONDS = int(os.environ.get('BENCH_WRK_SECONDS', 20))
CONCURRENCY = 16
RESULTS = os.environ.get('BENCH_RESULTS', os.path.join(ROOT, 'bench', 'results'))
BINARY = os.path.join(ROOT, 'build', 'bench', 'feed.fcgi')
# The shipped configs carry no secret: the continue tokens' key, random per run.
FEED_SECRET = os.urandom(24).hex()
# The groups of measurements; --only picks some (the others keep the figures
# of the last run at the same board size).
GROUPS = ('yads', 'robots', 'jooble', 'memory', 'sitemaps', 'baidu', 'msn')
ONLY_GROUPS = ('yads', 'robots', 'jooble', 'sitemaps', 'baidu', 'msn')
# sitemap.js (npm `sitemap`), the sitemap contender, and its driver.
SITEMAP_JS = 'sitemap@8'
SITEMAP_JS_DIR = os.path.join(BASE, 'sitemapjs')
SITEMAP_JS_SCRIPT = os.path.join(ROOT, 'bench', 'sitemap_js.js')
GNU_TIME = '/usr/bin/time'
# The sitemaps.org limits of one sitemap file.
SITEMAP_MAX_URLS = 50000
SITEMAP_MAX_BYTES = 50 * 1024 * 1024
# The URL and date columns of the ads' sitemap, as the mariadb client reads
# them: the floor of writing the sitemap set.
SITEMAP_QUERY = ("SELECT CONCAT('http://doska.example/ad/', ad_id, '.html'), updated FROM ads "
                 "WHERE status = 'active'{range} ORDER BY ad_id")
LIVE_REPEATS = 5   # fetches of the live part (and floor reads) per round
# The MSN feed's content columns, every ad's, as the mariadb client reads
# them: the floor of a fetch with its change detection.
MSN_FLOOR_QUERY = ("SELECT a.ad_id, a.title, a.text, c.name, a.photo, a.added, a.days FROM ads a "
                   "LEFT JOIN city c ON c.city_id = a.city_id ORDER BY a.ad_id")
# The moment the MSN fetches run at (--now): gen.py's boards end at its
# default --now, 2026-11-01 12:00 Kiev; later rounds are 10 minutes apart.
MSN_NOW = datetime.datetime(2026, 11, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)
# Each round changes the content of 1% of the ads (ad_id % 100 = round) and
# raises another 1% (only `updated`). The edit toggles a marker, so that a
# board kept between runs does not grow.
MSN_MARK = ' [msn-bench]'

# yads.php's own query, unpaged: the floor of a full dump.
YADS_QUERY = ("SELECT a.ad_id, a.title, a.text, a.author, a.kind, c.name AS town, a.phone, a.email, "
              "a.icq, a.photo, a.added, a.days FROM ads a LEFT JOIN city c ON c.city_id = a.city_id "
              "WHERE a.status = 'active' AND a.added >= '{date}' AND a.ad_id > 0 ORDER BY a.ad_id{limit}")
# jooble.php's own query: the floor of a full Jooble dump.
JOOBLE_QUERY = ("SELECT vac_id, title, city_list, salary, company, company_about, descr, contacts, valid_till "
                "FROM vacancy WHERE status = 'active' AND is_resume = 0 "
                "AND (created >= '1970-01-01 00:00:00' OR modified >= '1970-01-01 00:00:00') ORDER BY vac_id")


def log(*a):
    print('bench:', *a, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, **kw)


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


class Board:
    """A legacy board served by ../shared/board/serve.sh: its MariaDB and the
    PHP scripts under Apache mod_fcgid. Kept between runs per size."""

    def __init__(self, ads, jobs, files=100):
        self.ads, self.jobs, self.files = ads, jobs, files
        self.dir = os.path.join(BASE, 'board-%d-%d' % (ads, jobs) + ('' if files == 100 else '-%d' % files))
        self.sock = os.path.join(self.dir, 'dbrun', 'mysqld.sock')
        self.port = free_port()

    def start(self):
        log('legacy board with %d ads, %d vacancies, %d documents in %s' % (self.ads, self.jobs, self.files, self.dir))
        run([os.path.join(SHARED, 'serve.sh'), 'start', '-d', self.dir, '-p', str(self.port),
             '--ads', str(self.ads), '--jobs', str(self.jobs), '--files', str(self.files)],
            stdout=subprocess.DEVNULL)
        # The project's own tables. The board user only reads the robots'
        # visits (so that the Jooble dump stays full in every round), and
        # keeps the live sitemap parts' plan (sitemap index and parts) and
        # the moments states were first seen (Last-Modified).
        with open(os.path.join(ROOT, 'sql', 'state.sql')) as f:
            self.sql(f.read(), root=True)
        # The comments' index the Baidu feed asks for (docs/formats/baidu.md), safe to repeat.
        with open(os.path.join(ROOT, 'sql', 'legacy-baidu-index.sql')) as f:
            self.sql(f.read(), root=True)
        self.sql("GRANT SELECT ON board.feed_robot_visit TO 'board'@'localhost';"
                 "GRANT SELECT, INSERT, UPDATE ON board.feed_part_plan TO 'board'@'localhost';"
                 "GRANT SELECT, INSERT, UPDATE, DELETE ON board.feed_state_seen TO 'board'@'localhost';"
                 "GRANT SELECT, INSERT, UPDATE, DELETE ON board.feed_item_state TO 'board'@'localhost';"
                 "GRANT SELECT, INSERT, UPDATE ON board.feed_item_sync TO 'board'@'localhost'", root=True)

    def stop(self):
        run([os.path.join(SHARED, 'serve.sh'), 'stop', '-d', self.dir], stdout=subprocess.DEVNULL)

    def client(self, charset='utf8mb4', root=False):
        cmd = ['mariadb', '--no-defaults', '--socket=' + self.sock, '--default-character-set=' + charset]
        if not root:
            cmd += ['-uboard', '-pboard']
        return cmd + ['board']

    def feed_env(self):
        """The environment that points feed.fcgi's command line at this board."""
        return dict(os.environ, FEED_DB_SOCKET=self.sock, FEED_DB_USER='board', FEED_DB_PASSWORD='board',
                    FEED_SECRET=FEED_SECRET)

    def sql(self, text, root=False):
        return run(self.client(root=root) + ['-N', '-B'], input=text, capture_output=True).stdout

    def one(self, text):
        return self.sql(text).strip()

    def last_error(self, script):
        """The last line Apache logged about `script` (PHP's fatal errors)."""
        try:
            with open(os.path.join(self.dir, 'log', 'apache-error.log'), errors='replace') as f:
                lines = [l for l in f if script in l]
            return re.sub(r'^.*?(PHP .*?) in /\S+', r'\1 in ' + script, lines[-1].strip()) if lines else 'no answer'
        except OSError:
            return 'no answer'


class FeedServer:
    """feed.fcgi under Apache mod_fcgid (tests/harness/apache.sh), deployed as
    a site owner would, with conf/legacy-board.ini."""

    def __init__(self):
        self.dir = os.path.join(BASE, 'feed-apache')
        self.site = os.path.join(BASE, 'feed-site')
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d/cgi-bin/feed.fcgi' % self.port

    def deploy(self):
        shutil.rmtree(self.site, ignore_errors=True)
        os.makedirs(os.path.join(self.site, 'cgi-bin'))
        for d in ('conf', 'templates', 'sql'):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(self.site, d))
        shutil.copy(BINARY, os.path.join(self.site, 'cgi-bin', 'feed.fcgi'))
        # The same Jooble feed in windows-1251, for the second encoding.
        conf = os.path.join(self.site, 'conf', 'legacy-board.ini')
        with open(conf) as f:
            text = f.read()
        # Only that section: the file goes on with others (sitemaps, RSS).
        jooble = text[text.index('[feed jooble]'):]
        after = re.search(r'^\[', jooble[1:], re.M)
        jooble = jooble[:after.start() + 1] if after else jooble
        jooble = jooble.replace('[feed jooble]', '[feed jooble-1251]').replace('path           = /jooble', 'path           = /jooble-1251')
        jooble = jooble.replace('encoding       = UTF-8', 'encoding       = windows-1251')
        with open(conf, 'a') as f:
            f.write('\n' + jooble)

    def start(self, board):
        """(Re)starts Apache, so that feed.fcgi processes begin afresh."""
        self.stop()
        # A config mistake would only show as HTTP 500s: say it here.
        conf = os.path.join(self.site, 'conf', 'legacy-board.ini')
        check = subprocess.run([os.path.join(self.site, 'cgi-bin', 'feed.fcgi'), '--config', conf, 'check'],
                               env=board.feed_env(), capture_output=True, text=True)
        if check.returncode != 0:
            raise SystemExit('bench: the deployed feed.fcgi refuses its config: %s' % (check.stdout + check.stderr).strip())
        # As many processes as serve.sh gives PHP, so neither waits for a free one.
        env = dict(os.environ, FEED_DB_SOCKET=board.sock, FEED_DB_USER='board', FEED_DB_PASSWORD='board',
                   FEED_SECRET=FEED_SECRET, FCGID_MAX_PROCESSES='32')
        run([os.path.join(ROOT, 'tests', 'harness', 'apache.sh'), 'start', self.dir, str(self.port), self.site,
             os.path.join(self.site, 'conf', 'legacy-board.ini')], env=env, stdout=subprocess.DEVNULL)

    def stop(self):
        run([os.path.join(ROOT, 'tests', 'harness', 'apache.sh'), 'stop', self.dir], stdout=subprocess.DEVNULL)

    def peak_rss_kib(self):
        """The largest VmHWM among the running feed.fcgi processes."""
        peak = 0
        for pid in os.listdir('/proc'):
            if not pid.isdigit():
                continue
            try:
                with open('/proc/%s/comm' % pid) as f:
                    if f.read().strip() != 'feed.fcgi':
                        continue
                with open('/proc/%s/status' % pid) as f:
                    m = re.search(r'^VmHWM:\s+(\d+) kB', f.read(), re.M)
                    peak = max(peak, int(m.group(1)))
            except OSError:
                continue
        return peak


def follow_pages(first_url, token_re, workdir):
    """A robot's download: one curl per page, following <continue> to the
    last page. Returns the page files."""
    pages, url = [], first_url
    while True:
        path = os.path.join(workdir, 'page%05d.xml' % len(pages))
        run(['curl', '-sf', '-o', path, url])
        pages.append(path)
        with open(path, 'rb') as f:
            f.seek(max(0, os.path.getsize(path) - 200))
            m = re.search(token_re, f.read())
        if not m:
            return pages
        sep = '&' if '?' in first_url else '?'
        url = first_url + sep + 'continue=' + m.group(1).decode()
        if len(pages) > 100000:
            raise RuntimeError('no last page')


def count_in_files(paths, needle):
    n = 0
    for p in paths:
        with open(p, 'rb') as f:
            n += f.read().count(needle)
    return n


def median(xs):
    return statistics.median(xs)


def warm(board, charset, query):
    """One untimed read of `query`: a board just started has its buffer pool
    to fill, which the first contender of the first round would otherwise
    do for the others."""
    run(['bash', '-c', ' '.join(board.client(charset)) + ' --quick -N -B -e "%s" >/dev/null' % query])


def full_yads(board, feed, results, key='yads_full'):
    """1. Every page of /yads with no date, to the last <continue>. The
    figures go to `key`_* (yads_full_* for the big board, yads_full_small_*
    for the second size)."""
    label = 'full yads' if key == 'yads_full' else 'full yads (%d ads)' % board.ads
    expected = int(board.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
    contenders = {
        'feed': lambda d: follow_pages(feed.url + '/yads', rb'<continue>([0-9A-Za-z]+)</continue>', d),
        'php': lambda d: follow_pages('http://127.0.0.1:%d/yads.php' % board.port,
                                      rb'<continue>([0-9]+)</continue>', d),
    }
    times = {k: [] for k in list(contenders) + ['floor_cp1251', 'floor_utf8mb4', 'own']}
    query = YADS_QUERY.format(date='1970-01-01 00:00:00', limit='')
    # The mapping's own cost: the query feed.fcgi walks for a full dump
    # (query_full), unpaged, through the same client as the floor.
    own = own_sql('legacy-yads-full.sql', {'site_url': "'http://doska.example'", 'after_ad_id': '0',
                                           'limit': '1000000000'})
    warm(board, 'cp1251', query)
    for r in range(ROUNDS):
        for name, fn in contenders.items():
            with tempfile.TemporaryDirectory(dir=BASE) as d:
                t, pages = timed(lambda: fn(d))
                got = count_in_files(pages, b'<ad>')
                if got != expected:
                    raise SystemExit('bench: %s gave %d ads, the database has %d active' % (name, got, expected))
                times[name].append(t)
                log('%s round %d: %s %.2f s, %d pages' % (label, r + 1, name, t, len(pages)))
        for cs in ('cp1251', 'utf8mb4'):
            cmd = ' '.join(board.client(cs)) + ' --quick -N -B -e "%s" | wc -l' % query
            t, out = timed(lambda: run(['bash', '-c', cmd], capture_output=True).stdout)
            if int(out) != expected:
                raise SystemExit('bench: the floor gave %s rows, expected %d' % (out.strip(), expected))
            times['floor_' + cs].append(t)
            log('%s round %d: floor %s %.2f s' % (label, r + 1, cs, t))
        t, got = client_rows(board, 'cp1251', own)
        if got != expected:
            raise SystemExit('bench: the mapping\'s own query gave %d rows, expected %d' % (got, expected))
        times['own'].append(t)
        log('%s round %d: its own query (sql/legacy-yads-full.sql) %.2f s' % (label, r + 1, t))
    m = {k: median(v) for k, v in times.items()}
    floor = min(m['floor_cp1251'], m['floor_utf8mb4'])
    figures = {
        '_ads': expected,
        '_feed_s': m['feed'], '_php_s': m['php'],
        '_floor_cp1251_s': m['floor_cp1251'], '_floor_utf8mb4_s': m['floor_utf8mb4'],
        '_feed_ads_per_s': expected / m['feed'], '_php_ads_per_s': expected / m['php'],
        '_floor_ads_per_s': expected / floor,
        '_own_query_s': m['own'],
    }
    ratios = {
        '_feed_time_vs_own_query': m['feed'] / m['own'],
        '_feed_time_vs_floor': m['feed'] / floor,
        '_php_time_vs_feed': m['php'] / m['feed'],
    }
    results.update({key + k: v for k, v in figures.items()})
    results.update({'ratio_' + key + k: v for k, v in ratios.items()})


def full_yads_small(running, feed, results):
    """1, at a second size: the full Yads dump on a board of BENCH_ADS_SMALL
    ads (its own board, kept in BENCH_DIR, started only for this), the
    FeedServer restarted against it for the time and against the first of
    `running` (the big board) afterwards. A board of that size already
    running (same folder) is used as it is."""
    board = Board(ADS_SMALL, JOBS_SMALL)
    mine = not any(b.dir == board.dir for b in running)
    if mine:
        board.start()
    else:
        board = next(b for b in running if b.dir == board.dir)
    try:
        feed.start(board)
        full_yads(board, feed, results, key='yads_full_small')
    finally:
        feed.start(running[0])
        if mine:
            board.stop()


def robots(board, feed, results):
    """1b. Four robots dumping the full Yads feed at once (each as in 1: one
    curl per page, following <continue>), against four mariadb --quick
    clients running the floor's query at once. The rate is every ad
    delivered (4 × the active ads) over the wall time from the start to the
    last one's finish."""
    expected = int(board.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
    query = YADS_QUERY.format(date='1970-01-01 00:00:00', limit='')
    # mod_fcgid starts its processes one at a time as load arrives: have
    # ROBOTS of them running before the first timed round (a cheap page).
    date = board.one("SELECT DATE_FORMAT(MAX(added) - INTERVAL 1 HOUR, '%Y-%m-%d %H:%i:%s') FROM ads")
    run(['wrk', '-t2', '-c%d' % ROBOTS, '-d3s', feed.url + '/yads?date=' + date.replace(' ', '+')],
        stdout=subprocess.DEVNULL)
    warm(board, 'cp1251', query)

    def feed_robots():
        with tempfile.TemporaryDirectory(dir=BASE) as d:
            dirs = [os.path.join(d, 'robot%d' % i) for i in range(ROBOTS)]
            for x in dirs:
                os.mkdir(x)
            finished = [None] * ROBOTS

            def robot(i):
                pages = follow_pages(feed.url + '/yads', rb'<continue>([0-9A-Za-z]+)</continue>', dirs[i])
                finished[i] = time.perf_counter()
                return pages
            t0 = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(ROBOTS) as pool:
                all_pages = list(pool.map(robot, range(ROBOTS)))
            wall = max(finished) - t0
            for i, pages in enumerate(all_pages):
                got = count_in_files(pages, b'<ad>')
                if got != expected:
                    raise SystemExit('bench: robot %d of %d gave %d ads, the database has %d active' % (
                        i + 1, ROBOTS, got, expected))
            return wall, [f - t0 for f in finished]

    def floor_clients(cs):
        cmd = ' '.join(board.client(cs)) + ' --quick -N -B -e "%s" | wc -l' % query
        t0 = time.perf_counter()
        procs = [subprocess.Popen(['bash', '-c', cmd], stdout=subprocess.PIPE, text=True) for _ in range(ROBOTS)]
        outs = []
        for p in procs:
            out, _ = p.communicate()
            if p.returncode != 0:
                raise SystemExit('bench: a floor client of the four failed (exit %d)' % p.returncode)
            outs.append(out)
        wall = time.perf_counter() - t0
        for out in outs:
            if int(out) != expected:
                raise SystemExit('bench: a floor client of the four gave %s rows, expected %d' % (out.strip(), expected))
        return wall

    times = {'feed': [], 'feed_fastest': [], 'floor_cp1251': [], 'floor_utf8mb4': []}
    for r in range(ROUNDS):
        wall, each = feed_robots()
        times['feed'].append(wall)
        times['feed_fastest'].append(min(each))
        log('%d robots round %d: feed %.2f s (first done at %.2f s)' % (ROBOTS, r + 1, wall, min(each)))
        for cs in ('cp1251', 'utf8mb4'):
            t = floor_clients(cs)
            times['floor_' + cs].append(t)
            log('%d robots round %d: floor %s %.2f s' % (ROBOTS, r + 1, cs, t))
    m = {k: median(v) for k, v in times.items()}
    floor = min(m['floor_cp1251'], m['floor_utf8mb4'])
    total = ROBOTS * expected
    results.update({
        'yads_robots4_ads': expected, 'yads_robots4_robots': ROBOTS,
        'yads_robots4_feed_s': m['feed'], 'yads_robots4_feed_fastest_s': m['feed_fastest'],
        'yads_robots4_floor_cp1251_s': m['floor_cp1251'], 'yads_robots4_floor_utf8mb4_s': m['floor_utf8mb4'],
        'yads_robots4_feed_ads_per_s': total / m['feed'], 'yads_robots4_floor_ads_per_s': total / floor,
        'ratio_yads_robots4_feed_rate_vs_floor': (total / m['feed']) / (total / floor),
    })


def wrk(url, seconds):
    out = run(['wrk', '-t2', '-c%d' % CONCURRENCY, '-d%ds' % seconds, '--latency', url], capture_output=True).stdout
    rps = float(re.search(r'Requests/sec:\s+([\d.]+)', out).group(1))
    m = re.search(r'^\s+99%\s+([\d.]+)(us|ms|s)\s*$', out, re.M)
    p99 = float(m.group(1)) * {'us': 0.001, 'ms': 1.0, 's': 1000.0}[m.group(2)]
    errors = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
    if errors:
        raise SystemExit('bench: %s answered %s errors under load' % (url, errors.group(1)))
    return rps, p99


def slap(board, query):
    out = run(['mariadb-slap', '--no-defaults', '--socket=' + board.sock, '-uboard', '-pboard',
               '--create-schema=board', '--no-drop',
               '--concurrency=%d' % CONCURRENCY, '--number-of-queries=%d' % (CONCURRENCY * 300),
               '--iterations=1', '--query=' + query], capture_output=True).stdout
    seconds = float(re.search(r'Average number of seconds to run all queries: ([\d.]+)', out).group(1))
    per_client = float(re.search(r'Average number of queries per client: ([\d.]+)', out).group(1))
    return CONCURRENCY * per_client / seconds


def incremental_yads(board, feed, results):
    """2. One page for a date an hour before the newest ad, under load."""
    date = board.one("SELECT DATE_FORMAT(MAX(added) - INTERVAL 1 HOUR, '%Y-%m-%d %H:%i:%s') FROM ads")
    expected = int(board.one("SELECT COUNT(*) FROM ads WHERE status = 'active' AND added >= '%s'" % date))
    q = date.replace(' ', '+')
    urls = {'feed': feed.url + '/yads?date=' + q, 'php': 'http://127.0.0.1:%d/yads.php?date=%s' % (board.port, q)}
    for name, url in urls.items():
        body = subprocess.run(['curl', '-sf', url], check=True, capture_output=True).stdout
        got = body.count(b'<ad>')
        if got != min(expected, 1000):
            raise SystemExit('bench: %s gave %d ads for date %s, the database has %d' % (name, got, date, expected))
    query = YADS_QUERY.format(date=date, limit=' LIMIT 1001')
    # mod_fcgid starts processes as load arrives, one at a time: warm both
    # up so that neither's figures count process start-up.
    for url in urls.values():
        wrk(url, 5)
    figures = {k: {'rps': [], 'p99': []} for k in urls}
    floors = []
    for r in range(ROUNDS):
        for name, url in urls.items():
            rps, p99 = wrk(url, WRK_SECONDS)
            figures[name]['rps'].append(rps)
            figures[name]['p99'].append(p99)
            log('incremental round %d: %s %.0f req/s, p99 %.1f ms' % (r + 1, name, rps, p99))
        qps = slap(board, query)
        floors.append(qps)
        log('incremental round %d: floor %.0f queries/s' % (r + 1, qps))
    feed_rps, php_rps, floor = median(figures['feed']['rps']), median(figures['php']['rps']), median(floors)
    results.update({
        'yads_incr_date': date, 'yads_incr_ads': expected,
        'yads_incr_feed_rps': feed_rps, 'yads_incr_php_rps': php_rps, 'yads_incr_floor_qps': floor,
        'yads_incr_feed_p99_ms': median(figures['feed']['p99']), 'yads_incr_php_p99_ms': median(figures['php']['p99']),
        'ratio_yads_incr_feed_vs_floor': feed_rps / floor, 'ratio_yads_incr_feed_vs_php': feed_rps / php_rps,
    })


def full_jooble(board, feed, results):
    """3. The whole Jooble feed, both encodings, against jooble.php."""
    feed_expected = int(board.one("SELECT COUNT(*) FROM vacancy WHERE status = 'active' AND TRIM(contacts) <> ''"))
    php_expected = int(board.one("SELECT COUNT(*) FROM vacancy WHERE status = 'active' AND is_resume = 0"))
    urls = {'feed_utf8': (feed.url + '/jooble', feed_expected), 'feed_cp1251': (feed.url + '/jooble-1251', feed_expected),
            'php': ('http://127.0.0.1:%d/jooble.php' % board.port, php_expected)}
    times = {k: [] for k in list(urls) + ['floor', 'own_query', 'own_state']}
    failures = {}
    # The mapping's own cost: the query of a full visit (sql/legacy-jooble-full.sql:
    # the bench's visits are full, the robot's record being read-only) and its
    # state query (sql/legacy-jooble-state.sql) with the parameters a full dump
    # binds (no visit recorded: :since the engine's minimum, the keyset at
    # its start, :now the site's time now), the query unpaged, through the
    # mariadb client on the feed's connection charset (utf8mb4).
    site = ini_sections(os.path.join(feed.site, 'conf', 'legacy-board.ini'))['site']
    now = datetime.datetime.now(zoneinfo.ZoneInfo(ini_value(site, 'time_zone'))).strftime('%Y-%m-%d %H:%M:%S')
    values = {'site_url': "'%s'" % ini_value(site, 'url'), 'since': "'1000-01-01 00:00:00'", 'now': "'%s'" % now,
              'after_updated': "'1000-01-01 00:00:00'", 'after_id': '-9223372036854775808', 'limit': '1000000000'}
    own = {'own_query': (own_sql('legacy-jooble-full.sql', values),
                         int(board.one("SELECT COUNT(*) FROM vacancy WHERE status = 'active' AND modified <= '%s'" % now))),
           'own_state': (own_sql('legacy-jooble-state.sql', values), 1)}
    warm(board, 'utf8mb4', JOOBLE_QUERY)
    for r in range(ROUNDS):
        for name, (url, expected) in urls.items():
            if name in failures:
                continue
            with tempfile.NamedTemporaryFile(dir=BASE) as out:
                try:
                    t, _ = timed(lambda: run(['curl', '-sf', '-o', out.name, url]))
                except subprocess.CalledProcessError:
                    # The legacy script cannot always answer at all: say why.
                    failures[name] = board.last_error(os.path.basename(url)) if name == 'php' else 'HTTP error'
                    log('full jooble round %d: %s FAILED: %s' % (r + 1, name, failures[name]))
                    continue
                got = count_in_files([out.name], b'<job ')
            if got != expected:
                raise SystemExit('bench: %s gave %d jobs, the database has %d' % (name, got, expected))
            times[name].append(t)
            log('full jooble round %d: %s %.2f s' % (r + 1, name, t))
        cmd = ' '.join(board.client('utf8mb4')) + ' --quick -N -B -e "%s" | wc -l' % JOOBLE_QUERY
        t, out = timed(lambda: run(['bash', '-c', cmd], capture_output=True).stdout)
        if int(out) != php_expected:
            raise SystemExit('bench: the Jooble floor gave %s rows, expected %d' % (out.strip(), php_expected))
        times['floor'].append(t)
        log('full jooble round %d: floor %.2f s' % (r + 1, t))
        for name, (text, rows) in own.items():
            t, got = client_rows(board, 'utf8mb4', text)
            if got != rows:
                raise SystemExit('bench: the Jooble mapping\'s %s gave %d rows, expected %d' % (name, got, rows))
            times[name].append(t)
            log('full jooble round %d: its %s %.2f s' % (r + 1, name.replace('_', ' '), t))
    if 'feed_utf8' in failures or 'feed_cp1251' in failures:
        raise SystemExit('bench: feed.fcgi failed the Jooble dump: %s' % failures)
    m = {k: median(v) for k, v in times.items() if v}
    php_ok = 'php' not in failures
    results.update({
        'jooble_full_feed_jobs': feed_expected, 'jooble_full_php_jobs': php_expected,
        'jooble_full_php_error': failures.get('php', ''),
        'jooble_full_feed_utf8_s': m['feed_utf8'], 'jooble_full_feed_cp1251_s': m['feed_cp1251'],
        'jooble_full_php_s': m['php'] if php_ok else None, 'jooble_full_floor_s': m['floor'],
        'jooble_full_feed_utf8_jobs_per_s': feed_expected / m['feed_utf8'],
        'jooble_full_feed_cp1251_jobs_per_s': feed_expected / m['feed_cp1251'],
        'jooble_full_php_jobs_per_s': php_expected / m['php'] if php_ok else None,
        'jooble_full_floor_jobs_per_s': php_expected / m['floor'],
        'jooble_full_own_rows': own['own_query'][1],
        'jooble_full_own_query_s': m['own_query'], 'jooble_full_own_state_s': m['own_state'],
        'jooble_full_own_s': m['own_query'] + m['own_state'],
        'ratio_jooble_full_feed_utf8_time_vs_own': m['feed_utf8'] / (m['own_query'] + m['own_state']),
        'ratio_jooble_full_feed_utf8_rate_vs_floor': (feed_expected / m['feed_utf8']) / (php_expected / m['floor']),
        'ratio_jooble_full_feed_utf8_rate_vs_php': (feed_expected / m['feed_utf8']) / (php_expected / m['php']) if php_ok else None,
    })


def memory(small, big, feed, results, big_peak):
    """4. Peak resident size of feed.fcgi over a full Yads dump, small board."""
    feed.start(small)
    with tempfile.TemporaryDirectory(dir=BASE) as d:
        pages = follow_pages(feed.url + '/yads', rb'<continue>([0-9A-Za-z]+)</continue>', d)
        expected = int(small.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
        if count_in_files(pages, b'<ad>') != expected:
            raise SystemExit('bench: the small board\'s feed is incomplete')
    small_peak = feed.peak_rss_kib()
    results.update({
        'feed_peak_rss_kib_small': small_peak, 'feed_peak_rss_small_ads': small.ads,
        'feed_peak_rss_kib_full': big_peak, 'feed_peak_rss_full_ads': big.ads,
        'ratio_feed_peak_rss_full_vs_small': big_peak / small_peak,
    })


def ini_sections(path):
    """The sections of an INI file: name -> its key lines (no comments)."""
    sections, name = {}, None
    with open(path) as f:
        for line in f.read().splitlines():
            m = re.match(r'\s*\[([^\]]+)\]\s*$', line)
            if m:
                name = m.group(1).strip()
                sections[name] = []
            elif name is not None and line.strip() and not line.lstrip().startswith(';'):
                sections[name].append(line)
    return sections


def ini_value(lines, key):
    for line in lines:
        m = re.match(r'\s*%s\s*=\s*(.*?)\s*(;.*)?$' % re.escape(key), line)
        if m:
            return m.group(1)
    return None


def sitemap_configs(feed, work):
    """The bench's two configs of the ads' sitemap set, made from the deployed
    conf/legacy-board.ini: [database], [site] and [feed ads] as they are
    there, and [set sitemap] with the ads section only; once with
    gzip_files = 0 and once with gzip_files = 1 in both the set and the feed.
    Returns {mode: path} and the site's time zone."""
    legacy = os.path.join(feed.site, 'conf', 'legacy-board.ini')
    here = os.path.dirname(legacy)
    sec = ini_sections(legacy)
    for name in ('database', 'site', 'set sitemap', 'feed ads'):
        if name not in sec:
            raise SystemExit('bench: %s has no [%s]' % (legacy, name))

    def absolute(line):  # the config lives elsewhere: its files by absolute path
        return re.sub(r'^(\s*[\w.-]+\s*=\s*)(\.\.?/[^\s;]*)',
                      lambda m: m.group(1) + os.path.normpath(os.path.join(here, m.group(2))), line)

    ads = [absolute(l) for l in sec['feed ads'] if not re.match(r'\s*gzip_files\s*=', l)]
    confs = {}
    for mode, gz in (('plain', 0), ('gzip', 1)):
        lines = (['; The legacy board\'s ads as one sitemap set, for bench/bench.py (from %s)' % legacy, '',
                  '[database]'] + sec['database'] + ['', '[site]'] + sec['site'] + [
                  '', '[set sitemap]', 'path        = /sitemap.xml',
                  absolute('template    = ' + ini_value(sec['set sitemap'], 'template')),
                  'sections    = ads', 'publish_url = http://doska.example/feeds', 'gzip_files  = %d' % gz,
                  '', '[feed ads]'] + ads + ['gzip_files  = %d' % gz, ''])
        confs[mode] = os.path.join(work, 'sitemap-%s.ini' % mode)
        with open(confs[mode], 'w') as f:
            f.write('\n'.join(lines))
    return confs, ini_value(sec['site'], 'time_zone') or 'UTC'


def timed_rss(cmd, env=None):
    """Runs cmd under GNU time: wall seconds, its stdout, peak RSS in KiB and
    CPU seconds (user + system)."""
    with tempfile.NamedTemporaryFile('r', dir=BASE) as tf:
        t, p = timed(lambda: subprocess.run([GNU_TIME, '-f', '%M %U %S', '-o', tf.name] + cmd, env=env,
                                            capture_output=True, text=True))
        if p.returncode != 0:
            raise SystemExit('bench: %s failed (exit %d): %s' % (' '.join(os.path.basename(c) for c in cmd[:2]),
                                                                 p.returncode, p.stderr.strip()[-2000:]))
        peak, user, system = tf.read().split()[-3:]
        return t, p.stdout, int(peak), float(user) + float(system)


def feed_write(conf, board, out):
    """feed.fcgi write /sitemap.xml OUT with a bench config, on a board."""
    t, stdout, peak, cpu = timed_rss([BINARY, '--config', conf, 'write', '/sitemap.xml', out], env=board.feed_env())
    m = re.search(r': (\d+) files, (\d+) URLs, (\d+) bytes, (\d+) rows left out$', stdout, re.M)
    if not m:
        raise SystemExit('bench: feed.fcgi write printed no summary: %s' % stdout[-1000:])
    if int(m.group(4)):
        raise SystemExit('bench: feed.fcgi write left rows out: %s' % stdout[m.start():][:2000])
    return t, peak, cpu


def js_write(urls, out, mode):
    """bench/sitemap_js.js: sitemap.js writing the same set from the dump."""
    os.makedirs(out)
    env = dict(os.environ, NODE_PATH=os.path.join(SITEMAP_JS_DIR, 'node_modules'))
    t, _, peak, cpu = timed_rss(['node', SITEMAP_JS_SCRIPT, urls, out, mode], env=env)
    return t, peak, cpu


def install_sitemap_js():
    """sitemap.js from npm into BENCH_DIR/sitemapjs, once. Its version."""
    pkg = os.path.join(SITEMAP_JS_DIR, 'node_modules', 'sitemap', 'package.json')

    def version():
        try:
            with open(pkg) as f:
                return json.load(f)['version']
        except (OSError, ValueError, KeyError):
            return ''

    if not version().startswith(SITEMAP_JS.split('@')[1] + '.'):
        log('npm install %s into %s' % (SITEMAP_JS, SITEMAP_JS_DIR))
        os.makedirs(SITEMAP_JS_DIR, exist_ok=True)
        run(['npm', 'install', '--prefix', SITEMAP_JS_DIR, '--no-audit', '--no-fund', SITEMAP_JS],
            stdout=subprocess.DEVNULL)
    if not version():
        raise SystemExit('bench: npm did not install %s into %s' % (SITEMAP_JS, SITEMAP_JS_DIR))
    return version()


def dump_sitemap_urls(board, path, zone_name, expected):
    """The ads' URLs and lastmods for sitemap.js, read from the database once
    and outside the timing: 'URL<TAB>lastmod' a line, lastmod in W3C
    datetime with the site's offset (as feed.fcgi writes it)."""
    raw = path + '.raw'
    with open(raw, 'wb') as f:
        run(board.client('utf8mb4') + ['--quick', '-N', '-B', '-e', SITEMAP_QUERY.format(range='')], stdout=f)
    zone, offsets, n = zoneinfo.ZoneInfo(zone_name), {}, 0
    with open(raw) as src, open(path, 'w') as out:
        for line in src:
            url, updated = line.rstrip('\n').split('\t')
            off = offsets.get(updated[:13])  # the offset changes on the hour at most
            if off is None:
                z = datetime.datetime.fromisoformat(updated).replace(tzinfo=zone).strftime('%z')
                off = offsets[updated[:13]] = z[:3] + ':' + z[3:]
            out.write('%s\t%sT%s%s\n' % (url, updated[:10], updated[11:19], off))
            n += 1
    os.remove(raw)
    if n != expected:
        raise SystemExit('bench: the URL dump has %d lines, the database has %d active ads' % (n, expected))


def parse_xml(data, who, name):
    try:
        xml.parsers.expat.ParserCreate().Parse(data, True)
    except xml.parsers.expat.ExpatError as e:
        raise SystemExit('bench: %s: %s does not parse: %s' % (who, name, e))


def check_sitemap_set(d, expected, who, layout):
    """Before a time is used: the sitemap set in d is complete and sound.
    layout: 'plain' (.xml only), 'twins' (each .xml with its .xml.gz) or
    'gz' (.xml.gz only). Every file parses as XML (a .gz first passes
    gunzip -t, and unpacks to its plain twin's bytes), each part holds at
    most 50,000 URLs and 50 MiB, the index sitemap.xml lists exactly the
    parts, and the parts' <url> count equals the database's count."""
    def fail(why):
        raise SystemExit('bench: %s wrote a wrong sitemap set in %s: %s' % (who, d, why))

    names = set(os.listdir(d))
    plain = {n for n in names if n.endswith('.xml')}
    gz = {n[:-3] for n in names if n.endswith('.xml.gz')}
    if names - plain - {n + '.gz' for n in gz}:
        fail('unexpected files %s' % sorted(names - plain - {n + '.gz' for n in gz})[:5])
    if {'plain': not gz, 'twins': gz == plain, 'gz': not plain}[layout] is False:
        fail('expected a %s set, found %d .xml and %d .xml.gz files' % (layout, len(plain), len(gz)))
    parts, index = {}, None
    for doc in sorted(plain | gz):
        data = None
        if doc in plain:
            with open(os.path.join(d, doc), 'rb') as f:
                data = f.read()
        if doc in gz:
            path = os.path.join(d, doc + '.gz')
            if subprocess.run(['gunzip', '-t', path], capture_output=True).returncode != 0:
                fail('gunzip -t fails on %s.gz' % doc)
            with gzip.open(path, 'rb') as f:
                unpacked = f.read()
            if data is not None and unpacked != data:
                fail('%s.gz does not unpack to %s' % (doc, doc))
            data = unpacked
        parse_xml(data, who, doc)
        if doc == 'sitemap.xml':
            index = data
            continue
        if not re.fullmatch(r'sitemap-ads-\d+\.xml', doc):
            fail('unexpected file %s' % doc)
        parts[doc] = data.count(b'<url>')
        if parts[doc] > SITEMAP_MAX_URLS or len(data) > SITEMAP_MAX_BYTES:
            fail('%s holds %d URLs in %d bytes' % (doc, parts[doc], len(data)))
    if index is None:
        fail('no index sitemap.xml')
    listed = sorted(re.sub(r'\.gz$', '', l.decode().rsplit('/', 1)[-1])
                    for l in re.findall(rb'<loc>\s*([^<]*?)\s*</loc>', index))
    if listed != sorted(parts):
        fail('the index lists %s, the parts are %s' % (listed[:4], sorted(parts)[:4]))
    urls = sum(parts.values())
    if urls != expected:
        fail('%d URLs, the database has %d active ads' % (urls, expected))
    size = lambda docs, ext: sum(os.path.getsize(os.path.join(d, n + ext)) for n in docs)
    return {'parts': len(parts), 'files': len(names), 'xml_bytes': size(plain, ''), 'gz_bytes': size(gz, '.gz')}


def sitemap_floor(board, charset, id_range, out):
    """The mariadb client reading the sitemap's URL and date columns into a
    file: (seconds, rows)."""
    cmd = board.client(charset) + ['--quick', '-N', '-B', '-e', SITEMAP_QUERY.format(range=id_range)]
    with open(out, 'wb') as f:
        t, _ = timed(lambda: run(cmd, stdout=f))
    return t, int(run(['wc', '-l', out], capture_output=True).stdout.split()[0])


def live_sitemap_part(board, feed):
    """GET /sitemap-ads-2.xml through Apache (after the index, which makes
    the part plan), against the mariadb client reading that part's id range.
    On a board with one ads part, the first part."""
    with tempfile.TemporaryDirectory(dir=BASE) as d:
        index = os.path.join(d, 'sitemap.xml')
        run(['curl', '-sf', '-o', index, feed.url + '/sitemap.xml'])
        with open(index, 'rb') as f:
            data = f.read()
        parse_xml(data, 'the live index', 'sitemap.xml')
        numbers = sorted(int(n) for n in re.findall(rb'/sitemap-ads-(\d+)\.xml</loc>', data))
        if not numbers:
            raise SystemExit('bench: the live index lists no ads part: %s' % data[:500])
        name = 'sitemap-ads-%d.xml' % (2 if 2 in numbers else numbers[-1])
        part = os.path.join(d, name)

        def fetch():
            run(['curl', '-sf', '-o', part, feed.url + '/' + name])
            with open(part, 'rb') as f:
                return f.read()

        data = fetch()  # the first fetch is not timed
        parse_xml(data, 'the live part', name)
        ids = [int(i) for i in re.findall(rb'<loc>http://doska\.example/ad/(\d+)\.html</loc>', data)]
        urls = data.count(b'<url>')
        expected = int(board.one("SELECT COUNT(*) FROM ads WHERE status = 'active' AND ad_id BETWEEN %d AND %d"
                                 % (ids[0], ids[-1]))) if ids else -1
        if not ids or len(ids) != urls or urls != expected:
            raise SystemExit('bench: the live %s has %d URLs, the database %d in its id range' % (name, urls, expected))
        id_range = ' AND ad_id > %d AND ad_id <= %d' % (ids[0] - 1, ids[-1])
        times = {'feed': [], 'floor_cp1251': [], 'floor_utf8mb4': []}
        for r in range(ROUNDS):
            for _ in range(LIVE_REPEATS):
                t, got = timed(fetch)
                if got.count(b'<url>') != urls:
                    raise SystemExit('bench: the live %s changed: %d URLs' % (name, got.count(b'<url>')))
                times['feed'].append(t)
                for cs in ('cp1251', 'utf8mb4'):
                    t, rows = sitemap_floor(board, cs, id_range, os.path.join(d, 'floor.tsv'))
                    if rows != urls:
                        raise SystemExit('bench: the floor read %d rows of %s\'s range, expected %d' % (rows, name, urls))
                    times['floor_' + cs].append(t)
            log('live sitemap part round %d: %s %.1f ms, floor cp1251 %.1f ms, utf8mb4 %.1f ms' % (
                r + 1, name, *(1000 * median(v[-LIVE_REPEATS:]) for v in times.values())))
    m = {k: 1000 * median(v) for k, v in times.items()}
    floor = min(m['floor_cp1251'], m['floor_utf8mb4'])
    return {
        'sitemap_live_part': name, 'sitemap_live_part_urls': urls,
        'sitemap_live_part_first_id': ids[0], 'sitemap_live_part_last_id': ids[-1],
        'sitemap_live_samples': len(times['feed']),
        'sitemap_live_feed_ms': m['feed'], 'sitemap_live_floor_cp1251_ms': m['floor_cp1251'],
        'sitemap_live_floor_utf8mb4_ms': m['floor_utf8mb4'],
        'ratio_sitemap_live_feed_vs_floor': m['feed'] / floor,
    }


def sitemaps(big, small, feed, results):
    """5. The ads as a sitemap set: feed.fcgi write (plain, and with .gz
    twins) against sitemap.js and the mariadb client; write's peak memory on
    the small and the full board; one part served live through Apache."""
    for tool, hint in (('node', 'Node.js 14 or later'), ('npm', 'npm'), ('gunzip', 'gzip'),
                       (GNU_TIME, 'the Debian package time (bench/run.sh installs it)')):
        if not shutil.which(tool):
            raise SystemExit('bench: the sitemap measurements need %s (%s)' % (tool, hint))
    version = install_sitemap_js()
    node = run(['node', '--version'], capture_output=True).stdout.strip()
    work = os.path.join(BASE, 'sitemap')
    os.makedirs(work, exist_ok=True)
    confs, zone = sitemap_configs(feed, work)
    expected = int(big.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
    urls = os.path.join(work, 'urls-%d-%d.tsv' % (big.ads, big.jobs))
    dump_sitemap_urls(big, urls, zone, expected)
    contenders = {
        'feed_plain': (lambda out: feed_write(confs['plain'], big, out), 'plain'),
        'feed_gzip': (lambda out: feed_write(confs['gzip'], big, out), 'twins'),
        'js_plain': (lambda out: js_write(urls, out, 'plain'), 'plain'),
        'js_gzip': (lambda out: js_write(urls, out, 'gzip'), 'gz'),
    }
    times = {k: [] for k in list(contenders) + ['floor_cp1251', 'floor_utf8mb4']}
    peaks = {k: [] for k in contenders}
    cpus = {k: [] for k in contenders}
    sets = {}
    for r in range(ROUNDS):
        # The floor right after feed.fcgi's plain write, which it is the
        # measure of; sitemap.js (20 and 200 times slower) in the first
        # round only: three of its gzip runs would take a quarter of an hour.
        for name, (fn, layout) in contenders.items():
            if name.startswith('js_') and r > 0:
                continue
            with tempfile.TemporaryDirectory(dir=BASE) as d:
                out = os.path.join(d, 'set')
                t, peak, cpu = fn(out)
                sets[name] = check_sitemap_set(out, expected, name, layout)
            times[name].append(t)
            peaks[name].append(peak)
            cpus[name].append(cpu)
            log('sitemaps round %d: %s %.2f s (CPU %.2f s), %d files, peak %.1f MiB' % (
                r + 1, name, t, cpu, sets[name]['files'], peak / 1024))
            if name != 'feed_plain':
                continue
            for cs in ('cp1251', 'utf8mb4'):
                with tempfile.TemporaryDirectory(dir=BASE) as d:
                    t, rows = sitemap_floor(big, cs, '', os.path.join(d, 'urls.tsv'))
                if rows != expected:
                    raise SystemExit('bench: the sitemap floor gave %d rows, expected %d' % (rows, expected))
                times['floor_' + cs].append(t)
                log('sitemaps round %d: floor %s %.2f s' % (r + 1, cs, t))
    os.remove(urls)
    m = {k: median(v) for k, v in times.items()}
    floor = min(m['floor_cp1251'], m['floor_utf8mb4'])
    # write's peak memory on the small board, each mode once.
    small_expected = int(small.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
    small_peaks = {}
    for mode, layout in (('plain', 'plain'), ('gzip', 'twins')):
        with tempfile.TemporaryDirectory(dir=BASE) as d:
            out = os.path.join(d, 'set')
            _, small_peaks[mode], _ = feed_write(confs[mode], small, out)
            check_sitemap_set(out, small_expected, 'feed_%s on the %d-ad board' % (mode, small.ads), layout)
        log('sitemaps: write %s on the %d-ad board: peak %.1f MiB' % (mode, small.ads, small_peaks[mode] / 1024))
    full_peak = max(max(peaks['feed_plain']), max(peaks['feed_gzip']))
    small_peak = max(small_peaks.values())
    results.update({
        'sitemap_ads': expected, 'sitemap_parts': sets['feed_plain']['parts'],
        'sitemap_js_version': version, 'sitemap_node_version': node,
        'sitemap_floor_cp1251_s': m['floor_cp1251'], 'sitemap_floor_utf8mb4_s': m['floor_utf8mb4'],
        'sitemap_floor_urls_per_s': expected / floor,
        'sitemap_feed_plain_bytes': sets['feed_plain']['xml_bytes'],
        'sitemap_feed_gzip_bytes': sets['feed_gzip']['xml_bytes'] + sets['feed_gzip']['gz_bytes'],
        'sitemap_feed_gzip_gz_bytes': sets['feed_gzip']['gz_bytes'],
        'sitemap_js_plain_bytes': sets['js_plain']['xml_bytes'], 'sitemap_js_gzip_bytes': sets['js_gzip']['gz_bytes'],
        'ratio_sitemap_feed_plain_time_vs_floor': m['feed_plain'] / floor,
        'ratio_sitemap_js_plain_time_vs_feed': m['js_plain'] / m['feed_plain'],
        'ratio_sitemap_js_gzip_time_vs_feed': m['js_gzip'] / m['feed_gzip'],
        'sitemap_write_peak_rss_small_ads': small.ads, 'sitemap_write_peak_rss_full_ads': big.ads,
        'sitemap_write_peak_rss_kib_small_plain': small_peaks['plain'],
        'sitemap_write_peak_rss_kib_small_gzip': small_peaks['gzip'],
        'sitemap_write_peak_rss_kib_full_plain': max(peaks['feed_plain']),
        'sitemap_write_peak_rss_kib_full_gzip': max(peaks['feed_gzip']),
        'sitemap_write_peak_rss_kib_small': small_peak, 'sitemap_write_peak_rss_kib_full': full_peak,
        'ratio_sitemap_write_peak_rss_full_vs_small': full_peak / small_peak,
        'sitemap_js_peak_rss_kib_plain': max(peaks['js_plain']), 'sitemap_js_peak_rss_kib_gzip': max(peaks['js_gzip']),
    })
    for k in contenders:
        results['sitemap_%s_s' % k] = m[k]
        results['sitemap_%s_cpu_s' % k] = median(cpus[k])
        results['sitemap_%s_urls_per_s' % k] = expected / m[k]
    results.update(live_sitemap_part(big, feed))


BAIDU_MAX_BYTES = 10485760


def client_rows(board, charset, sql_text):
    """Runs SQL text (a shipped query made literal by own_sql) through the
    mariadb client, --quick, over `charset`; returns (seconds, rows)."""
    with tempfile.NamedTemporaryFile('w', dir=BASE, suffix='.sql') as sql:
        sql.write(sql_text)
        sql.flush()
        cmd = ' '.join(board.client(charset)) + ' --quick -N -B <%s | wc -l' % sql.name
        t, out = timed(lambda: run(['bash', '-c', cmd], capture_output=True).stdout)
    return t, int(out)


def own_sql(name, values):
    """A shipped query of the legacy board with its parameters as literals
    (`values`: name -> SQL literal), for the mariadb client."""
    with open(os.path.join(ROOT, 'sql', name)) as f:
        text = f.read()
    for k, v in sorted(values.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(r':%s\b' % re.escape(k), v, text)
    return text


def baidu_sql(name):
    """A shipped Baidu query of the legacy board over the whole table: its
    parameters as the engine binds them for an unbounded range, one query
    instead of one per chunk (the floor)."""
    with open(os.path.join(ROOT, 'sql', name)) as f:
        text = f.read()
    for k, v in ((':site_url', "'http://doska.example'"), (':after_id', '0'), (':until_id', '4294967295'),
                 (':limit', '1000000000'), (':max_per_parent', '20')):
        text = text.replace(k, v)
    return text


def baidu_floor(board, out_dir):
    """The mariadb client running the documents query and the comments
    query, each over every document, into files: (seconds, documents,
    comments)."""
    counts = []
    t0 = time.perf_counter()
    for name in ('legacy-baidu.sql', 'legacy-baidu-comments.sql'):
        out = os.path.join(out_dir, name + '.tsv')
        with open(out, 'wb') as f:
            run(board.client() + ['--quick', '-N', '-B', '-e', baidu_sql(name)], stdout=f)
        counts.append(int(run(['wc', '-l', out], capture_output=True).stdout.split()[0]))
    return time.perf_counter() - t0, counts[0], counts[1]


def baidu_config(feed, gzip_files):
    """The deployed legacy config, with the Baidu set's .gz twins on or off
    (written beside it, so that its relative paths hold)."""
    conf = os.path.join(feed.site, 'conf', 'legacy-board.ini')
    with open(conf) as f:
        text = f.read()
    out = os.path.join(feed.site, 'conf', 'bench-baidu-%s.ini' % ('gzip' if gzip_files else 'plain'))
    with open(out, 'w') as f:
        f.write(re.sub(r'^(gzip_files\s*=\s*)1', r'\g<1>%d' % gzip_files, text, flags=re.M))
    return out


def baidu_write(conf, board, out):
    """feed.fcgi write /baidu.xml OUT with a config."""
    t, stdout, peak, cpu = timed_rss([BINARY, '--config', conf, 'write', '/baidu.xml', out], env=board.feed_env())
    m = re.search(r': (\d+) files, (\d+) URLs, (\d+) bytes, (\d+) rows left out$', stdout, re.M)
    if not m:
        raise SystemExit('bench: feed.fcgi write /baidu.xml printed no summary: %s' % stdout[-1000:])
    return t, peak, cpu, int(m.group(2)), int(m.group(4))


def check_baidu_set(d, expected_docs, expected_comments, who):
    """Every part listed by the index parses, is under 10 MB and at most
    50,000 documents; together they hold every active document once, and
    the comments the database holds for them (at most 20 each)."""
    with open(os.path.join(d, 'baidu.xml'), 'rb') as f:
        index = f.read()
    parse_xml(index, who, 'baidu.xml')
    names = re.findall(rb'<loc>[^<]*/([^/<]+)</loc>', index)
    docs = comments = size = 0
    for n in names:
        with open(os.path.join(d, n.decode()), 'rb') as f:
            data = f.read()
        parse_xml(data, who, n.decode())
        urls = data.count(b'<loc>')  # one a document (<url> also stands inside a document)
        if len(data) >= BAIDU_MAX_BYTES or urls > 50000:
            raise SystemExit('bench: %s wrote %s of %d bytes and %d documents' % (who, n.decode(), len(data), urls))
        docs += urls
        comments += data.count(b'<comment>')
        size += len(data)
    if docs != expected_docs or comments != expected_comments:
        raise SystemExit('bench: %s wrote %d documents and %d comments, the database has %d and %d' % (
            who, docs, comments, expected_docs, expected_comments))
    return {'parts': len(names), 'bytes': size}


def baidu(feed, results):
    """6. Baidu's document sitemap of the legacy board (FILES documents with
    their comments): feed.fcgi write /baidu.xml against the mariadb client
    running the same documents and comments queries; write's peak memory on
    this board and on one of 100 documents."""
    docs_board = Board(1000, 100, FILES)
    tiny = Board(1000, 100, max(FILES // 10, 101))
    confs = {'plain': baidu_config(feed, 0), 'gzip': baidu_config(feed, 1)}
    work = os.path.join(BASE, 'baidu')
    os.makedirs(work, exist_ok=True)
    try:
        docs_board.start()
        tiny.start()
        active = int(docs_board.one("SELECT COUNT(*) FROM files WHERE status = 'active'"))
        shown = int(docs_board.one(
            "SELECT COUNT(*) FROM (SELECT ROW_NUMBER() OVER (PARTITION BY c.file_id ORDER BY c.created DESC) AS n "
            "FROM file_comment c JOIN files f ON f.file_id = c.file_id AND f.status = 'active') x WHERE n <= 20"))
        times, peaks, cpus = {'plain': [], 'gzip': []}, [], {'plain': [], 'gzip': []}
        floors = []
        info = None
        for r in range(ROUNDS):
            for mode in ('plain', 'gzip'):
                with tempfile.TemporaryDirectory(dir=BASE) as d:
                    out = os.path.join(d, 'set')
                    t, peak, cpu, urls, left = baidu_write(confs[mode], docs_board, out)
                    if left:
                        raise SystemExit('bench: feed.fcgi write /baidu.xml left %d documents out' % left)
                    info = check_baidu_set(out, active, shown, 'feed.fcgi')
                times[mode].append(t)
                peaks.append(peak)
                cpus[mode].append(cpu)
                log('baidu round %d: feed.fcgi %s %.2f s (CPU %.2f s), %d parts, peak %.1f MiB' % (
                    r + 1, mode, t, cpu, info['parts'], peak / 1024))
            with tempfile.TemporaryDirectory(dir=BASE) as d:
                t, n_docs, n_comments = baidu_floor(docs_board, d)
            if n_docs != active:
                raise SystemExit('bench: the Baidu floor read %d documents, expected %d' % (n_docs, active))
            floors.append(t)
            log('baidu round %d: floor %.2f s (%d documents, %d comments)' % (r + 1, t, n_docs, n_comments))
        tiny_peak = 0
        for mode in ('plain', 'gzip'):
            with tempfile.TemporaryDirectory(dir=BASE) as d:
                tiny_peak = max(tiny_peak, baidu_write(confs[mode], tiny, os.path.join(d, 'set'))[1])
        log('baidu: write on the %d-document board: peak %.1f MiB' % (tiny.files, tiny_peak / 1024))
    finally:
        tiny.stop()
        docs_board.stop()
    feed_s, floor_s = median(times['plain']), median(floors)
    results.update({
        'baidu_documents': active, 'baidu_comments': shown, 'baidu_files': FILES, 'baidu_parts': info['parts'],
        'baidu_bytes': info['bytes'], 'baidu_feed_s': feed_s, 'baidu_feed_cpu_s': median(cpus['plain']),
        'baidu_feed_gzip_s': median(times['gzip']), 'baidu_feed_gzip_cpu_s': median(cpus['gzip']),
        'baidu_floor_s': floor_s, 'ratio_baidu_feed_vs_floor': feed_s / floor_s,
        'baidu_peak_rss_kib_full': max(peaks), 'baidu_peak_rss_kib_tiny': tiny_peak,
        'baidu_tiny_files': tiny.files, 'ratio_baidu_peak_rss_full_vs_tiny': max(peaks) / tiny_peak,
    })


def report_baidu(r):
    ratio = r['ratio_baidu_feed_vs_floor']
    growth = r['ratio_baidu_peak_rss_full_vs_tiny']
    return [
        '## 6. Baidu document sitemap (%d active documents of %d, %d comments shown: an index and %d parts under 10 MB)' % (
            r['baidu_documents'], r['baidu_files'], r['baidu_comments'], r['baidu_parts']), '',
        '| contender | time | documents/s | written |', '|---|---:|---:|---|',
        '| feed.fcgi write /baidu.xml, gzip_files = 0 | %.2f s (CPU %.2f s) | %.0f | %.1f MB .xml |' % (
            r['baidu_feed_s'], r['baidu_feed_cpu_s'], r['baidu_documents'] / r['baidu_feed_s'], r['baidu_bytes'] / 1e6),
        '| feed.fcgi write /baidu.xml, gzip_files = 1 (the shipped config) | %.2f s (CPU %.2f s) | %.0f | .xml and .gz twins |' % (
            r['baidu_feed_gzip_s'], r['baidu_feed_gzip_cpu_s'], r['baidu_documents'] / r['baidu_feed_gzip_s']),
        '| floor: mariadb --quick, the documents query and the comments query, each once over all | %.2f s | %.0f | two TSV files |' % (
            r['baidu_floor_s'], r['baidu_documents'] / r['baidu_floor_s']), '',
        '- feed.fcgi time (gzip_files = 0) / floor time: **%.2f×** (target at most 1.5×: %s)' % (ratio, ok(ratio <= 1.5)),
        '- peak memory: %.1f MiB on %d documents, %.1f MiB on %d: under 32 MiB: %s; full / small **%.2f×** (flat within 10%%: %s)' % (
            r['baidu_peak_rss_kib_full'] / 1024, r['baidu_files'], r['baidu_peak_rss_kib_tiny'] / 1024,
            r.get('baidu_tiny_files', 100), ok(r['baidu_peak_rss_kib_full'] < 32 * 1024), growth,
            ok(abs(growth - 1) <= 0.10)), '',
    ]
def msn_change(board, k, when):
    """Round k's board activity: 1% of the ads edited, another 1% raised."""
    stamp = when.astimezone(zoneinfo.ZoneInfo('Europe/Kiev')).strftime('%Y-%m-%d %H:%M:%S')
    board.sql("UPDATE ads SET text = IF(RIGHT(text, %d) = '%s', LEFT(text, CHAR_LENGTH(text) - %d), "
              "CONCAT(text, '%s')), updated = '%s' WHERE ad_id %% 100 = %d;"
              "UPDATE ads SET updated = '%s' WHERE ad_id %% 100 = %d" % (
                  len(MSN_MARK), MSN_MARK, len(MSN_MARK), MSN_MARK, stamp, k % 100, stamp, (k + 50) % 100),
              root=True)
    # The edited ads the feed shows (active, within their period): each must
    # come first in the fetch, modified at the fetch's moment.
    return int(board.one("SELECT COUNT(*) FROM ads WHERE ad_id %% 100 = %d AND status = 'active' AND "
                         "added + INTERVAL IF(days > 0, days, 30) DAY > '%s'" % (k % 100, stamp)))


def msn_fetch(board, conf, when, out):
    """One fetch of /msn by the command line at `when`: the state is older
    than settle_seconds, so it syncs first. (seconds, peak KiB, body)."""
    t, _, peak, _ = timed_rss([BINARY, '--config', conf, '--now', when.strftime('%Y-%m-%dT%H:%M:%SZ'),
                               'render', '/msn', '-o', out], env=board.feed_env())
    with open(out, 'rb') as f:
        return t, peak, f.read()


def msn_check(body, when, expected, cap, who):
    """The fetch lists the round's edits first, dated at its moment."""
    stamp = when.strftime('%Y-%m-%dT%H:%M:%SZ')
    items = body.count(b'<item>')
    fresh = body.count(('<dcterms:modified>%s</dcterms:modified>' % stamp).encode())
    # Take-downs of listed ads that ran out meanwhile carry that moment too.
    if fresh < min(expected, cap) or fresh > cap or items < fresh:
        raise SystemExit('bench: %s: %d items dated %s, expected %d (of %d items)' % (
            who, fresh, stamp, min(expected, cap), items))
    parse_xml(body, who, 'msn.xml')
    return items


def msn(big, small, feed, results):
    """Group 6: a fetch of /msn with its change detection, 1% of the ads
    changed since the last fetch, against the mariadb client reading every
    ad's id and content columns; memory on the full and the small board."""
    conf = os.path.join(feed.site, 'conf', 'legacy-board.ini')
    cap = int(re.search(r'^\[feed msn\].*?^max_items\s*=\s*(\d+)', open(conf).read(), re.M | re.S).group(1))
    work = os.path.join(BASE, 'msn')
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, 'msn.xml')
    t_feed, peaks, floors = [], {}, {'cp1251': [], 'utf8mb4': []}
    for board, rounds in ((big, ROUNDS), (small, 1)):
        # From an empty state: the first fetch creates every item (untimed).
        board.sql("DELETE FROM feed_item_state WHERE feed = 'msn'; DELETE FROM feed_item_sync WHERE feed = 'msn';"
                  "DELETE FROM feed_state_seen WHERE feed = 'msn'", root=True)
        log('msn: first fetch on %d ads (every item created)' % board.ads)
        msn_fetch(board, conf, MSN_NOW, out)
        for k in range(1, rounds + 1):
            when = MSN_NOW + datetime.timedelta(minutes=10 * k)
            expected = msn_change(board, k, when)
            t, peak, body = msn_fetch(board, conf, when, out)
            items = msn_check(body, when, expected, cap, 'feed.fcgi /msn')
            peaks[board.ads] = max(peaks.get(board.ads, 0), peak)
            if board is not big:
                continue
            t_feed.append(t)
            results['msn_items'], results['msn_edited_shown'] = items, expected
            for cs in floors:
                ft, _ = timed(lambda: run(board.client(cs) + ['--quick', '-N', '-B', '-e', MSN_FLOOR_QUERY],
                                          stdout=subprocess.DEVNULL))
                floors[cs].append(ft)
            log('msn round %d: feed.fcgi %.2f s (%d items, %d edits shown), floor %.2f s cp1251, %.2f s utf8mb4' % (
                k, t, items, expected, floors['cp1251'][-1], floors['utf8mb4'][-1]))
    results['msn_ads'] = big.ads
    results['msn_small_ads'] = small.ads
    results['msn_max_items'] = cap
    results['msn_fetch_s'] = median(t_feed)
    results['msn_floor_cp1251_s'] = median(floors['cp1251'])
    results['msn_floor_utf8mb4_s'] = median(floors['utf8mb4'])
    results['ratio_msn_fetch_vs_floor'] = results['msn_fetch_s'] / min(results['msn_floor_cp1251_s'],
                                                                       results['msn_floor_utf8mb4_s'])
    results['msn_peak_rss_kib_full'] = peaks[big.ads]
    results['msn_peak_rss_kib_small'] = peaks[small.ads]
    results['ratio_msn_peak_rss_full_vs_small'] = peaks[big.ads] / peaks[small.ads]


def chart(rows, title, path):
    """A bar chart (gnuplot) of (name, value) rows."""
    data = path + '.dat'
    with open(data, 'w') as f:
        for i, (name, v) in enumerate(rows):
            f.write('%d "%s" %.0f\n' % (i, name, v))
    script = """
set terminal pngcairo size 800,480
set output '%s'
set title "%s"
set style fill solid 0.8
set boxwidth 0.6
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set grid ytics
unset key
plot '%s' using 1:3:xtic(2) with boxes lc rgb "#4472c4", '' using 1:3:(sprintf("%%.0f", $3)) with labels offset 0,1
""" % (path, title, data)
    try:
        run(['gnuplot'], input=script)
    except (OSError, subprocess.CalledProcessError) as e:
        log('no chart: %s' % e)
    finally:
        if os.path.exists(data):
            os.remove(data)


def report(results):
    r = results
    groups = measured_groups(r)
    lines = [
        '# Benchmark %s' % r['when'], '',
        'Machine: %s, %d cores. Board: %d ads, %d vacancies. Medians of %d rounds; contenders run in turn.' % (
            r['machine'], r['cores'], r['ads'], r['jobs'], r['rounds']), '']
    if len(set(groups.values())) > 1:
        lines += ['Measured: %s.' % '; '.join('%s %s' % (g, w) for g, w in groups.items()), '']
    if 'yads' in groups:
        lines += report_yads_full(r)
    if 'robots' in groups:
        lines += report_robots(r)
    if 'yads' in groups:
        lines += report_yads_incr(r)
    if 'jooble' in groups:
        lines += report_jooble(r)
    if 'memory' in groups:
        lines += report_memory(r)
    if 'sitemaps' in groups:
        lines += report_sitemaps(r)
    if 'baidu' in groups:
        lines += report_baidu(r)
    if 'msn' in groups:
        lines += report_msn(r)
    for key, alt in (('chart', 'throughput'), ('sitemap_chart', 'sitemaps')):
        if r.get(key):
            lines += ['![%s](%s)' % (alt, os.path.basename(r[key])), '']
    return '\n'.join(lines)


def ok(b):
    return 'met' if b else '**not met**'


def full_yads_table(r, key):
    """The table of a full Yads dump's figures under `key` (yads_full or
    yads_full_small) and its ratio lines."""
    n = r[key + '_ads']
    t_full = r['ratio_%s_feed_time_vs_floor' % key]
    own = r.get(key + '_own_query_s')
    own_ratio = r.get('ratio_%s_feed_time_vs_own_query' % key)
    return [
        '| contender | time | ads/s |', '|---|---:|---:|',
        '| feed.fcgi | %.2f s | %.0f |' % (r[key + '_feed_s'], r[key + '_feed_ads_per_s']),
        '| yads.php | %.2f s | %.0f |' % (r[key + '_php_s'], r[key + '_php_ads_per_s']),
        '| floor: mariadb --quick, cp1251 | %.2f s | %.0f |' % (r[key + '_floor_cp1251_s'], n / r[key + '_floor_cp1251_s']),
        '| floor: mariadb --quick, utf8mb4 | %.2f s | %.0f |' % (r[key + '_floor_utf8mb4_s'], n / r[key + '_floor_utf8mb4_s']),
    ] + ([
        '| the mapping\'s own query (`sql/legacy-yads-full.sql`, unpaged), mariadb --quick, cp1251 | %.2f s | %.0f |' % (
            own, n / own),
    ] if own else []) + [
        '',
        '- feed.fcgi time / floor time: **%.2f×** (target at most 1.0×: %s)' % (t_full, ok(t_full <= 1.0)),
        '- yads.php time / feed.fcgi time: **%.2f×**' % r['ratio_%s_php_time_vs_feed' % key],
    ] + ([
        '- feed.fcgi time / its own query\'s time (the engine\'s cost over the mapping\'s): **%.2f×**' % own_ratio,
    ] if own_ratio else []) + ['']


def report_yads_full(r):
    lines = ['## 1. Full Yads dump (%d active ads, every page to the last `<continue>`, one curl per page)' % (
        r['yads_full_ads']), ''] + full_yads_table(r, 'yads_full')
    if r.get('yads_full_small_ads'):
        small = r['ratio_yads_full_small_feed_time_vs_floor']
        big = r['ratio_yads_full_feed_time_vs_floor']
        lines += ['### The same on a second board (%d active ads)' % r['yads_full_small_ads'], '']
        lines += full_yads_table(r, 'yads_full_small')
        lines += ['- at both sizes, feed.fcgi time / floor time: **%.2f×** at %d ads, **%.2f×** at %d ads '
                  '(target at most 1.0× at both: %s)' % (big, r['yads_full_ads'], small, r['yads_full_small_ads'],
                                                       ok(big <= 1.0 and small <= 1.0)), '']
    return lines


def report_yads_incr(r):
    t_incr = r['ratio_yads_incr_feed_vs_floor']
    return [
        '## 2. Incremental Yads (`date` %s, %d ads; %d connections, %d s)' % (
            r['yads_incr_date'], r['yads_incr_ads'], CONCURRENCY, WRK_SECONDS), '',
        '| contender | requests/s | p99 latency |', '|---|---:|---:|',
        '| feed.fcgi | %.0f | %.1f ms |' % (r['yads_incr_feed_rps'], r['yads_incr_feed_p99_ms']),
        '| yads.php | %.0f | %.1f ms |' % (r['yads_incr_php_rps'], r['yads_incr_php_p99_ms']),
        '| floor: mariadb-slap, yads.php\'s page query | %.0f | |' % r['yads_incr_floor_qps'], '',
        '- feed.fcgi / floor: **%.2f×** (target at least 1.0×: %s)' % (t_incr, ok(t_incr >= 1.0)),
        '- feed.fcgi / yads.php: **%.2f×**' % r['ratio_yads_incr_feed_vs_php'], '',
    ]


def report_robots(r):
    n, k = r['yads_robots4_ads'], r.get('yads_robots4_robots', 4)
    ratio = r['ratio_yads_robots4_feed_rate_vs_floor']
    return [
        '## 1b. %d robots at once: the full Yads dump (%d active ads each, as in 1) by %d robots together' % (k, n, k), '',
        '| contender | wall time, start to last finish | ads/s, all %d together |' % k, '|---|---:|---:|',
        '| feed.fcgi, %d robots (one curl per page each; the first done at %.2f s) | %.2f s | %.0f |' % (
            k, r['yads_robots4_feed_fastest_s'], r['yads_robots4_feed_s'], r['yads_robots4_feed_ads_per_s']),
        '| floor: %d mariadb --quick clients, yads.php\'s query, cp1251 | %.2f s | %.0f |' % (
            k, r['yads_robots4_floor_cp1251_s'], k * n / r['yads_robots4_floor_cp1251_s']),
        '| floor: %d mariadb --quick clients, yads.php\'s query, utf8mb4 | %.2f s | %.0f |' % (
            k, r['yads_robots4_floor_utf8mb4_s'], k * n / r['yads_robots4_floor_utf8mb4_s']), '',
        '- feed.fcgi ads/s / floor ads/s (the better charset): **%.2f×** (target at least 0.9×: %s)' % (
            ratio, ok(ratio >= 0.9)), '',
    ]


def report_jooble(r):
    return [
        '## 3. Full Jooble dump', '',
        '| contender | jobs | time | jobs/s |', '|---|---:|---:|---:|',
        '| feed.fcgi, UTF-8 | %d | %.2f s | %.0f |' % (r['jooble_full_feed_jobs'], r['jooble_full_feed_utf8_s'], r['jooble_full_feed_utf8_jobs_per_s']),
        '| feed.fcgi, windows-1251 | %d | %.2f s | %.0f |' % (r['jooble_full_feed_jobs'], r['jooble_full_feed_cp1251_s'], r['jooble_full_feed_cp1251_jobs_per_s']),
        ('| jooble.php (UTF-8, no résumés) | %d | %.2f s | %.0f |' % (r['jooble_full_php_jobs'], r['jooble_full_php_s'], r['jooble_full_php_jobs_per_s'])
         if r['jooble_full_php_s'] else '| jooble.php (UTF-8, no résumés) | %d | failed: %s | |' % (r['jooble_full_php_jobs'], r['jooble_full_php_error'])),
        '| floor: mariadb --quick, jooble.php\'s query | %d | %.2f s | %.0f |' % (r['jooble_full_php_jobs'], r['jooble_full_floor_s'], r['jooble_full_floor_jobs_per_s']),
    ] + ([
        '| the mapping\'s own query (`sql/legacy-jooble-full.sql`, a full visit, unpaged, rows incl. résumés and no contacts), '
        'mariadb --quick, utf8mb4 | %d | %.2f s | %.0f |' % (
            r['jooble_full_own_rows'], r['jooble_full_own_query_s'], r['jooble_full_own_rows'] / r['jooble_full_own_query_s']),
        '| the mapping\'s state query (`sql/legacy-jooble-state.sql`) | | %.3f s | |' % r['jooble_full_own_state_s'],
    ] if r.get('jooble_full_own_s') else []) + [
        '',
        '- feed.fcgi (UTF-8) jobs/s / floor jobs/s: **%.2f×** (target at least 0.9×: %s); / jooble.php: %s' % (
            r['ratio_jooble_full_feed_utf8_rate_vs_floor'], ok(r['ratio_jooble_full_feed_utf8_rate_vs_floor'] >= 0.9),
            '**%.2f×**' % r['ratio_jooble_full_feed_utf8_rate_vs_php'] if r.get('ratio_jooble_full_feed_utf8_rate_vs_php')
            else 'none (jooble.php gave no feed)'),
    ] + ([
        '- feed.fcgi (UTF-8) time / its own queries\' time (query + state query; the engine\'s cost over the '
        'mapping\'s): **%.2f×**' % r['ratio_jooble_full_feed_utf8_time_vs_own'],
    ] if r.get('ratio_jooble_full_feed_utf8_time_vs_own') else []) + ['']


def report_memory(r):
    growth = r['ratio_feed_peak_rss_full_vs_small']
    return [
        '## 4. Memory: feed.fcgi peak resident size (VmHWM) over a full Yads dump', '',
        '| board | peak |', '|---|---:|',
        '| %d ads | %.1f MiB |' % (r['feed_peak_rss_small_ads'], r['feed_peak_rss_kib_small'] / 1024),
        '| %d ads | %.1f MiB |' % (r['feed_peak_rss_full_ads'], r['feed_peak_rss_kib_full'] / 1024), '',
        '- under 32 MiB: %s; full / small: **%.2f×** (target within 10%%: %s)' % (
            ok(r['feed_peak_rss_kib_full'] < 32 * 1024), growth, ok(abs(growth - 1) <= 0.10)), '',
    ]


def report_sitemaps(r):
    n = r['sitemap_ads']
    mib = lambda kib: kib / 1024
    def row(name, key, written):
        cpu = r.get(key[:-len('_s')] + '_cpu_s')
        return '| %s | %.2f s | %s | %.0f | %s |' % (name, r[key], '%.2f s' % cpu if cpu is not None else '',
                                                   n / r[key], written)
    growth = r['ratio_sitemap_write_peak_rss_full_vs_small']
    t_floor = r['ratio_sitemap_feed_plain_time_vs_floor']
    js_plain, js_gzip = r['ratio_sitemap_js_plain_time_vs_feed'], r['ratio_sitemap_js_gzip_time_vs_feed']
    live = r['ratio_sitemap_live_feed_vs_floor']
    return [
        '## 5. Sitemaps: the ads as a sitemap set (%d active ads: an index and %d part%s of at most 50,000 URLs)' % (
            n, r['sitemap_parts'], '' if r['sitemap_parts'] == 1 else 's'), '',
        '| contender | time | CPU (user + sys) | URLs/s | written |', '|---|---:|---:|---:|---|',
        row('feed.fcgi write, gzip_files = 0', 'sitemap_feed_plain_s', '%.1f MB .xml' % (r['sitemap_feed_plain_bytes'] / 1e6)),
        row('feed.fcgi write, gzip_files = 1', 'sitemap_feed_gzip_s', '%.1f MB .xml + %.1f MB .gz twins' % (
            (r['sitemap_feed_gzip_bytes'] - r['sitemap_feed_gzip_gz_bytes']) / 1e6, r['sitemap_feed_gzip_gz_bytes'] / 1e6)),
        row('sitemap.js %s (Node %s), plain (first round only)' % (r['sitemap_js_version'], r['sitemap_node_version']),
            'sitemap_js_plain_s',
            '%.1f MB .xml' % (r['sitemap_js_plain_bytes'] / 1e6)),
        row('sitemap.js, gzip (first round only)', 'sitemap_js_gzip_s', '%.1f MB .xml.gz only' % (r['sitemap_js_gzip_bytes'] / 1e6)),
        row('floor: mariadb --quick, cp1251', 'sitemap_floor_cp1251_s', 'URL and date, a TSV file'),
        row('floor: mariadb --quick, utf8mb4', 'sitemap_floor_utf8mb4_s', 'URL and date, a TSV file'), '',
        '- feed.fcgi plain time / floor time: **%.2f×** (target at most 1.3×: %s)' % (t_floor, ok(t_floor <= 1.3)),
        '- sitemap.js plain time / feed.fcgi plain time: **%.1f×** (target at least 10×: %s)' % (js_plain, ok(js_plain >= 10)),
        '- sitemap.js gzip time / feed.fcgi gzip time: **%.1f×** (target at least 10×: %s)' % (js_gzip, ok(js_gzip >= 10)),
        '',
        '### Peak memory of `feed.fcgi write` (GNU time, maximum resident set size)', '',
        '| board | gzip_files = 0 | gzip_files = 1 |', '|---|---:|---:|',
        '| %d ads | %.1f MiB | %.1f MiB |' % (r['sitemap_write_peak_rss_small_ads'],
                                             mib(r['sitemap_write_peak_rss_kib_small_plain']),
                                             mib(r['sitemap_write_peak_rss_kib_small_gzip'])),
        '| %d ads | %.1f MiB | %.1f MiB |' % (r['sitemap_write_peak_rss_full_ads'],
                                             mib(r['sitemap_write_peak_rss_kib_full_plain']),
                                             mib(r['sitemap_write_peak_rss_kib_full_gzip'])), '',
        '- under 32 MiB: %s; full / small (the larger of the two modes): **%.2f×** (target within 10%%: %s)' % (
            ok(r['sitemap_write_peak_rss_kib_full'] < 32 * 1024), growth, ok(abs(growth - 1) <= 0.10)),
        '- sitemap.js for comparison: %.1f MiB plain, %.1f MiB gzip' % (
            mib(r['sitemap_js_peak_rss_kib_plain']), mib(r['sitemap_js_peak_rss_kib_gzip'])), '',
        '### One part live: `GET /%s` through Apache mod_fcgid (%d URLs, ad_id %d to %d)' % (
            r['sitemap_live_part'], r['sitemap_live_part_urls'], r['sitemap_live_part_first_id'],
            r['sitemap_live_part_last_id']), '',
        '| contender | median latency (%d fetches) |' % r['sitemap_live_samples'], '|---|---:|',
        '| feed.fcgi, curl | %.1f ms |' % r['sitemap_live_feed_ms'],
        '| floor: mariadb --quick, the same id range, cp1251 | %.1f ms |' % r['sitemap_live_floor_cp1251_ms'],
        '| floor: mariadb --quick, the same id range, utf8mb4 | %.1f ms |' % r['sitemap_live_floor_utf8mb4_ms'], '',
        '- feed.fcgi / floor (time): **%.2f×**' % live, '',
    ]


def report_msn(r):
    ratio = r['ratio_msn_fetch_vs_floor']
    growth = r['ratio_msn_peak_rss_full_vs_small']
    return [
        '## 6. MSN: a fetch of `/msn` with its change detection (%d ads, 1%% edited and 1%% raised since the last '
        'fetch; %d items listed, max_items %d)' % (r['msn_ads'], r['msn_items'], r['msn_max_items']), '',
        '| contender | time |', '|---|---:|',
        '| feed.fcgi render /msn (sync: every ad read, rendered and fingerprinted, merged with the state) | %.2f s |' % (
            r['msn_fetch_s']),
        '| floor: mariadb --quick, every ad\'s id and content columns, cp1251 | %.2f s |' % r['msn_floor_cp1251_s'],
        '| floor: the same, utf8mb4 | %.2f s |' % r['msn_floor_utf8mb4_s'], '',
        '- feed.fcgi / the better floor: **%.2f×** (target at most 2×: %s)' % (ratio, ok(ratio <= 2)),
        '- peak memory: %.1f MiB on %d ads, %.1f MiB on %d ads: **%.2f×** (flat: %s)' % (
            r['msn_peak_rss_kib_full'] / 1024, r['msn_ads'], r['msn_peak_rss_kib_small'] / 1024, r['msn_small_ads'],
            growth, ok(growth <= 1.10)), '',
    ]


def measured_groups(r):
    """Which groups the figures hold, and when each was measured (results
    of runs before groups were recorded: by their keys)."""
    if 'groups' in r:
        return r['groups']
    keys = {'yads': 'yads_full_feed_s', 'robots': 'yads_robots4_feed_s', 'jooble': 'jooble_full_feed_utf8_s', 'memory': 'feed_peak_rss_kib_full',
            'sitemaps': 'sitemap_ads', 'baidu': 'baidu_documents', 'msn': 'msn_ads'}
    return {g: r['when'] for g, k in keys.items() if k in r}


def parse_args(argv):
    usage = 'usage: bench.py [--only GROUP[,GROUP]] | --report   (GROUP: %s)' % ', '.join(ONLY_GROUPS)
    only, report_only, args = os.environ.get('BENCH_ONLY', ''), False, list(argv)
    while args:
        a = args.pop(0)
        if a == '--report':
            report_only = True
        elif a == '--only' and args:
            only = args.pop(0)
        elif a.startswith('--only='):
            only = a.split('=', 1)[1]
        else:
            raise SystemExit(usage)
    groups = [g for g in only.replace(',', ' ').split() if g]
    if any(g not in ONLY_GROUPS for g in groups):
        raise SystemExit(usage)
    if 'yads' in groups:
        # The memory figures (4) come from the Yads dump's processes: the
        # same run measures them.
        groups.append('memory')
    return report_only, groups or list(GROUPS)


def earlier_results(results):
    """The figures of the last published run at the same board size, for the
    groups this run does not measure (--only)."""
    try:
        with open(os.path.join(RESULTS, 'latest.json')) as f:
            prev = json.load(f)
    except (OSError, ValueError):
        return {}
    if (prev.get('ads'), prev.get('jobs')) != (results['ads'], results['jobs']):
        log('the figures in %s are for another board size: not kept' % RESULTS)
        return {}
    prev['groups'] = {g: w for g, w in measured_groups(prev).items() if g not in results['groups']}
    for k in ('chart', 'sitemap_chart'):
        prev.pop(k, None)
    return prev


def main():
    report_only, groups = parse_args(sys.argv[1:])
    if report_only:
        with open(os.path.join(BASE, 'last-results.json')) as f:
            return publish(json.load(f))
    if not os.path.exists(BINARY):
        raise SystemExit('bench: build first (bench/run.sh builds %s)' % BINARY)
    os.makedirs(BASE, exist_ok=True)
    os.chmod(BASE, 0o755)
    os.makedirs(RESULTS, exist_ok=True)
    big = Board(ADS, JOBS)
    small = Board(10000, 1000)
    feed = FeedServer()
    feed.deploy()
    now = datetime.datetime.now().strftime('%Y-%m-%d %H:%M')
    results = {
        'when': now, 'groups': {g: now for g in groups},
        'machine': '%s %s' % (platform.node(), platform.machine()),
        'cores': os.cpu_count(), 'ads': ADS, 'jobs': JOBS, 'rounds': ROUNDS,
    }
    if groups != list(GROUPS):
        # The other groups' figures stay those of the last run at this size.
        log('measuring only: %s' % ', '.join(groups))
        earlier = earlier_results(results)
        if earlier:
            groups_when = dict(earlier['groups'], **results['groups'])
            results = dict(earlier, **results)
            results['groups'] = groups_when
    # Baidu's group runs on boards of its own, after the others.
    others = [g for g in groups if g != 'baidu']
    try:
        if others:
            big.start()
            small.start()
            feed.start(big)
        if 'yads' in groups:
            full_yads(big, feed, results)
            big_peak = feed.peak_rss_kib()
            incremental_yads(big, feed, results)
            if ADS_SMALL:
                full_yads_small([big, small], feed, results)
            else:
                # No second size: no figures of an earlier run's either.
                for k in [k for k in results if k.startswith(('yads_full_small_', 'ratio_yads_full_small_'))]:
                    del results[k]
        if 'robots' in groups:
            robots(big, feed, results)
        if 'jooble' in groups:
            full_jooble(big, feed, results)
        if 'sitemaps' in groups:
            sitemaps(big, small, feed, results)
        if 'msn' in groups:
            msn(big, small, feed, results)
        if 'memory' in groups:
            memory(small, big, feed, results, big_peak)
        if others:
            feed.stop()
            small.stop()
            big.stop()
            others = []
        if 'baidu' in groups:
            baidu(feed, results)
    finally:
        if others:
            feed.stop()
            small.stop()
            big.stop()
    # The figures first, so that a report can be made again from them
    # (bench.py --report) without measuring again.
    with open(os.path.join(BASE, 'last-results.json'), 'w') as f:
        json.dump(results, f)
    publish(results)


def publish(results):
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M')
    groups = measured_groups(results)
    charts = []
    if 'yads' in groups:
        charts.append(('chart', 'throughput', 'Full Yads dump, %d ads: throughput (ads/s, higher is better)' % (
            results['yads_full_ads']), [
            ('feed.fcgi', results['yads_full_feed_ads_per_s']), ('yads.php', results['yads_full_php_ads_per_s']),
            ('floor (mariadb)', results['yads_full_floor_ads_per_s'])]))
    if 'sitemaps' in groups:
        charts.append(('sitemap_chart', 'sitemaps', 'Sitemap set of %d ads written: URLs/s (higher is better)' % (
            results['sitemap_ads']), [
            ('feed.fcgi', results['sitemap_feed_plain_urls_per_s']), ('feed.fcgi +gz', results['sitemap_feed_gzip_urls_per_s']),
            ('sitemap.js', results['sitemap_js_plain_urls_per_s']), ('sitemap.js gz', results['sitemap_js_gzip_urls_per_s']),
            ('floor (mariadb)', results['sitemap_floor_urls_per_s'])]))
    for key, name, title, rows in charts:
        results[key] = os.path.join(RESULTS, '%s-%s.png' % (name, stamp))
        chart(rows, title, results[key])
        if os.path.exists(results[key]):
            shutil.copy(results[key], os.path.join(RESULTS, '%s-latest.png' % name))
        else:
            results[key] = None
    text = report(results)
    for name in ('bench-%s.md' % stamp, 'latest.md'):
        with open(os.path.join(RESULTS, name), 'w') as f:
            f.write(text)
    with open(os.path.join(RESULTS, 'latest.json'), 'w') as f:
        json.dump(results, f, indent=2, sort_keys=True)
    print(text)


if __name__ == '__main__':
    main()
