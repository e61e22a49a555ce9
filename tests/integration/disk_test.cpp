// No room to write (issue #22, point 3), against the real database: the
// spool folder and a static set's folder on a small tmpfs of the test's own
// (tests/support/scratch_fs.h), made full (ENOSPC) or read-only (EROFS) by
// the test. A live request is then answered 503 with Retry-After and a
// one-line reason, never a short body; a static write fails, saying why, and
// leaves the old set whole with no temporary folder behind; an MSN sync
// that finds the item-state table's tablespace full (its file on such a
// file system: error 1114) fails, recorded as not done, and loses no
// change; and once the space returns, all go on with nothing done by hand.
// A disk quota (EDQUOT), which no file system of this test can have, comes
// from tests/support/quota_shim.c preloaded into the program itself (the
// live request as plain CGI, a static write on the command line): it must
// fare exactly as a full disk does. The robot's visit record, the part
// plans and the run reports on a full tablespace: the response is whole or
// a 503, no record moves for what was not written, and the next visit once
// there is room records itself. A spool folder with no room when the
// program starts stops nothing: it answers 503 until the room returns.
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "app.h"
#include "error.h"
#include "scratch_fs.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::ScratchFs;
using testing::Slurp;

// The names in folder `dir` ("." and ".." left out).
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Every file of folder `dir` by name, with its bytes.
std::map<std::string, std::string> Files(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const std::string& n : Names(dir)) out[n] = Slurp(dir + "/" + n);
  return out;
}

// A 503 for want of room, as a client must get it: Retry-After in seconds
// and one line of text that says which place has no room and how.
void ExpectNoRoomAnswer(const testing::Reply& r, const std::string& reason) {
  EXPECT_EQ(r.status, 503) << r.body.substr(0, 300);
  ASSERT_TRUE(r.headers.count("Retry-After")) << "a 503 says when to come back";
  const std::string& after = r.headers.at("Retry-After");
  EXPECT_TRUE(!after.empty() && after.find_first_not_of("0123456789") == std::string::npos && std::stoi(after) > 0)
      << after;
  EXPECT_NE(r.body.find(reason), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find('\n'), r.body.size() - 1) << "one line: " << r.body;
  EXPECT_EQ(r.body.find("<ads>"), std::string::npos) << "no part of the feed";
  if (r.headers.count("Content-Length")) {
    EXPECT_EQ(r.headers.at("Content-Length"), std::to_string(r.body.size()));
  }
}

// A Yads page whole: its Content-Length is its size and it ends with the
// root's closing tag.
void ExpectWholePage(const testing::Reply& r) {
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  ASSERT_TRUE(r.headers.count("Content-Length"));
  EXPECT_EQ(r.headers.at("Content-Length"), std::to_string(r.body.size()));
  EXPECT_NE(r.body.find("</ads>"), std::string::npos);
  const std::string end = "</yml_catalog>";
  const size_t last = r.body.find_last_not_of("\r\n");
  EXPECT_TRUE(last != std::string::npos && last + 1 >= end.size() && r.body.compare(last + 1 - end.size(), end.size(), end) == 0)
      << r.body.substr(r.body.size() > 100 ? r.body.size() - 100 : 0);
}

class DiskIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 200); }
  void SetUp() override { dir_ = testing::TempDir("disk"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

Request YadsPage() {
  Request req;
  req.method = "GET";
  req.path_info = "/yads";
  return req;
}

TEST_F(DiskIntegration, FullOrReadOnlySpoolFolderAnswers503WithRetryAfterAndGoesOnWhenSpaceReturns) {
  ScratchFs fs(dir_ + "/spool", 8 << 20);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  Config config = LoadConfig(testing::WriteSampleConfig());
  config.server.spool_dir = fs.path();
  config.server.spool_memory = 0;  // every body goes to a file
  App app(std::move(config));

  const testing::Reply whole = testing::Fetch(app, YadsPage());
  ExpectWholePage(whole);
  ASSERT_GT(whole.body.size(), 200000u) << "a page larger than the room left below";

  // Room for the first part of the body only: the write fails mid-way.
  ASSERT_TRUE(fs.Fill(64 << 10));
  ExpectNoRoomAnswer(testing::Fetch(app, YadsPage()), "the spool folder is full");
  EXPECT_EQ(Names(fs.path()), std::vector<std::string>{".filler"}) << "the cut file is removed";
  // No room at all: not even a file can be made.
  ASSERT_TRUE(fs.Fill(0));
  ExpectNoRoomAnswer(testing::Fetch(app, YadsPage()), "the spool folder is full");
  EXPECT_EQ(Names(fs.path()), std::vector<std::string>{".filler"});

  fs.Free();
  const testing::Reply again = testing::Fetch(app, YadsPage());
  ExpectWholePage(again);

  ASSERT_TRUE(fs.ReadOnly(true));
  ExpectNoRoomAnswer(testing::Fetch(app, YadsPage()), "the spool folder is read-only");
  ASSERT_TRUE(fs.ReadOnly(false));
  ExpectWholePage(testing::Fetch(app, YadsPage()));
}

std::string SetConfig() {
  return testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
      "publish_url = http://doska.example/maps\ngzip_files = 1\n"
      "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "state_query = @ROOT@/sql/sample-sitemap-ads-state.sql\nkeyset = id\nlastmod = lastmod\nmax_items = 1000\n"
      "gzip_files = 1\n");
}

TEST_F(DiskIntegration, StaticWriteToAFullOrReadOnlyFolderFailsAndLeavesTheOldSetWhole) {
  ScratchFs fs(dir_ + "/www", 8 << 20);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  const std::string config = SetConfig();
  App app(LoadConfig(config));
  const std::string maps = fs.path() + "/maps";
  app.WriteSet("/sitemap.xml", maps);
  const std::map<std::string, std::string> old = Files(maps);
  ASSERT_GE(old.size(), 4u) << "an index and parts, each with its .gz";
  testing::Mariadb("UPDATE listing SET updated = updated + INTERVAL 1 SECOND WHERE status = 'active' LIMIT 50");

  auto fails_saying = [&](const std::string& reason) {
    try {
      app.WriteSet("/sitemap.xml", maps);
      ADD_FAILURE() << "the write succeeded";
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kFull) << e.what();
      EXPECT_EQ(e.reason(), reason) << e.what();
    }
    EXPECT_EQ(Files(maps), old) << "the old set, whole";
    EXPECT_EQ(Names(fs.path()), (std::vector<std::string>{".filler", "maps", "maps.lock"}))
        << "no new folder left beside it";
  };
  // Room for a part or so: the set fails mid-way.
  ASSERT_TRUE(fs.Fill(48 << 10));
  fails_saying("the set's folder is full");
  ASSERT_TRUE(fs.Fill(0));
  fails_saying("the set's folder is full");

  // The command line: exit status 1 and the reason on stderr.
  const std::string err = dir_ + "/stderr";
  EXPECT_EQ(testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' write /sitemap.xml '" + maps +
                           "' >/dev/null 2>'" + err + "'"),
            1);
  EXPECT_NE(Slurp(err).find("No space left on device"), std::string::npos) << Slurp(err);
  EXPECT_NE(Slurp(err).find("left as it was"), std::string::npos) << Slurp(err);
  EXPECT_EQ(Files(maps), old);

  ASSERT_TRUE(fs.ReadOnly(true));
  fs.Free();  // refused: read-only
  try {
    app.WriteSet("/sitemap.xml", maps);
    ADD_FAILURE() << "the write succeeded";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFull) << e.what();
    EXPECT_EQ(e.reason(), "the set's folder is read-only") << e.what();
  }
  EXPECT_EQ(Files(maps), old);
  ASSERT_TRUE(fs.ReadOnly(false));

  fs.Free();
  app.WriteSet("/sitemap.xml", maps);
  EXPECT_NE(Files(maps), old) << "the new set, once there is room";
  EXPECT_EQ(Names(fs.path()), (std::vector<std::string>{"maps", "maps.lock"}));
}

