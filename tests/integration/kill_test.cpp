// The program killed at any moment (issue #22, point 4), against the real
// database: the real binary (FEED_TEST_BIN) is run with FEED_STOP_AT naming
// a stage (lib/stop_point.h), where it sends itself SIGKILL. Afterwards
//   - a static write leaves the old set or the new one whole (every file
//     parses, the index lists exactly the parts present), and the next run
//     sweeps what the killed one left beside it (DIR.new-PID);
//   - an MSN sync leaves an item state from which the next sync and fetch
//     give MSN each change the test made exactly once (the test plays MSN
//     and keeps its own list of the changes).
// A last test kills at stages drawn by a seeded generator, several rounds,
// and checks the same. Time moves by --now, never by sleeping.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <tinyxml2.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "datetime.h"
#include "test_env.h"
#include "time_zone.h"

namespace feed {
namespace {

using testing::Env;
using testing::Slurp;

constexpr int kKilled = 128 + 9;  // the shell's status of a command SIGKILLed
constexpr size_t kBatch = 128;    // item changes a sync writes per statement (item_state.h)

// The binary with `config`, at the UTC moment `now` (0: the clock's).
std::string Bin(const std::string& config, UnixTime now = 0) {
  std::string cmd = "'" + Env("FEED_TEST_BIN") + "' --config '" + config + "'";
  if (now) {
    std::string t = FormatSqlDateTime(FromNaiveSeconds(now));
    t[10] = 'T';
    cmd += " --now " + t + "Z";
  }
  return cmd;
}

// Runs `cmd` with FEED_STOP_AT=`point` ("" for none); its exit status (the
// shell waits for it: kKilled when it was killed).
int RunStopped(const std::string& cmd, const std::string& point, const std::string& err) {
  return testing::Shell((point.empty() ? "" : "FEED_STOP_AT='" + point + "' ") + cmd + " >/dev/null 2>'" + err +
                        "'; exit $?");
}

// ---- static sets ---------------------------------------------------------

std::string Text(const tinyxml2::XMLElement* e, const char* name) {
  const tinyxml2::XMLElement* c = e ? e->FirstChildElement(name) : nullptr;
  return c && c->GetText() ? c->GetText() : "";
}

// The URLs of the set in `dir`, checked whole: the index parses and lists
// exactly the part files present, every part parses and is non-empty, no
// URL twice. Failures are reported; the URLs found are returned.
std::set<std::string> WholeSet(const std::string& dir) {
  std::set<std::string> urls, listed, present;
  tinyxml2::XMLDocument index;
  const std::string text = Slurp(dir + "/sitemap.xml");
  if (index.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS || !index.RootElement()) {
    ADD_FAILURE() << "the index does not parse: " << text.substr(0, 200);
    return urls;
  }
  for (auto* s = index.RootElement()->FirstChildElement("sitemap"); s; s = s->NextSiblingElement("sitemap")) {
    const std::string loc = Text(s, "loc");
    EXPECT_EQ(loc.rfind("http://doska.example/maps/", 0), 0u) << loc;
    listed.insert(loc.substr(loc.rfind('/') + 1));
  }
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "sitemap.xml") present.insert(name);
  }
  EXPECT_EQ(present, listed) << "the index lists exactly the parts present in " << dir;
  for (const std::string& part : present) {
    tinyxml2::XMLDocument doc;
    const std::string xml = Slurp(dir + "/" + part);
    if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) {
      ADD_FAILURE() << part << " does not parse (cut?): ..." << xml.substr(xml.size() > 100 ? xml.size() - 100 : 0);
      continue;
    }
    size_t n = 0;
    for (auto* u = doc.RootElement()->FirstChildElement("url"); u; u = u->NextSiblingElement("url"), ++n) {
      EXPECT_TRUE(urls.insert(Text(u, "loc")).second) << Text(u, "loc") << " twice";
    }
    EXPECT_GT(n, 0u) << part;
  }
  return urls;
}

// The active ads' URLs, by the test's own SQL.
std::set<std::string> ActiveUrls() {
  std::set<std::string> s;
  for (const auto& r : testing::Table("SELECT CONCAT('http://doska.example/ad/', ref, '.html') FROM listing WHERE "
                                      "status = 'active'")) {
    s.insert(r[0]);
  }
  return s;
}

