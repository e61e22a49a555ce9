#!/usr/bin/env python3
"""make bench: feed.fcgi measured against the legacy PHP scripts it replaces
and against the database's own speed, on the legacy board of ../shared/board,
in the same run. Run through bench/run.sh (which builds the binary).

Every contender's output is checked for completeness (its item count equals
the database's) before its time is used: a fast wrong answer is no result.
Results: a Markdown table and latest.json in bench/results/, and a PNG chart.
"""

import datetime
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, '..', 'shared', 'board'))
ADS = int(os.environ.get('BENCH_ADS', 1000000))
JOBS = int(os.environ.get('BENCH_JOBS', 200000))
ROUNDS = int(os.environ.get('BENCH_ROUNDS', 3))
BASE = os.environ.get('BENCH_DIR', '/tmp/feed-bench')
WRK_SECONDS = int(os.environ.get('BENCH_WRK_SECONDS', 20))
CONCURRENCY = 16
RESULTS = os.path.join(ROOT, 'bench', 'results')
BINARY = os.path.join(ROOT, 'build', 'bench', 'feed.fcgi')

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

    def __init__(self, ads, jobs):
        self.ads, self.jobs = ads, jobs
        self.dir = os.path.join(BASE, 'board-%d-%d' % (ads, jobs))
        self.sock = os.path.join(self.dir, 'dbrun', 'mysqld.sock')
        self.port = free_port()

    def start(self):
        log('legacy board with %d ads, %d vacancies in %s' % (self.ads, self.jobs, self.dir))
        run([os.path.join(SHARED, 'serve.sh'), 'start', '-d', self.dir, '-p', str(self.port),
             '--ads', str(self.ads), '--jobs', str(self.jobs), '--files', '100'],
            stdout=subprocess.DEVNULL)
        # The project's own table, and read access to it for the board user.
        with open(os.path.join(ROOT, 'sql', 'state.sql')) as f:
            self.sql(f.read(), root=True)
        self.sql("GRANT SELECT ON board.feed_robot_visit TO 'board'@'localhost'", root=True)

    def stop(self):
        run([os.path.join(SHARED, 'serve.sh'), 'stop', '-d', self.dir], stdout=subprocess.DEVNULL)

    def client(self, charset='utf8mb4', root=False):
        cmd = ['mariadb', '--no-defaults', '--socket=' + self.sock, '--default-character-set=' + charset]
        if not root:
            cmd += ['-uboard', '-pboard']
        return cmd + ['board']

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
        jooble = text[text.index('[feed jooble]'):]
        jooble = jooble.replace('[feed jooble]', '[feed jooble-1251]').replace('path           = /jooble', 'path           = /jooble-1251')
        jooble = jooble.replace('encoding       = UTF-8', 'encoding       = windows-1251')
        with open(conf, 'a') as f:
            f.write('\n' + jooble)

    def start(self, board):
        """(Re)starts Apache, so that feed.fcgi processes begin afresh."""
        self.stop()
        # As many processes as serve.sh gives PHP, so neither waits for a free one.
        env = dict(os.environ, FEED_DB_SOCKET=board.sock, FEED_DB_USER='board', FEED_DB_PASSWORD='board',
                   FCGID_MAX_PROCESSES='32')
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