// One of the program's tables moved, for the test, onto a file system of
// its own (InnoDB's DATA DIRECTORY: the table's own tablespace file there),
// so that filling that file system fills the table's tablespace: the
// server then refuses a write with error 1114 "The table is full". Put back
// as sql/state.sql makes it however the test ends.
class TableOn {
 public:
  // `columns`: the table's definition inside CREATE TABLE's parentheses;
  // `beside`: a table whose rows speak of it, emptied with it at the end
  // (feed_item_sync: a sync recorded over item states that are gone).
  TableOn(std::string table, const std::string& columns, const std::string& dir, std::string beside = "")
      : table_(std::move(table)), beside_(std::move(beside)) {
    testing::AdminSql("DROP TABLE IF EXISTS " + Env("FEED_TEST_DB") + "." + table_ + "; CREATE TABLE " +
                      Env("FEED_TEST_DB") + "." + table_ + " (" + columns +
                      ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 DATA DIRECTORY='" + dir + "'");
  }
  ~TableOn() {
    if (!beside_.empty()) testing::Mariadb("DELETE FROM " + beside_);
    testing::Mariadb("DROP TABLE IF EXISTS " + table_);
    testing::Mariadb(Slurp(Env("FEED_TEST_ROOT") + "/sql/state.sql"));
  }
  TableOn(const TableOn&) = delete;
  TableOn& operator=(const TableOn&) = delete;
  // Inserts rows `select` makes of `seq` (1, 2, ... and on) until the
  // server answers that the table is full (its file cannot grow). Returns
  // false when it never did. Rows shorter than the program's leave no
  // room for one of those.
  bool Fill(const std::string& select) {
    for (int i = 0, batch = 50; i < 100000; i += batch) {
      const int rc = testing::Shell("mariadb --no-defaults --socket='" + Env("FEED_TEST_SOCKET") + "' '" +
                                    Env("FEED_TEST_DB") + "' -e \"INSERT INTO " + table_ + " SELECT " + select +
                                    " FROM (SELECT seq + " + std::to_string(i) + " AS seq FROM seq_1_to_" +
                                    std::to_string(batch) + ") s\" 2>&1 | grep -q 'is full'");
      if (rc == 0 && batch == 1) return true;
      if (rc == 0) batch = 1;  // then row by row, to the last one that fits
    }
    return false;
  }

 private:
  std::string table_, beside_;
};

const char* const kItemColumns =
    "feed VARCHAR(64) NOT NULL, item_id BIGINT NOT NULL, fingerprint BIGINT NOT NULL, modified BIGINT NOT NULL, "
    "expires BIGINT NULL, gone TINYINT NOT NULL DEFAULT 0, listed TINYINT NOT NULL DEFAULT 0, title TEXT NOT NULL, "
    "link TEXT NOT NULL, PRIMARY KEY (feed, item_id), KEY newest (feed, gone, modified, item_id)";

TEST_F(DiskIntegration, AnMsnSyncThatFindsTheTablespaceFullLosesNoChange) {
  ScratchFs fs(dir_ + "/tablespace", 4 << 20);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  testing::Mariadb("DELETE FROM feed_item_sync");
  TableOn items("feed_item_state", kItemColumns, fs.path(), "feed_item_sync");
  App app(LoadConfig(testing::WriteConfig(
      "[feed msn]\npath = /msn\ntemplate = @ROOT@/templates/msn.xml\nquery = @ROOT@/sql/sample-msn.sql\n"
      "content_type = application/rss+xml\nlifecycle = msn\nkeyset = id\nfetch_rows = 100\nguid_prefix = ad-\n"
      "value.self = http://doska.example/feeds/msn\n")));
  auto count = [](const std::string& where) {
    return std::stoul(testing::Mariadb("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn'" + where));
  };

  ASSERT_TRUE(fs.Fill(0));
  ASSERT_TRUE(items.Fill("'filler', seq, 0, 0, NULL, 0, 0, 't', 'l'")) << "the table's file could not grow";
  try {
    app.SyncItems("/msn");
    ADD_FAILURE() << "the sync succeeded with no room";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFull) << e.what();
    EXPECT_EQ(e.reason(), "the database's tablespace is full") << e.what();
  }
  EXPECT_EQ(testing::Mariadb("SELECT COUNT(*) FROM feed_item_sync WHERE feed = 'msn'"), "0\n")
      << "a sync that failed is not recorded as done";
  const size_t kept = count("");