// The names beside `dir` that begin with its own.
std::set<std::string> Beside(const std::string& dir) {
  std::set<std::string> names;
  const std::filesystem::path d(dir);
  for (const auto& e : std::filesystem::directory_iterator(d.parent_path())) {
    const std::string n = e.path().filename().string();
    if (n.rfind(d.filename().string(), 0) == 0) names.insert(n);
  }
  return names;
}

class KillIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 10); }
  void SetUp() override {
    testing::Mariadb("DELETE FROM feed_part_plan; TRUNCATE feed_item_state; TRUNCATE feed_item_sync;");
    work_ = testing::TempDir("kill");
    dir_ = work_ + "/maps";
  }
  void TearDown() override { std::filesystem::remove_all(work_); }

  std::string SetConfig() {
    return testing::WriteConfig(
        "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
        "publish_url = http://doska.example/maps\n"
        "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
        "keyset = id\nlastmod = lastmod\nfetch_rows = 97\nmax_items = 300\n");
  }

  // One round: the set written whole, the board changed (40 ads hidden),
  // a write killed at `point`. The folder then holds the old set whole
  // (killed before the swap) or the new one (after), the killed run's
  // DIR.new-PID beside it; the next run leaves the new set and nothing
  // else beside it.
  void WriteRound(const std::string& point, bool swapped) {
    SCOPED_TRACE(point);
    const std::string config = SetConfig(), err = work_ + "/err";
    const std::string write = Bin(config) + " write /sitemap.xml '" + dir_ + "'";
    ASSERT_EQ(RunStopped(write, "", err), 0) << Slurp(err);
    const std::set<std::string> old_set = ActiveUrls();
    ASSERT_EQ(WholeSet(dir_), old_set);
    testing::Mariadb("UPDATE listing SET status = 'hidden' WHERE status = 'active' ORDER BY id LIMIT 40");
    const std::set<std::string> new_set = ActiveUrls();
    ASSERT_EQ(new_set.size() + 40, old_set.size());

    ASSERT_EQ(RunStopped(write, point, err), kKilled) << "not killed at " << point << ": " << Slurp(err);
    EXPECT_EQ(WholeSet(dir_), swapped ? new_set : old_set) << "killed at " << point;
    const std::set<std::string> left = Beside(dir_);
    EXPECT_EQ(
        std::count_if(left.begin(), left.end(), [](const std::string& n) { return n.rfind("maps.new-", 0) == 0; }), 1)
        << "the killed run's folder is left";

    ASSERT_EQ(RunStopped(write, "", err), 0) << Slurp(err);
    EXPECT_EQ(Beside(dir_), (std::set<std::string>{"maps", "maps.lock"})) << "swept by the next run";
    EXPECT_EQ(WholeSet(dir_), new_set);
  }

  std::string work_, dir_;
};

TEST_F(KillIntegration, AWriteKilledAtEachStageLeavesTheOldOrTheNewSetWholeAndTheNextRunSweeps) {
  // Parts are written 300 URLs each: about ten of them.
  WriteRound("write.part:1", false);
  WriteRound("write.part:4", false);
  WriteRound("write.swap", false);
  WriteRound("write.swapped", true);
  testing::Mariadb("UPDATE listing SET status = 'active' WHERE status = 'hidden'");
}

// ---- MSN syncs ------------------------------------------------------------

// MSN's ingestion as seed 004 states it: an unknown guid is a creation; a
// known one with a newer modified date an update, or a take-down when its
// expiration has passed; the same date is skipped.
struct Msn {
  std::map<std::string, UnixTime> modified;
  std::map<std::string, int> created, updated, taken_down;

