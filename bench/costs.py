#!/usr/bin/env python3
"""What one row costs, for docs/SCALING.md: the CPU time of feed.fcgi and of
the database server (mariadbd) per row of each kind of read, and the bytes
a row becomes, on the legacy board `make bench` uses (BENCH_ADS ads,
BENCH_JOBS vacancies; built and kept by bench.py in BENCH_DIR).

    bench/run.sh --only yads       # once: builds build/bench/feed.fcgi, makes the board
    python3 bench/costs.py         # the table, into bench/results/costs-latest.md and .json

Each read runs through the command line (`feed.fcgi render PATH -o FILE`,
no web server), its CPU taken from the process's rusage and the server's
from /proc/PID/stat of mariadbd before and after (nothing else may use
the board meanwhile). Reads:
  - Yads full dump, `COST_PAGES` pages of 50,000 ads (query_full, the
    primary key), following the continue tokens;
  - one live sitemap part (`/sitemap-ads-2.xml`, about 45,000 URLs), after
    the index made the parts' plan;
  - the Jooble feed's whole-table state query (sql/legacy-jooble-state.sql),
    through the mariadb client: what every Jooble visit costs the server;
  - the MSN feed's full change detection (`feed.fcgi sync /msn`).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the board, its paths and environment)

PAGES = int(os.environ.get('COST_PAGES', 5))
TICK = os.sysconf('SC_CLK_TCK')


def server_cpu(board):
    """mariadbd's user + system CPU seconds so far."""
    with open(os.path.join(board.dir, 'dbrun', 'mariadbd.pid')) as f:
        pid = f.read().strip()
    with open('/proc/%s/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def measured(board, cmd, env=None):
    """Runs `cmd`; returns (wall s, its CPU s, the server's CPU s, stdout)."""
    s0 = server_cpu(board)
    r0 = os.times()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    r1 = os.times()
    s1 = server_cpu(board)
    cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    return wall, cpu, s1 - s0, out


def config(work):
    """conf/legacy-board.ini of the repository with absolute paths."""
    with open(os.path.join(bench.ROOT, 'conf', 'legacy-board.ini')) as f:
        text = f.read()
    text = text.replace('../', bench.ROOT + '/')
    path = os.path.join(work, 'costs.ini')
    with open(path, 'w') as f:
        f.write(text)
    return path


def main():
    board = bench.Board(bench.ADS, bench.JOBS)
    board.start()
    binary = bench.BINARY
    env = board.feed_env()
    env['FEED_DB_USER'], env['FEED_DB_PASSWORD'] = 'board', 'board'
    results = {'ads': bench.ADS, 'jobs': bench.JOBS, 'when': time.strftime('%Y-%m-%d %H:%M')}
    try:
        with tempfile.TemporaryDirectory(dir=bench.BASE) as work:
            conf = config(work)
            # Yads: PAGES pages of the full dump.
            rows = size = 0
            wall = cpu = server = 0.0
            token = None
            for _ in range(PAGES):
                out = os.path.join(work, 'page.xml')
                cmd = [binary, '--config', conf, 'render', '/yads', '-o', out] + (['continue=' + token] if token else [])
                w, c, s, _ = measured(board, cmd, env)
                with open(out, 'rb') as f:
                    body = f.read()
                rows += body.count(b'<ad>')
                size += len(body)
                wall, cpu, server = wall + w, cpu + c, server + s
                m = re.search(rb'<continue>([0-9A-Za-z]+)</continue>', body)
                if not m:
                    break
                token = m.group(1).decode()
            results.update({'yads_rows': rows, 'yads_bytes_per_row': size / rows, 'yads_wall_s': wall,
                            'yads_feed_cpu_us_per_row': cpu / rows * 1e6,
                            'yads_server_cpu_us_per_row': server / rows * 1e6})
            # One live sitemap part, its plan made by the index first.
            subprocess.run([binary, '--config', conf, 'render', '/sitemap.xml', '-o', os.path.join(work, 'i.xml')],
                           env=env, check=True, capture_output=True)
            out = os.path.join(work, 'part.xml')
            w, c, s, _ = measured(board, [binary, '--config', conf, 'render', '/sitemap-ads-2.xml', '-o', out], env)
            with open(out, 'rb') as f:
                body = f.read()
            urls = body.count(b'<url>')
            results.update({'sitemap_part_urls': urls, 'sitemap_part_wall_ms': w * 1000,
                            'sitemap_feed_cpu_us_per_url': c / urls * 1e6,
                            'sitemap_server_cpu_us_per_url': s / urls * 1e6,
                            'sitemap_bytes_per_url': len(body) / urls})
            # Jooble's state query, as every visit runs it.
            sql = bench.own_sql('legacy-jooble-state.sql', {'now': "'2026-11-01 12:00:00'"})
            w, c, s, _ = measured(board, board.client('utf8mb4') + ['-N', '-B', '-e', sql])
            vacancies = int(board.one('SELECT COUNT(*) FROM vacancy'))
            results.update({'jooble_state_vacancies': vacancies, 'jooble_state_wall_ms': w * 1000,
                            'jooble_state_server_cpu_us_per_vacancy': s / vacancies * 1e6})
            # MSN's change detection over the whole board.
            w, c, s, out = measured(board, [binary, '--config', conf, 'sync', '/msn'], env)
            results.update({'msn_sync_ads': bench.ADS, 'msn_sync_wall_s': w,
                            'msn_feed_cpu_us_per_ad': c / bench.ADS * 1e6,
                            'msn_server_cpu_us_per_ad': s / bench.ADS * 1e6,
                            'msn_sync_summary': out.stdout.decode(errors='replace').strip()})
    finally:
        board.stop()
    lines = ['# What one row costs (`python3 bench/costs.py`, %s)' % results['when'], '',
             'Legacy board of %d ads and %d vacancies; CPU of feed.fcgi (its rusage) and of mariadbd '
             '(/proc/PID/stat) per row, through the command line.' % (results['ads'], results['jobs']), '',
             '| read | rows | feed.fcgi CPU per row | server CPU per row | bytes per row |', '|---|---:|---:|---:|---:|',
             '| Yads full dump, %d pages (query_full) | %d | %.2f µs | %.2f µs | %.0f |' % (
                 PAGES, results['yads_rows'], results['yads_feed_cpu_us_per_row'],
                 results['yads_server_cpu_us_per_row'], results['yads_bytes_per_row']),
             '| one live sitemap part | %d | %.2f µs | %.2f µs | %.0f |' % (
                 results['sitemap_part_urls'], results['sitemap_feed_cpu_us_per_url'],
                 results['sitemap_server_cpu_us_per_url'], results['sitemap_bytes_per_url']),
             '| Jooble state query (whole table, every visit) | %d | – | %.3f µs | – |' % (
                 results['jooble_state_vacancies'], results['jooble_state_server_cpu_us_per_vacancy']),
             '| MSN change detection (`sync /msn`, every ad) | %d | %.2f µs | %.2f µs | – |' % (
                 results['msn_sync_ads'], results['msn_feed_cpu_us_per_ad'], results['msn_server_cpu_us_per_ad']),
             '', 'Wall times: Yads %.2f s, sitemap part %.0f ms, Jooble state %.0f ms, MSN sync %.2f s.' % (
                 results['yads_wall_s'], results['sitemap_part_wall_ms'], results['jooble_state_wall_ms'],
                 results['msn_sync_wall_s']), '']
    os.makedirs(bench.RESULTS, exist_ok=True)
    with open(os.path.join(bench.RESULTS, 'costs-latest.md'), 'w') as f:
        f.write('\n'.join(lines))
    with open(os.path.join(bench.RESULTS, 'costs-latest.json'), 'w') as f:
        json.dump(results, f, indent=1)
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