  fs.Free();
  testing::Mariadb("DELETE FROM feed_item_state WHERE feed = 'filler'");
  const SyncReport r = app.SyncItems("/msn");
  ASSERT_GT(r.counts.shown, kept) << "the failed sync stopped before the end";
  EXPECT_EQ(kept + r.counts.created, r.counts.shown) << "every item created once, by one sync or the other";
  EXPECT_EQ(r.counts.updated + r.counts.taken_down + r.counts.dropped, 0u) << "nothing the first one wrote changed";
  EXPECT_EQ(count(""), r.counts.shown);
  EXPECT_EQ(testing::Mariadb("SELECT COUNT(*) FROM feed_item_sync WHERE feed = 'msn'"), "1\n");
  EXPECT_EQ(app.SyncItems("/msn").counts.Changes(), 0u) << "no change made twice";
}


// --- a disk quota (EDQUOT), through the program itself

// The quota shim (Makefile: build/quota_shim.so), for a folder whose budget
// is the number in `limit_file` (none: no limit); the environment lines
// that preload it into a command.
std::string QuotaEnv(const std::string& folder, const std::string& limit_file) {
  const std::string shim =
      std::getenv("FEED_TEST_QUOTA_SHIM") ? Env("FEED_TEST_QUOTA_SHIM") : Env("FEED_TEST_ROOT") + "/build/quota_shim.so";
  EXPECT_EQ(access(shim.c_str(), R_OK), 0) << shim << ": make binaries builds it";
  // A sanitized program wants its runtime first; the shim goes before it.
  const char* asan = std::getenv("ASAN_OPTIONS");
  return "LD_PRELOAD='" + shim + "' QUOTA_SHIM_DIR='" + folder + "' QUOTA_SHIM_LIMIT='" + limit_file +
         "' ASAN_OPTIONS='" + (asan && *asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0' ";
}

void SetLimit(const std::string& file, long long bytes) {
  FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fprintf(f, "%lld\n", bytes);
  std::fclose(f);
}

// What one run of the program as plain CGI gave: its exit status, the
// response it wrote (Status line and headers parsed), and its stderr.
struct CgiRun {
  int rc = -1;
  testing::Reply reply;
  std::string err;
};

CgiRun Cgi(const std::string& env, const std::string& config, const std::string& path, const std::string& dir) {
  const std::string err = dir + "/cgi-stderr";
  const std::string cmd = env + "FEED_CONFIG='" + config + "' GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET PATH_INFO=" +
                          path + " '" + Env("FEED_TEST_BIN") + "' </dev/null 2>'" + err + "'";
  CgiRun run;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  run.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.err = Slurp(err);
  const size_t end = out.find("\r\n\r\n");
  const std::string head = out.substr(0, end);
  for (size_t pos = 0; pos < head.size();) {
    size_t eol = head.find("\r\n", pos);
    if (eol == std::string::npos) eol = head.size();
    const std::string line = head.substr(pos, eol - pos);
    pos = eol + 2;
    const size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    if (line.compare(0, colon, "Status") == 0) {
      run.reply.status = std::atoi(line.c_str() + colon + 2);
    } else {
      run.reply.headers[line.substr(0, colon)] = line.substr(colon + 2);
    }
  }
  if (run.reply.status == 0 && end != std::string::npos) run.reply.status = 200;  // CGI: no Status line is 200
  run.reply.body = end == std::string::npos ? "" : out.substr(end + 4);
  return run;
}

// The sample config with its spool folder at `spool`, every body in a file.
std::string SpoolConfig(const std::string& spool) {
  const std::string config = testing::WriteSampleConfig();
  FILE* f = std::fopen(config.c_str(), "a");
  std::fprintf(f, "[server]\nspool_dir = %s\nspool_memory = 0\n", spool.c_str());
  std::fclose(f);
  return config;
}

// The answer for want of room, exactly as the full disk's (above and the
// e2e test): 503, Retry-After, one line, and the process ended well.
void ExpectNoRoomRun(const CgiRun& run, const std::string& reason) {
  EXPECT_EQ(run.rc, 0) << "the process ends as after any answer: " << run.err;
  ExpectNoRoomAnswer(run.reply, reason);
  EXPECT_EQ(run.reply.body, reason + "; try again later\n");
}

TEST_F(DiskIntegration, OverTheSpoolFoldersDiskQuotaARequestAnswers503AsOnAFullDiskAndGoesOnWhenRaised) {
  const std::string spool = dir_ + "/spool", limit = dir_ + "/limit";
  ASSERT_EQ(mkdir(spool.c_str(), 0755), 0);
  const std::string config = SpoolConfig(spool), env = QuotaEnv(spool, limit);

  const CgiRun whole = Cgi(env, config, "/yads", dir_);
  ASSERT_EQ(whole.rc, 0) << whole.err;
  ExpectWholePage(whole.reply);
  ASSERT_GT(whole.reply.body.size(), 200000u) << "a page larger than the quota below";

  // Room for the first part of the body only: the write fails mid-way.
  SetLimit(limit, 64 << 10);
  ExpectNoRoomRun(Cgi(env, config, "/yads", dir_), "the spool folder is over its disk quota");
  EXPECT_EQ(Names(spool), std::vector<std::string>{}) << "the cut file is removed";
  // No room at all, from the start: not even the start's probe file can be
  // made, and the program still answers.
  SetLimit(limit, 0);
  const CgiRun none = Cgi(env, config, "/yads", dir_);
  ExpectNoRoomRun(none, "the spool folder is over its disk quota");
  EXPECT_NE(none.err.find("Disk quota exceeded (will retry per request)"), std::string::npos) << none.err;
  EXPECT_EQ(Names(spool), std::vector<std::string>{});

  // The quota raised: the same page, whole, with nothing done by hand.
  SetLimit(limit, 64 << 20);
  const CgiRun again = Cgi(env, config, "/yads", dir_);
  EXPECT_EQ(again.rc, 0) << again.err;
  ExpectWholePage(again.reply);
  EXPECT_EQ(again.reply.body, whole.reply.body);
}

TEST_F(DiskIntegration, OverTheSetFoldersDiskQuotaAWriteFailsAsOnAFullDiskAndLeavesTheOldSetWhole) {
  const std::string www = dir_ + "/www", limit = dir_ + "/limit", maps = www + "/maps";
  ASSERT_EQ(mkdir(www.c_str(), 0755), 0);
  const std::string config = SetConfig(), env = QuotaEnv(www, limit), err = dir_ + "/stderr";
  const std::string write = env + "'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' write /sitemap.xml '" +
                            maps + "' >/dev/null 2>'" + err + "'";
  ASSERT_EQ(testing::Shell(write), 0) << Slurp(err);
  const std::map<std::string, std::string> old = Files(maps);
  ASSERT_GE(old.size(), 4u) << "an index and parts, each with its .gz";
  size_t used = 0;
  for (const auto& [name, bytes] : old) used += bytes.size();
  testing::Mariadb("UPDATE listing SET updated = updated + INTERVAL 1 SECOND WHERE status = 'active' LIMIT 50");

  auto fails = [&] {
    EXPECT_EQ(testing::Shell(write), 1) << "exits non-zero";
    EXPECT_NE(Slurp(err).find("Disk quota exceeded"), std::string::npos) << Slurp(err);
    EXPECT_NE(Slurp(err).find("left as it was"), std::string::npos) << Slurp(err);
    EXPECT_EQ(Files(maps), old) << "the old set, whole";
    EXPECT_EQ(Names(www), (std::vector<std::string>{"maps", "maps.lock"})) << "no new folder left beside it";
  };
  // Room for a part or so beside the old set: the new one fails mid-way.
  SetLimit(limit, static_cast<long long>(used) + (48 << 10));
  fails();
  // No room at all: not even its folder can be made.
  SetLimit(limit, static_cast<long long>(used));
  fails();

  SetLimit(limit, 64 << 20);
  ASSERT_EQ(testing::Shell(write), 0) << Slurp(err);
  EXPECT_NE(Files(maps), old) << "the new set, once the quota is raised";
  EXPECT_EQ(Names(www), (std::vector<std::string>{"maps", "maps.lock"}));
}

// --- a spool folder with no room when the program starts

TEST_F(DiskIntegration, ASpoolFolderWithNoRoomWhenTheProgramStartsStopsNothingAndTheRoomReturnsByItself) {
  ScratchFs fs(dir_ + "/spool", 8 << 20);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  const std::string config = SpoolConfig(fs.path());

  // Full when the web server starts the program (plain CGI: one request).
  ASSERT_TRUE(fs.Fill(0));
  const CgiRun full = Cgi("", config, "/yads", dir_);
  ExpectNoRoomRun(full, "the spool folder is full");
  EXPECT_EQ(Names(fs.path()), std::vector<std::string>{".filler"}) << "no file left";
  // Read-only: not even the start's probe file can be made.
  ASSERT_TRUE(fs.ReadOnly(true));
  const CgiRun ro = Cgi("", config, "/yads", dir_);
  ExpectNoRoomRun(ro, "the spool folder is read-only");
  EXPECT_NE(ro.err.find("Read-only file system (will retry per request)"), std::string::npos) << ro.err;

  // A long-lived process (FastCGI) started then: the start's check says
  // there is no room, which is no mistake; the room returns while it runs.
  App app(LoadConfig(config));
  try {
    app.CheckSpool();
    ADD_FAILURE() << "the check found room";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFull) << e.what();
    EXPECT_EQ(e.reason(), "the spool folder is read-only") << e.what();
  }
  ExpectNoRoomAnswer(testing::Fetch(app, YadsPage()), "the spool folder is read-only");
  ASSERT_TRUE(fs.ReadOnly(false));
  ExpectNoRoomAnswer(testing::Fetch(app, YadsPage()), "the spool folder is full");
  fs.Free();
  ExpectWholePage(testing::Fetch(app, YadsPage()));
  app.CheckSpool();
  const CgiRun later = Cgi("", config, "/yads", dir_);
  EXPECT_EQ(later.rc, 0) << later.err;
  ExpectWholePage(later.reply);
}