  static UnixTime Utc(const std::string& s) {
    auto t = s.size() == 20 ? ParseSqlDateTime(s.substr(0, 10) + " " + s.substr(11, 8)) : std::nullopt;
    EXPECT_TRUE(t) << s;
    return t ? NaiveSeconds(*t) : 0;
  }
  void Ingest(const std::string& body, UnixTime at) {
    tinyxml2::XMLDocument doc;
    ASSERT_EQ(doc.Parse(body.data(), body.size()), tinyxml2::XML_SUCCESS) << body.substr(0, 300);
    const tinyxml2::XMLElement* channel = doc.RootElement()->FirstChildElement("channel");
    ASSERT_TRUE(channel);
    for (auto* e = channel->FirstChildElement("item"); e; e = e->NextSiblingElement("item")) {
      const std::string guid = Text(e, "guid"), expires = Text(e, "mi:expirationDate");
      const UnixTime m = Utc(Text(e, "dcterms:modified"));
      const bool expired = !expires.empty() && Utc(expires) < at;
      auto it = modified.find(guid);
      if (it == modified.end()) {
        modified[guid] = m;
        ++created[guid];
      } else if (m > it->second) {
        it->second = m;
        ++(expired ? taken_down : updated)[guid];
      }
    }
  }
  void Clear() { created.clear(), updated.clear(), taken_down.clear(); }
};

std::map<std::string, int> Once(const std::vector<int64_t>& ids) {
  std::map<std::string, int> m;
  for (int64_t id : ids) m["ad-" + std::to_string(id)] = 1;
  return m;
}

std::string Join(const std::vector<int64_t>& ids) {
  std::string s;
  for (int64_t id : ids) s += (s.empty() ? "" : ",") + std::to_string(id);
  return s;
}

class KillSyncIntegration : public KillIntegration {
 protected:
  void SetUp() override {
    KillIntegration::SetUp();
    config_ = testing::WriteConfig(
        "[feed msn]\npath = /msn\ntemplate = @ROOT@/templates/msn.xml\nquery = @ROOT@/sql/sample-msn.sql\n"
        "content_type = application/rss+xml\nlifecycle = msn\nkeyset = id\nfetch_rows = 100\nguid_prefix = ad-\n"
        "max_items = 50000\nvalue.self = http://doska.example/feeds/msn\n");
    now_ = testing::Kiev().ToUnix({2026, 11, 1, 12, 0, 0});
    Fetch();
    msn_.Clear();
  }
  // What the board shows at `t`, by the mapping's rule (active, within
  // added + period).
  static std::vector<int64_t> Shown(UnixTime t) {
    std::vector<int64_t> ids;
    for (const auto& row : testing::Table("SELECT id FROM listing WHERE status = 'active' AND added + INTERVAL "
                                          "IF(days > 0, days, 30) DAY > '" +
                                          FormatSqlDateTime(testing::Kiev().FromUnix(t)) + "' ORDER BY id")) {
      ids.push_back(std::stoll(row[0]));
    }
    return ids;
  }
  // `feed.fcgi sync` then a fetch (render /msn) at now_, ingested by MSN.
  void Fetch() {
    const std::string err = work_ + "/err", out = work_ + "/msn.xml";
    ASSERT_EQ(RunStopped(Bin(config_, now_) + " sync /msn", "", err), 0) << Slurp(err);
    ASSERT_EQ(RunStopped(Bin(config_, now_) + " render /msn -o '" + out + "'", "", err), 0) << Slurp(err);
    msn_.Ingest(Slurp(out), now_ + 1);
  }
  // What `before` has and `after` has not (both ascending).
  static std::vector<int64_t> Gone(const std::vector<int64_t>& before, const std::vector<int64_t>& after) {
    std::vector<int64_t> out;
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(out));
    return out;
  }
  // The server drops a killed process's connection, and its run lock with it.
  static void WaitForTheKilledRunsLock() {
    EXPECT_TRUE(
        testing::PollUntil([] { return testing::Table("SELECT IS_FREE_LOCK('feed.fcgi sync msn')")[0][0] == "1"; }));
  }
  std::string ItemsAt(UnixTime t) {
    return testing::Table("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn' AND modified = " +
                          std::to_string(t))[0][0];
  }

  // One round: `edits` shown ads edited and `hides` hidden (each a change
  // MSN must see once: an update, a take-down), a sync killed at `point`,
  // `written` item records (0: any) then carrying its moment; then the next
  // sync and fetch give MSN each change exactly once, and nothing else.
  // `command`: the sync command, or a fetch (render), which syncs first.
  void SyncRound(const std::string& point, int written, size_t edits = 300, size_t hides = 10,
                 const std::string& command = "sync /msn") {
    SCOPED_TRACE(point);
    const std::vector<int64_t> shown_before = Shown(now_);
    std::vector<int64_t> shown = Shown(now_ + 60);
    ASSERT_GT(shown.size(), edits + hides);
    // Spread over the board, so that batches hold both kinds.
    std::shuffle(shown.begin(), shown.end(), std::mt19937(static_cast<unsigned>(now_)));
    std::vector<int64_t> edited(shown.begin(), shown.begin() + edits),
        hidden(shown.begin() + edits, shown.begin() + edits + hides);
    std::sort(edited.begin(), edited.end());
    std::sort(hidden.begin(), hidden.end());
    testing::Mariadb("UPDATE listing SET body = CONCAT(body, ' v', id) WHERE id IN (" + Join(edited) + ");" +
                     "UPDATE listing SET status = 'hidden' WHERE id IN (" + Join(hidden) + ")");
    const std::string synced_before = testing::Table("SELECT synced FROM feed_item_sync WHERE feed = 'msn'")[0][0];
    now_ += 60;
    const std::string err = work_ + "/err";
    ASSERT_EQ(RunStopped(Bin(config_, now_) + " " + command, point, err), kKilled) << "not killed: " << Slurp(err);
    // An ad that ran out meanwhile is a take-down too.
    const std::vector<int64_t> gone = Gone(shown_before, Shown(now_));
    if (written < 0) written = static_cast<int>(edits + gone.size());
    EXPECT_EQ(ItemsAt(now_), std::to_string(written)) << "what the killed sync wrote, whole batches";
    WaitForTheKilledRunsLock();
    EXPECT_EQ(testing::Table("SELECT synced FROM feed_item_sync WHERE feed = 'msn'")[0][0], synced_before)
        << "the killed sync's moment is not recorded";
    now_ += 60;
    msn_.Clear();
    Fetch();
    EXPECT_EQ(msn_.updated, Once(edited)) << "every edit once";
    const std::vector<int64_t> taken_down = Gone(shown_before, Shown(now_));
    for (int64_t id : hidden) EXPECT_TRUE(std::binary_search(taken_down.begin(), taken_down.end(), id)) << id;
    EXPECT_EQ(msn_.taken_down, Once(taken_down)) << "every hidden ad (or ad run out) taken down once";
    EXPECT_TRUE(msn_.created.empty()) << msn_.created.begin()->first;
    // And nothing more after: the next round of sync and fetch repeats none.
    now_ += 60;
    msn_.Clear();
    Fetch();
    EXPECT_TRUE(msn_.updated.empty() && msn_.taken_down.empty() && msn_.created.empty());
  }

  std::string config_;
  UnixTime now_ = 0;
  Msn msn_;
};

