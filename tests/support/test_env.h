// What the integration and end-to-end tests know about the servers that
// tests/run.sh started for them, from the environment:
//   FEED_TEST_ROOT     the repository (templates/, sql/, conf/, tools/)
//   FEED_TEST_SOCKET   the private MariaDB's socket (user feed/feed)
//   FEED_TEST_DB       the database the tests may fill (sample_test)
//   FEED_TEST_DB_DIR   the MariaDB harness folder (for stop/start)
//   FEED_TEST_BIN      the feed.fcgi binary
//   FEED_TEST_URL      the feed under Apache: http://127.0.0.1:PORT/cgi-bin/feed.fcgi
//   FEED_TEST_APACHE_LOG  that Apache's error log (feed.fcgi's stderr)
//   FEED_TEST_STATUS_TOKEN  the token of the status page the Apache site enables
//   FEED_TEST_NGINX_URL  the same site behind nginx, its status page off
//   FEED_TEST_OUTPUT   a folder for what a person may want to look at after
//                      the run (the status page's screenshots)
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "config.h"

namespace feed::testing {

std::string Env(const char* name);  // fails the test run when unset

// The zone the test configs name for the site: Europe/Kiev.
const TimeZone& Kiev();

// Recreates the sample board's tables in FEED_TEST_DB and loads the
// generator's output (tools/gen_sample_board.py) at this size (`docs`:
// documents of the library, with their members and comments).
void LoadSampleBoard(int ads, int jobs, int seed = 1, int docs = 0);

// Runs SQL text through the mariadb client on FEED_TEST_DB; returns its
// tab-separated output (-N -B).
std::string Mariadb(const std::string& sql);

// Runs SQL text as the test server's administrator: the OS user running
// the tests, over the socket (unix_socket authentication: root in CI, whom
// tests/harness/mariadb.sh's mariadb-install-db gave every privilege), on
// no database; for what the feed user may not do (CREATE USER, GRANT,
// other databases). `socket` defaults to FEED_TEST_SOCKET. Throws when
// the client fails.
std::string AdminSql(const std::string& sql, const std::string& socket = "");

// Writes a config for the sample board in a temp file and returns its path;
// `feed_extra` lines are appended to [feed yads] (later keys win over the
// defaults given here by replacing them).
std::string WriteSampleConfig(const std::map<std::string, std::string>& yads_overrides = {});

// Writes a config with the test database and site sections followed by
// `feeds` (INI text of [feed ...] sections; paths may use @ROOT@ for the
// repository). Returns its path.
std::string WriteConfig(const std::string& feeds);

// conf/FILE (a shipped config) pointed at database `db` of the test
// server, as the feed user, its tokens keyed by FEED_SECRET=legacy-board-test-secret.
Config ShippedConfig(const std::string& file, const std::string& db);

// conf/legacy-board.ini pointed at the legacy board tests/run.sh loaded
// from ../shared/board (FEED_TEST_LEGACY_DB), its tokens keyed by
// FEED_SECRET=legacy-board-test-secret, or nullopt when there is none.
std::optional<Config> LegacyConfig();

// Stops and starts the private MariaDB (harness script).
void StopDatabase();
void StartDatabase();

// windows-1251 bytes to UTF-8 (for parsing a feed with tinyxml2).
std::string Cp1251ToUtf8(const std::string& s);
// A file's bytes ("" when it cannot be read).
std::string Slurp(const std::string& path);

// A new folder /tmp/feed-TAG-XXXXXX; the caller removes it.
std::string TempDir(const std::string& tag);

// Bytes in `charset` (any iconv knows) as UTF-8, by the C library's iconv:
// the tests' own reading of a feed in another encoding.
std::string IconvToUtf8(const std::string& bytes, const std::string& charset);

// Each local time of Kiev (DATETIME text, "2026-11-30 14:05:00") as GNU
// `date +FORMAT` writes it (FORMAT "%s": Unix seconds; "%Y-%m-%dT%T%:z":
// W3C datetime with the offset in force), through the C library's zone
// data: the tests' own reading of a site time, not the program's
// time_zone. Throws when date refuses one.
std::vector<std::string> KievDates(const std::vector<std::string>& local, const std::string& format);
std::string KievDate(const std::string& local, const std::string& format);
// Kiev's wall time now, as DATETIME text, by GNU date.
std::string KievNow();

// A response taken apart: status, headers (as sent), body.
struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;
  std::string body;
  FeedReport report;
};
// Asks `app` for `req` the way the FastCGI loop does, through a string.
Reply Fetch(App& app, const Request& req);
// Sinks that fail on purpose: the client goes away after `bytes`, or
// `hook` runs at the first write (to stop the database mid-feed).
Reply FetchCut(App& app, const Request& req, size_t bytes);
Reply FetchWithHook(App& app, const Request& req, const std::function<void()>& hook);

// Rows of a SELECT through the mariadb client, tab-separated cells (use
// HEX() for text that may hold tabs or newlines).
std::vector<std::vector<std::string>> Table(const std::string& sql);
std::string Unhex(const std::string& hex);

// Runs a shell command, returns its exit status.
int Shell(const std::string& cmd);

// Polls `condition` every 20 ms until it holds (true) or `timeout_ms` passed
// (false): how tests wait for an event they cannot be told of.
bool PollUntil(const std::function<bool()>& condition, int timeout_ms = 30000);

}  // namespace feed::testing