// --- the program's other state tables on a full tablespace

const char* const kReportColumns =
    "id BIGINT NOT NULL AUTO_INCREMENT, feed VARCHAR(64) NOT NULL, at BIGINT NOT NULL, robot VARCHAR(64) NOT NULL, "
    "client VARCHAR(64) NOT NULL, method VARCHAR(8) NOT NULL, status SMALLINT NOT NULL, rows_sent BIGINT NOT NULL, "
    "bytes BIGINT NOT NULL, millis BIGINT NOT NULL, left_out BIGINT NOT NULL, reasons TEXT NOT NULL, "
    "PRIMARY KEY (id), KEY newest (feed, id)";

// Jooble's incremental feed: what changed since the robot's last visit.
const char* const kJooble =
    "[feed jooble]\npath = /jooble\ntemplate = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = UTF-8\nsince = robot JoobleBot\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 10\noverlap_visits = 0\n";

Request RobotVisit() {
  Request req;
  req.method = "GET";
  req.path_info = "/jooble";
  req.user_agent = "Mozilla/5.0 (compatible; JoobleBot/2.0; +http://jooble.org/)";
  return req;
}

// A Jooble document whole (Content-Length its size, the root closed), and
// how many jobs it holds.
size_t WholeJobs(const testing::Reply& r) {
  EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
  EXPECT_TRUE(r.headers.count("Content-Length") && r.headers.at("Content-Length") == std::to_string(r.body.size()));
  const size_t last = r.body.find_last_not_of("\r\n");
  EXPECT_TRUE(last != std::string::npos && last >= 6 && r.body.compare(last - 6, 7, "</jobs>") == 0)
      << r.body.substr(r.body.size() > 100 ? r.body.size() - 100 : 0);
  size_t n = 0;
  for (size_t at = 0; (at = r.body.find("<job id=", at)) != std::string::npos; ++at) ++n;
  return n;
}

