#include "test_env.h"

#include <iconv.h>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "error.h"
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

const TimeZone& Kiev() {
  static const TimeZone zone = *TimeZone::Load("Europe/Kiev");
  return zone;
}

int Shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

static std::string Client() {
  return "mariadb --no-defaults --default-character-set=utf8mb4 --socket='" + Env("FEED_TEST_SOCKET") +
         "' -ufeed -pfeed " + Env("FEED_TEST_DB");
}

static std::string RunSql(const std::string& client, const std::string& sql) {
  char path[] = "/tmp/feed-sql-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp");
  if (write(fd, sql.data(), sql.size()) != static_cast<ssize_t>(sql.size())) throw std::runtime_error("write");
  close(fd);
  FILE* p = popen((client + " -N -B < " + path).c_str(), "r");
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  unlink(path);
  if (rc != 0) throw std::runtime_error("mariadb failed on: " + sql.substr(0, 200));
  return out;
}

std::string Mariadb(const std::string& sql) { return RunSql(Client(), sql); }

std::string AdminSql(const std::string& sql, const std::string& socket) {
  return RunSql("mariadb --no-defaults --default-character-set=utf8mb4 --socket='" +
                    (socket.empty() ? Env("FEED_TEST_SOCKET") : socket) + "'",
                sql);
}

void LoadSampleBoard(int ads, int jobs, int seed, int docs) {
  std::string root = Env("FEED_TEST_ROOT");
  std::string cmd = "{ cat '" + root + "/sql/sample-board.sql' '" + root +
                    "/sql/state.sql'; echo 'TRUNCATE feed_robot_visit;'; python3 '" + root +
                    "/tools/gen_sample_board.py' --ads " + std::to_string(ads) + " --jobs " + std::to_string(jobs) +
                    " --seed " + std::to_string(seed) + " --docs " + std::to_string(docs) + "; } | " + Client();
  if (Shell(cmd) != 0) throw std::runtime_error("loading the sample board failed");
}

// Temp configs, and the files tests put beside them (NAME.err, NAME.xml,
// NAME.sql), are removed when the test program ends.
static void RemoveTempFiles();
static std::vector<std::string>& TempFiles() {
  static std::vector<std::string>* files = [] {
    std::atexit(RemoveTempFiles);
    return new std::vector<std::string>;
  }();
  return *files;
}
static void RemoveTempFiles() {
  for (const std::string& f : TempFiles()) {
    for (const char* suffix : {"", ".err", ".xml", ".sql"}) unlink((f + suffix).c_str());
  }
}

static std::string WriteTemp(const std::string& text) {
  char path[] = "/tmp/feed-config-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) throw std::runtime_error("mkstemp");
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) throw std::runtime_error("write");
  close(fd);
  TempFiles().push_back(path);
  return path;
}

static std::string Header() {
  return "[database]\nsocket = " + Env("FEED_TEST_SOCKET") +
         "\nuser = feed\npassword = feed\nname = " + Env("FEED_TEST_DB") +
         "\n[site]\ntime_zone = Europe/Kiev\nurl = http://doska.example\ntitle = Доска\ndescription = Объявления\n";
}

std::string WriteConfig(const std::string& feeds) {
  std::string text = feeds, root = Env("FEED_TEST_ROOT");
  for (size_t at; (at = text.find("@ROOT@")) != std::string::npos;) text.replace(at, 6, root);
  return WriteTemp(Header() + text);
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
    if (v.empty())
      yads.erase(k);
    else
      yads[k] = v;
  }
  std::string text = Header() + "[feed yads]\n";
  for (const auto& [k, v] : yads) text += k + " = " + v + "\n";
  return WriteTemp(text);
}

Config ShippedConfig(const std::string& file, const std::string& db) {
  const std::map<std::string, std::string> env = {{"FEED_DB_SOCKET", Env("FEED_TEST_SOCKET")},
                                                  {"FEED_DB_NAME", db},
                                                  {"FEED_DB_USER", "feed"},
                                                  {"FEED_DB_PASSWORD", "feed"},
                                                  {"FEED_SECRET", "legacy-board-test-secret"}};
  // The test's variables over the process's, given to the loader.
  ConfigEnvironment given = ConfigEnvironment::FromProcess();
  for (const auto& [k, v] : env) given.vars[k] = v;
  return LoadConfig(Env("FEED_TEST_ROOT") + "/conf/" + file, given);
}

std::optional<Config> LegacyConfig() {
  const char* db = std::getenv("FEED_TEST_LEGACY_DB");
  if (!db) return std::nullopt;
  return ShippedConfig("legacy-board.ini", db);
}

