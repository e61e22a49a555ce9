#include "test_env.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "xml_text.h"

namespace feed::testing {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) {
    std::fprintf(stderr, "%s is not set: run the tests through `make test`\n", name);
    std::exit(2);
  }
  return v;
}

int Shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

static std::string Client() {
  return "mariadb --no-defaults --default-character-set=utf8mb4 --socket='" + Env("FEED_TEST_SOCKET") +
         "' -ufeed -pfeed " + Env("FEED_TEST_DB");
}

std::string Mariadb(const std::string& sql) {
  char path[] = "/tmp/feed-sql-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp");
  if (write(fd, sql.data(), sql.size()) != static_cast<ssize_t>(sql.size())) throw std::runtime_error("write");
  close(fd);
  FILE* p = popen((Client() + " -N -B < " + path).c_str(), "r");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  unlink(path);
  if (rc != 0) throw std::runtime_error("mariadb failed on: " + sql.substr(0, 200));
  return out;
}

void LoadSampleBoard(int ads, int jobs, int seed) {
  std::string root = Env("FEED_TEST_ROOT");
  std::string cmd = "{ cat '" + root + "/sql/sample-board.sql'; python3 '" + root +
                    "/tools/gen_sample_board.py' --ads " + std::to_string(ads) + " --jobs " + std::to_string(jobs) +
                    " --seed " + std::to_string(seed) + "; } | " + Client();
  if (Shell(cmd) != 0) throw std::runtime_error("loading the sample board failed");
}

std::string WriteSampleConfig(const std::map<std::string, std::string>& overrides) {
  std::string root = Env("FEED_TEST_ROOT");
  std::map<std::string, std::string> yads = {
      {"path", "/yads"},
      {"template", root + "/templates/yads.xml"},
      {"query", root + "/sql/sample-yads.sql"},
      {"state_query", root + "/sql/sample-yads-state.sql"},
      {"encoding", "windows-1251"},
      {"since", "param date"},
      {"continue", "param continue"},
      {"page_size", "1000"},
      {"fetch_rows", "1000"},
      {"keyset", "added id_key"},
      {"secret", "integration-test-secret"},
      {"settle_seconds", "10"},
  };
  for (const auto& [k, v] : overrides) {
    if (v.empty()) yads.erase(k);
    else yads[k] = v;
  }
  std::string text = "[database]\nsocket = " + Env("FEED_TEST_SOCKET") + "\nuser = feed\npassword = feed\nname = " +
                     Env("FEED_TEST_DB") + "\n[site]\ntime_zone = Europe/Kiev\nurl = http://doska.example\n[feed yads]\n";
  for (const auto& [k, v] : yads) text += k + " = " + v + "\n";
  char path[] = "/tmp/feed-config-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp");
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) throw std::runtime_error("write");
  close(fd);
  return path;
}

void StopDatabase() {
  if (Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' stop '" + Env("FEED_TEST_DB_DIR") + "' >/dev/null") != 0) {
    throw std::runtime_error("stopping MariaDB failed");
  }
}

void StartDatabase() {
  if (Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' start '" + Env("FEED_TEST_DB_DIR") + "' >/dev/null") != 0) {
    throw std::runtime_error("starting MariaDB failed");
  }
}

std::string Cp1251ToUtf8(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) AppendUtf8(out, FromCp1251(c));
  return out;
}

}  // namespace feed::testing