// The database refuses every write of `table` with the error a full
// tablespace gives (1114 "The table ... is full"), for as long as this
// lives: triggers the administrator adds and drops. A table that shares
// its tablespace with others fills where its own rows go, which the test
// cannot aim at; this makes its writes fail for sure.
class RefusedWrites {
 public:
  explicit RefusedWrites(std::string table) : table_(std::move(table)) {
    for (const char* when : {"INSERT", "UPDATE"}) {
      testing::AdminSql("CREATE TRIGGER " + Name(when) + " BEFORE " + when + " ON " + Env("FEED_TEST_DB") + "." +
                        table_ + " FOR EACH ROW SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1114, MESSAGE_TEXT = " +
                        "'The table \\'" + table_ + "\\' is full'");
    }
  }
  ~RefusedWrites() { Lift(); }
  RefusedWrites(const RefusedWrites&) = delete;
  RefusedWrites& operator=(const RefusedWrites&) = delete;
  // The room returns.
  void Lift() {
    for (const char* when : {"INSERT", "UPDATE"}) testing::AdminSql("DROP TRIGGER IF EXISTS " + Name(when));
  }

 private:
  std::string Name(const std::string& when) const {
    return Env("FEED_TEST_DB") + ".disk_test_full_" + table_ + "_" + when;
  }
  std::string table_;
};