TEST_F(KillSyncIntegration, ASyncKilledBetweenBatchesOrAfterItsLastGivesMsnEachChangeOnce) {
  SyncRound("sync.batch:1", kBatch);
  SyncRound("sync.batch:2", 2 * kBatch);
  SyncRound("sync.merged", -1);
}

// A fetch syncs first when the last sync is older than settle_seconds: the
// same stages killed there.
TEST_F(KillSyncIntegration, AFetchKilledInItsSyncGivesMsnEachChangeOnce) {
  const std::string fetch = "render /msn -o /dev/null";
  SyncRound("sync.batch:1", kBatch, 300, 10, fetch);
  SyncRound("sync.merged", -1, 300, 10, fetch);
}

// Inside a batch: its statement is held in the server by a row lock this
// test holds (on an item of the second batch) while the process is killed;
// then the lock is released. The server applies the orphaned statement
// whole or not at all: 128 or 256 records carry the killed sync's moment,
// never a number in between, and the next sync and fetch give each change
// once.
TEST_F(KillSyncIntegration, ASyncKilledInsideABatchLeavesItWholeOrNotAtAll) {
  std::vector<int64_t> shown = Shown(now_ + 60);
  std::vector<int64_t> edited(shown.begin(), shown.begin() + 300);
  testing::Mariadb("UPDATE listing SET body = CONCAT(body, ' w') WHERE id IN (" + Join(edited) + ")");
  const int64_t held = edited[200];  // in the second batch of 128
  const std::string pid_file = work_ + "/pid", err = work_ + "/err";
  const std::string client =
      "mariadb --no-defaults --socket='" + Env("FEED_TEST_SOCKET") + "' -ufeed -pfeed " + Env("FEED_TEST_DB");
  ASSERT_EQ(testing::Shell(
                client + " -e \"BEGIN; SELECT item_id FROM feed_item_state WHERE feed = 'msn' AND item_id = " +
                std::to_string(held) + " FOR UPDATE; SELECT SLEEP(300) AS feed_kill_test_hold\" >/dev/null 2>&1 &"),
            0);
  auto holder = [] {
    auto r = testing::Table(
        "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%feed_kill_test_hold%' AND ID <> "
        "CONNECTION_ID()");
    return r.empty() ? std::string() : r[0][0];
  };
  ASSERT_TRUE(testing::PollUntil([&] { return !holder().empty(); }));
  now_ += 60;
  ASSERT_EQ(testing::Shell(Bin(config_, now_) + " sync /msn >/dev/null 2>'" + err + "' & echo $! >'" + pid_file + "'"),
            0);
  const std::string pid = Slurp(pid_file).substr(0, Slurp(pid_file).find('\n'));
  const std::string waiting =
      "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO feed_item_state%' AND ID <> "
      "CONNECTION_ID()";
  ASSERT_TRUE(testing::PollUntil([&] { return testing::Table(waiting)[0][0] == "1"; })) << Slurp(err);
  EXPECT_EQ(ItemsAt(now_), std::to_string(kBatch)) << "the first batch written, the second held";
  ASSERT_EQ(kill(std::stoi(pid), SIGKILL), 0);
  ASSERT_TRUE(testing::PollUntil([&] {
    std::string stat = Slurp("/proc/" + pid + "/stat");
    return stat.empty() || stat.find(") Z ") != std::string::npos;
  }));
  testing::Mariadb("KILL CONNECTION " + holder());
  ASSERT_TRUE(testing::PollUntil([&] { return testing::Table(waiting)[0][0] == "0"; }));
  WaitForTheKilledRunsLock();
  const std::string written = ItemsAt(now_);
  EXPECT_TRUE(written == std::to_string(kBatch) || written == std::to_string(2 * kBatch)) << written;
  now_ += 60;
  msn_.Clear();
  Fetch();
  EXPECT_EQ(msn_.updated, Once(edited));
  EXPECT_TRUE(msn_.created.empty() && msn_.taken_down.empty());
}