std::vector<std::string> KievDates(const std::vector<std::string>& local, const std::string& format) {
  const std::string dir = TempDir("dates");
  {
    std::ofstream in(dir + "/in");
    for (const std::string& l : local) in << l << '\n';
  }
  const int rc = Shell("TZ=Europe/Kiev date -f '" + dir + "/in' '+" + format + "' >'" + dir + "/out'");
  std::vector<std::string> out;
  std::istringstream lines(Slurp(dir + "/out"));
  for (std::string l; std::getline(lines, l);) out.push_back(l);
  Shell("rm -rf '" + dir + "'");
  if (rc != 0 || out.size() != local.size()) throw std::runtime_error("date refused a local time");
  return out;
}

std::string KievDate(const std::string& local, const std::string& format) { return KievDates({local}, format)[0]; }

std::string KievNow() { return KievDate("now", "%F %T"); }

void StopDatabase() {
  if (Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' stop '" + Env("FEED_TEST_DB_DIR") +
            "' >/dev/null") != 0) {
    throw std::runtime_error("stopping MariaDB failed");
  }
}

void StartDatabase() {
  if (Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/mariadb.sh' start '" + Env("FEED_TEST_DB_DIR") +
            "' >/dev/null") != 0) {
    throw std::runtime_error("starting MariaDB failed");
  }
}

namespace {

class HookSink : public Sink {
 public:
  HookSink(size_t limit, std::function<void()> hook) : limit_(limit), hook_(std::move(hook)) {}
  void Write(std::string_view b) override {
    if (hook_) {
      auto h = std::move(hook_);
      hook_ = nullptr;
      h();
    }
    if (data.size() + b.size() > limit_) {
      data.append(b.substr(0, limit_ - data.size()));
      throw FeedError(ErrorKind::kClientGone, "test client went away");
    }
    data.append(b);
  }
  std::string data;

 private:
  size_t limit_;
  std::function<void()> hook_;
};

Reply Take(App& app, const Request& req, HookSink& sink) {
  Reply r;
  r.status = app.Handle(req, sink, /*live=*/true, &r.report);
  size_t end = sink.data.find("\r\n\r\n");
  std::string head = sink.data.substr(0, end);
  size_t pos = 0;
  while (pos < head.size()) {
    size_t eol = head.find("\r\n", pos);
    if (eol == std::string::npos) eol = head.size();
    std::string line = head.substr(pos, eol - pos);
    pos = eol + 2;
    size_t colon = line.find(": ");
    if (colon != std::string::npos) r.headers[line.substr(0, colon)] = line.substr(colon + 2);
  }
  r.body = end == std::string::npos ? "" : sink.data.substr(end + 4);
  // A body named to the web server (hand_off = x-sendfile): read it as the
  // web server would.
  if (auto x = r.headers.find("X-Sendfile"); x != r.headers.end()) {
    EXPECT_EQ(r.body, "") << "a handed-off response carries no body of its own";
    r.body = ReadSiteFile(x->second);
  }
  return r;
}

}  // namespace

Reply Fetch(App& app, const Request& req) {
  HookSink sink(SIZE_MAX, nullptr);
  return Take(app, req, sink);
}

Reply FetchCut(App& app, const Request& req, size_t bytes) {
  HookSink sink(bytes, nullptr);
  return Take(app, req, sink);
}

Reply FetchWithHook(App& app, const Request& req, const std::function<void()>& hook) {
  HookSink sink(SIZE_MAX, hook);
  return Take(app, req, sink);
}

std::vector<std::vector<std::string>> Table(const std::string& sql) {
  std::vector<std::vector<std::string>> rows;
  std::string out = Mariadb(sql);
  size_t pos = 0;
  while (pos < out.size()) {
    size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) eol = out.size();
    std::string line = out.substr(pos, eol - pos);
    pos = eol + 1;
    std::vector<std::string> cells;
    size_t c = 0;
    for (;;) {
      size_t tab = line.find('\t', c);
      cells.push_back(line.substr(c, tab == std::string::npos ? tab : tab - c));
      if (tab == std::string::npos) break;
      c = tab + 1;
    }
    rows.push_back(cells);
  }
  return rows;
}

std::string Unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return out;
}

std::string Cp1251ToUtf8(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) AppendUtf8(out, FromCp1251(c));
  return out;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempDir(const std::string& tag) {
  std::string tmpl = "/tmp/feed-" + tag + "-XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp " + tmpl + " failed");
  return tmpl;
}

std::string IconvToUtf8(const std::string& bytes, const std::string& charset) {
  iconv_t cd = iconv_open("UTF-8", charset.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    ADD_FAILURE() << "iconv does not know " << charset;
    return "";
  }
  std::string out(bytes.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(bytes.data());
  char* o = out.data();
  size_t il = bytes.size(), ol = out.size();
  if (iconv(cd, &in, &il, &o, &ol) == static_cast<size_t>(-1)) {
    ADD_FAILURE() << "not " << charset << " at byte " << bytes.size() - il;
  }
  iconv_close(cd);
  out.resize(out.size() - ol);
  return out;
}

bool PollUntil(const std::function<bool()>& condition, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (condition()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace feed::testing