TEST_F(DiskIntegration, ARobotsVisitThatCannotBeRecordedMovesNoRecordAndTheNextOneRecordsItself) {
  testing::Mariadb("DELETE FROM feed_robot_visit");
  App app(LoadConfig(testing::WriteConfig(kJooble)));
  auto record = [] {
    return testing::Mariadb("SELECT last_visit FROM feed_robot_visit WHERE robot = 'JoobleBot' AND feed = 'jooble'");
  };
  RefusedWrites full("feed_robot_visit");

  // The first visit: its record cannot be made.
  const testing::Reply first = testing::Fetch(app, RobotVisit());
  const size_t all = WholeJobs(first);
  ASSERT_GT(all, 0u);
  EXPECT_FALSE(first.report.visit_recorded);
  EXPECT_NE(first.report.visit_error.find("is full"), std::string::npos) << first.report.visit_error;
  EXPECT_EQ(record(), "") << "a visit not written moves no record";
  // So the robot's next visit, still without room, gets everything again.
  EXPECT_EQ(WholeJobs(testing::Fetch(app, RobotVisit())), all) << "no change lost";
  EXPECT_EQ(record(), "");

  // A record there already: a visit that cannot move it leaves it as it was.
  full.Lift();
  testing::Mariadb(
      "INSERT INTO feed_robot_visit (robot, feed, last_visit, recorded) VALUES "
      "('JoobleBot', 'jooble', '2026-10-01 00:00:00', '2026-10-01 00:00:00')");
  const size_t since = WholeJobs(testing::Fetch(app, RobotVisit()));
  testing::Mariadb("UPDATE feed_robot_visit SET last_visit = '2026-10-01 00:00:00', previous_visit = NULL");
  RefusedWrites again("feed_robot_visit");
  const testing::Reply refused = testing::Fetch(app, RobotVisit());
  EXPECT_EQ(WholeJobs(refused), since);
  EXPECT_FALSE(refused.report.visit_recorded);
  EXPECT_EQ(record(), "2026-10-01 00:00:00\n") << "the record did not advance";

  // The room returns: the next visit records itself, with nothing done by hand.
  again.Lift();
  const testing::Reply next = testing::Fetch(app, RobotVisit());
  EXPECT_EQ(WholeJobs(next), since) << "what changed since the record the failed visit left";
  EXPECT_TRUE(next.report.visit_recorded) << next.report.visit_error;
  EXPECT_GT(record(), "2026-10-01 00:00:00\n") << "the record advanced";
  EXPECT_LT(WholeJobs(testing::Fetch(app, RobotVisit())), since) << "and the one after gets what changed since it";
  testing::Mariadb("DELETE FROM feed_robot_visit");
}