// Stages drawn at random (seeded: a failure names its seed and repeats),
// a handful of rounds of each kind, the same checks every time.
TEST_F(KillSyncIntegration, KilledAtRandomStagesNothingIsLostDoubledOrLeftBehind) {
  const unsigned seed = 2204;
  std::mt19937 rng(seed);
  for (int round = 0; round < 5; ++round) {
    SCOPED_TRACE("seed " + std::to_string(seed) + ", round " + std::to_string(round));
    if (rng() % 2 == 0) {
      const int stage = static_cast<int>(rng() % 4);
      const int part = 1 + static_cast<int>(rng() % 9);
      const char* points[] = {"write.part", "write.part", "write.swap", "write.swapped"};
      WriteRound(std::string(points[stage]) + (stage < 2 ? ":" + std::to_string(part) : ""), stage == 3);
      // The ads it hid reach MSN in a sync of their own.
      Fetch();
      msn_.Clear();
    } else {
      const size_t edits = 150 + rng() % 200, hides = 1 + rng() % 20;
      const size_t batches = (edits + hides) / kBatch;
      const size_t b = 1 + rng() % std::max<size_t>(batches, 1);
      if (rng() % 3 == 0) {
        SyncRound("sync.merged", -1, edits, hides);
      } else {
        SyncRound("sync.batch:" + std::to_string(b), static_cast<int>(b * kBatch), edits, hides);
      }
    }
    if (HasFailure()) break;
  }
  testing::Mariadb("UPDATE listing SET status = 'active' WHERE status = 'hidden'");
}

}  // namespace
}  // namespace feed
