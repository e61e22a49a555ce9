// What the integration and end-to-end tests know about the servers that
// tests/run.sh started for them, from the environment:
//   FEED_TEST_ROOT     the repository (templates/, sql/, conf/, tools/)
//   FEED_TEST_SOCKET   the private MariaDB's socket (user feed/feed)
//   FEED_TEST_DB       the database the tests may fill (sample_test)
//   FEED_TEST_DB_DIR   the MariaDB harness folder (for stop/start)
//   FEED_TEST_BIN      the feed.fcgi binary
//   FEED_TEST_URL      the feed under Apache: http://127.0.0.1:PORT/cgi-bin/feed.fcgi
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config.h"

namespace feed::testing {

std::string Env(const char* name);  // fails the test run when unset

// Recreates the sample board's tables in FEED_TEST_DB and loads the
// generator's output (tools/gen_sample_board.py) at this size.
void LoadSampleBoard(int ads, int jobs, int seed = 1);

// Runs SQL text through the mariadb client on FEED_TEST_DB; returns its
// tab-separated output (-N -B).
std::string Mariadb(const std::string& sql);

// Writes a config for the sample board in a temp file and returns its path;
// `feed_extra` lines are appended to [feed yads] (later keys win over the
// defaults given here by replacing them).
std::string WriteSampleConfig(const std::map<std::string, std::string>& yads_overrides = {});

// Stops and starts the private MariaDB (harness script).
void StopDatabase();
void StartDatabase();

// windows-1251 bytes to UTF-8 (for parsing a feed with tinyxml2).
std::string Cp1251ToUtf8(const std::string& s);

// Runs a shell command, returns its exit status.
int Shell(const std::string& cmd);

}  // namespace feed::testing