TEST_F(DiskIntegration, APartPlanThatCannotBeSavedAnswers503AndTheNextIndexSavesIt) {
  testing::Mariadb("DELETE FROM feed_part_plan");
  App app(LoadConfig(SetConfig()));
  Request index;
  index.method = "GET";
  index.path_info = "/sitemap.xml";
  auto saved = [] { return testing::Mariadb("SELECT COUNT(*) FROM feed_part_plan WHERE feed = 'ads'"); };

  {
    RefusedWrites full("feed_part_plan");
    // No index without its plan saved: parts fetched later must get the
    // ranges it names.
    ExpectNoRoomAnswer(testing::Fetch(app, index), "the database's tablespace is full");
    EXPECT_EQ(saved(), "0\n");
  }
  const testing::Reply r = testing::Fetch(app, index);
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  EXPECT_NE(r.body.find("</sitemapindex>"), std::string::npos);
  EXPECT_EQ(saved(), "1\n") << "the plan saved by the next index, with nothing done by hand";
}

TEST_F(DiskIntegration, ARunReportThatCannotBeWrittenLeavesTheResponseWholeAndTheNextOneIsWritten) {
  ScratchFs fs(dir_ + "/tablespace", 4 << 20);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  testing::Mariadb("DELETE FROM feed_robot_visit");  // a person gets all since none: a full feed
  TableOn reports("feed_run_report", kReportColumns, fs.path());
  std::vector<std::string> log;
  App app(LoadConfig(testing::WriteConfig(std::string(kJooble) +
                                          "[status]\nenabled = 1\ntoken = disk-test-token-0123456789\nreports = 20\n")));
  app.SetLog([&](const std::string& line) { log.push_back(line); });
  auto written = [] { return testing::Mariadb("SELECT COUNT(*) FROM feed_run_report WHERE feed = 'jooble'"); };

  ASSERT_TRUE(fs.Fill(0));
  ASSERT_TRUE(reports.Fill("NULL, seq, 0, '', '', 'GET', 200, 0, 0, 0, 0, ''")) << "the table's file could not grow";
  Request person = RobotVisit();
  person.user_agent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0";
  const size_t all = WholeJobs(testing::Fetch(app, person));
  ASSERT_GT(all, 0u);
  app.RecordRun();  // after the response, as the FastCGI loop does: fails, logged, nothing thrown
  EXPECT_EQ(written(), "0\n");
  ASSERT_FALSE(log.empty());
  EXPECT_NE(log.back().find("the run report was not recorded"), std::string::npos) << log.back();
  EXPECT_EQ(WholeJobs(testing::Fetch(app, person)), all) << "the next response as whole";
  app.RecordRun();

  fs.Free();
  testing::Mariadb("DELETE FROM feed_run_report WHERE feed <> 'jooble'");
  EXPECT_EQ(WholeJobs(testing::Fetch(app, person)), all);
  app.RecordRun();
  EXPECT_EQ(written(), "1\n") << "the next report written, with nothing done by hand";
}

}  // namespace
}  // namespace feed
