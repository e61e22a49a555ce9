// No room to write (issue #22, point 3), against the real database: the
// spool folder and a static set's folder on a small tmpfs of the test's own
// (tests/support/scratch_fs.h), made full (ENOSPC) or read-only (EROFS) by
// the test. A live request is then answered 503 with Retry-After and a
// one-line reason, never a short body; a static write fails, saying why, and
// leaves the old set whole with no temporary folder behind; an MSN sync
// that finds the item-state table's tablespace full (its file on such a
// file system: error 1114) fails, recorded as not done, and loses no
// change; and once the space returns, all go on with nothing done by hand.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
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

}  // namespace
}  // namespace feed