def full_yads(board, feed, results):
    """1. Every page of /yads with no date, to the last <continue>."""
    expected = int(board.one("SELECT COUNT(*) FROM ads WHERE status = 'active'"))
    contenders = {
        'feed': lambda d: follow_pages(feed.url + '/yads', rb'<continue>([0-9A-Za-z]+)</continue>', d),
        'php': lambda d: follow_pages('http://127.0.0.1:%d/yads.php' % board.port,
                                      rb'<continue>([0-9]+)</continue>', d),
    }
    times = {k: [] for k in list(contenders) + ['floor_cp1251', 'floor_utf8mb4']}
    query = YADS_QUERY.format(date='1970-01-01 00:00:00', limit='')
    for r in range(ROUNDS):
        for name, fn in contenders.items():
            with tempfile.TemporaryDirectory(dir=BASE) as d:
                t, pages = timed(lambda: fn(d))
                got = count_in_files(pages, b'<ad>')
                if got != expected:
                    raise SystemExit('bench: %s gave %d ads, the database has %d active' % (name, got, expected))
                times[name].append(t)
                log('full yads round %d: %s %.2f s, %d pages' % (r + 1, name, t, len(pages)))
        for cs in ('cp1251', 'utf8mb4'):
            cmd = ' '.join(board.client(cs)) + ' --quick -N -B -e "%s" | wc -l' % query
            t, out = timed(lambda: run(['bash', '-c', cmd], capture_output=True).stdout)
            if int(out) != expected:
                raise SystemExit('bench: the floor gave %s rows, expected %d' % (out.strip(), expected))
            times['floor_' + cs].append(t)
            log('full yads round %d: floor %s %.2f s' % (r + 1, cs, t))
    m = {k: median(v) for k, v in times.items()}
    floor = min(m['floor_cp1251'], m['floor_utf8mb4'])
    results.update({
        'yads_full_ads': expected,
        'yads_full_feed_s': m['feed'], 'yads_full_php_s': m['php'],
        'yads_full_floor_cp1251_s': m['floor_cp1251'], 'yads_full_floor_utf8mb4_s': m['floor_utf8mb4'],
        'yads_full_feed_ads_per_s': expected / m['feed'], 'yads_full_php_ads_per_s': expected / m['php'],
        'yads_full_floor_ads_per_s': expected / floor,
        'ratio_yads_full_feed_time_vs_floor': m['feed'] / floor,
        'ratio_yads_full_php_time_vs_feed': m['php'] / m['feed'],
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
    times = {k: [] for k in list(urls) + ['floor']}
    failures = {}
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


def chart(results, path):
    data = os.path.join(BASE, 'chart.dat')
    rows = [('feed.fcgi', results['yads_full_feed_ads_per_s']), ('yads.php', results['yads_full_php_ads_per_s']),
            ('floor (mariadb)', results['yads_full_floor_ads_per_s'])]
    with open(data, 'w') as f:
        for i, (name, v) in enumerate(rows):
            f.write('%d "%s" %.0f\n' % (i, name, v))
    script = '''
set terminal pngcairo size 800,480
set output '%s'
set title "Full Yads dump, %d ads: throughput (ads/s, higher is better)"
set style fill solid 0.8
set boxwidth 0.6
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set grid ytics
unset key
plot '%s' using 1:3:xtic(2) with boxes lc rgb "#4472c4", '' using 1:3:(sprintf("%%.0f", $3)) with labels offset 0,1
''' % (path, results['yads_full_ads'], data)
    try:
        run(['gnuplot'], input=script)
    except (OSError, subprocess.CalledProcessError) as e:
        log('no chart: %s' % e)


def report(results):
    r = results
    ok = lambda b: 'met' if b else '**not met**'
    t_full = r['ratio_yads_full_feed_time_vs_floor']
    t_incr = r['ratio_yads_incr_feed_vs_floor']
    growth = r['ratio_feed_peak_rss_full_vs_small']
    lines = [
        '# Benchmark %s' % r['when'], '',
        'Machine: %s, %d cores. Board: %d ads, %d vacancies. Medians of %d rounds; contenders run in turn.' % (
            r['machine'], r['cores'], r['ads'], r['jobs'], r['rounds']), '',
        '## 1. Full Yads dump (%d active ads, every page to the last `<continue>`, one curl per page)' % r['yads_full_ads'], '',
        '| contender | time | ads/s |', '|---|---:|---:|',
        '| feed.fcgi | %.2f s | %.0f |' % (r['yads_full_feed_s'], r['yads_full_feed_ads_per_s']),
        '| yads.php | %.2f s | %.0f |' % (r['yads_full_php_s'], r['yads_full_php_ads_per_s']),
        '| floor: mariadb --quick, cp1251 | %.2f s | %.0f |' % (r['yads_full_floor_cp1251_s'], r['yads_full_ads'] / r['yads_full_floor_cp1251_s']),
        '| floor: mariadb --quick, utf8mb4 | %.2f s | %.0f |' % (r['yads_full_floor_utf8mb4_s'], r['yads_full_ads'] / r['yads_full_floor_utf8mb4_s']),
        '',
        '- feed.fcgi time / floor time: **%.2f×** (target at most 1.2×: %s)' % (t_full, ok(t_full <= 1.2)),
        '- yads.php time / feed.fcgi time: **%.2f×**' % r['ratio_yads_full_php_time_vs_feed'], '',
        '## 2. Incremental Yads (`date` %s, %d ads; %d connections, %d s)' % (
            r['yads_incr_date'], r['yads_incr_ads'], CONCURRENCY, WRK_SECONDS), '',
        '| contender | requests/s | p99 latency |', '|---|---:|---:|',
        '| feed.fcgi | %.0f | %.1f ms |' % (r['yads_incr_feed_rps'], r['yads_incr_feed_p99_ms']),
        '| yads.php | %.0f | %.1f ms |' % (r['yads_incr_php_rps'], r['yads_incr_php_p99_ms']),
        '| floor: mariadb-slap, yads.php\'s page query | %.0f | |' % r['yads_incr_floor_qps'], '',
        '- feed.fcgi / floor: **%.2f×** (target at least 0.8×: %s)' % (t_incr, ok(t_incr >= 0.8)),
        '- feed.fcgi / yads.php: **%.2f×**' % r['ratio_yads_incr_feed_vs_php'], '',
        '## 3. Full Jooble dump', '',
        '| contender | jobs | time | jobs/s |', '|---|---:|---:|---:|',
        '| feed.fcgi, UTF-8 | %d | %.2f s | %.0f |' % (r['jooble_full_feed_jobs'], r['jooble_full_feed_utf8_s'], r['jooble_full_feed_utf8_jobs_per_s']),
        '| feed.fcgi, windows-1251 | %d | %.2f s | %.0f |' % (r['jooble_full_feed_jobs'], r['jooble_full_feed_cp1251_s'], r['jooble_full_feed_cp1251_jobs_per_s']),
        ('| jooble.php (UTF-8, no résumés) | %d | %.2f s | %.0f |' % (r['jooble_full_php_jobs'], r['jooble_full_php_s'], r['jooble_full_php_jobs_per_s'])
         if r['jooble_full_php_s'] else '| jooble.php (UTF-8, no résumés) | %d | failed: %s | |' % (r['jooble_full_php_jobs'], r['jooble_full_php_error'])),
        '| floor: mariadb --quick, jooble.php\'s query | %d | %.2f s | %.0f |' % (r['jooble_full_php_jobs'], r['jooble_full_floor_s'], r['jooble_full_floor_jobs_per_s']),
        '',
        '- feed.fcgi (UTF-8) jobs/s / floor jobs/s: **%.2f×**; / jooble.php: %s' % (
            r['ratio_jooble_full_feed_utf8_rate_vs_floor'],
            '**%.2f×**' % r['ratio_jooble_full_feed_utf8_rate_vs_php'] if r['ratio_jooble_full_feed_utf8_rate_vs_php']
            else 'none (jooble.php gave no feed)'), '',
        '## 4. Memory: feed.fcgi peak resident size (VmHWM) over a full Yads dump', '',
        '| board | peak |', '|---|---:|',
        '| %d ads | %.1f MiB |' % (r['feed_peak_rss_small_ads'], r['feed_peak_rss_kib_small'] / 1024),
        '| %d ads | %.1f MiB |' % (r['feed_peak_rss_full_ads'], r['feed_peak_rss_kib_full'] / 1024), '',
        '- under 32 MiB: %s; full / small: **%.2f×** (target within 10%%: %s)' % (
            ok(r['feed_peak_rss_kib_full'] < 32 * 1024), growth, ok(abs(growth - 1) <= 0.10)), '',
        '![throughput](%s)' % os.path.basename(r['chart']), '',
    ]
    return '\n'.join(lines)


def main():
    if sys.argv[1:] == ['--report']:
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
    results = {
        'when': datetime.datetime.now().strftime('%Y-%m-%d %H:%M'),
        'machine': '%s %s' % (platform.node(), platform.machine()),
        'cores': os.cpu_count(), 'ads': ADS, 'jobs': JOBS, 'rounds': ROUNDS,
    }
    try:
        big.start()
        small.start()
        feed.start(big)
        full_yads(big, feed, results)
        big_peak = feed.peak_rss_kib()
        incremental_yads(big, feed, results)
        full_jooble(big, feed, results)
        memory(small, big, feed, results, big_peak)
    finally:
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
    results['chart'] = os.path.join(RESULTS, 'throughput-%s.png' % stamp)
    chart(results, results['chart'])
    if os.path.exists(results['chart']):
        shutil.copy(results['chart'], os.path.join(RESULTS, 'throughput-latest.png'))
    text = report(results)
    for name in ('bench-%s.md' % stamp, 'latest.md'):
        with open(os.path.join(RESULTS, name), 'w') as f:
            f.write(text)
    with open(os.path.join(RESULTS, 'latest.json'), 'w') as f:
        json.dump(results, f, indent=2, sort_keys=True)
    print(text)


if __name__ == '__main__':
    main()
