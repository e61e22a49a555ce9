// Reads from replicas (issue #13), against a real MariaDB primary and two
// GTID replicas that tests/harness/replicas.sh started (tests/run.sh runs
// these tests with FEED_TEST_SOCKET and FEED_TEST_DB_DIR pointing at the
// primary, FEED_TEST_REPLICA{1,2}_SOCKET at the replicas and
// FEED_TEST_REPLICA_DIR at the set). Two in-process Apps play two web
// nodes with the same config and secret, node A reading replica 1, node B
// replica 2; a robot's run alternates between them while the test writes
// on the primary and makes replica 2 lag.
//
// The rule the pages are held to, independent of the code: a page shows
// the primary's rows as of a moment no earlier than the previous page's.
// The test's writes between two pages are applied on replica 1 (the test
// waits for that) before the next page is asked for, so every page a
// correct node serves shows them; a page from the lagging replica 2 would
// not.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "datetime.h"
#include "status.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Reply;
using testing::Table;
using testing::Unhex;

// SQL as the harness's admin (unix_socket) on one server; the output, -N -B.
std::string Admin(const std::string& socket, const std::string& sql) {
  std::string cmd = "mariadb --no-defaults -N -B --socket='" + socket + "' -e \"" + sql + "\" 2>&1";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string Primary() { return Env("FEED_TEST_SOCKET"); }
std::string Replica(int i) { return Env(i == 1 ? "FEED_TEST_REPLICA1_SOCKET" : "FEED_TEST_REPLICA2_SOCKET"); }
std::string PrimaryPosition() { return Admin(Primary(), "SELECT @@gtid_binlog_pos"); }

// Waits (the server's own event wait, with a deadline) until replica `i`
// has applied what the primary holds now.
bool CaughtUp(int i, int seconds = 30) {
  return Admin(Replica(i), "SELECT MASTER_GTID_WAIT('" + PrimaryPosition() + "', " + std::to_string(seconds) + ")") ==
         "0";
}

// The sample config's Yads feed, a Jooble feed, a sitemap of the ads and
// the MSN feed, with `replicas` as
// [database replica rN] sections (N the replica's number; 0 a replica that
// does not exist, named r0), replica_wait 1 s and replica_check 1 s;
// written to a file of its own (the caller removes it).
std::string NodeConfigFile(const std::vector<int>& replicas) {
  std::string text = testing::Slurp(testing::WriteSampleConfig({{"page_size", "50"}, {"fetch_rows", "20"}}));
  const std::string db = "[database]\n";
  text.replace(text.find(db), db.size(), db + "replica_wait = 1\nreplica_check = 1\n");
  for (int i : replicas) {
    text += "[database replica r" + std::to_string(i) +
            "]\nsocket = " + (i == 0 ? Env("FEED_TEST_REPLICA_DIR") + "/none/mysqld.sock" : Replica(i)) + "\n";
  }
  const std::string root = Env("FEED_TEST_ROOT");
  text += "[feed jooble]\ntemplate = " + root + "/templates/jooble.xml\nquery = " + root +
          "/sql/sample-jooble.sql\nencoding = UTF-8\nsince = robot JoobleBot\nkeyset = updated id\n"
          "settle_seconds = 0\n";
  // A sitemap of the ads in parts of at most 400, and the MSN feed.
  text += "[set sitemap]\npath = /sitemap.xml\ntemplate = " + root +
          "/templates/sitemap-index.xml\nsections = ads\npublish_url = http://doska.example/maps\n"
          "[feed ads]\ntemplate = " +
          root + "/templates/sitemap.xml\nquery = " + root + "/sql/sample-sitemap-ads.sql\nstate_query = " + root +
          "/sql/sample-sitemap-ads-state.sql\nkeyset = id\nlastmod = lastmod\nfetch_rows = 97\nmax_items = 400\n"
          "[feed msn]\npath = /msn\ntemplate = " +
          root + "/templates/msn.xml\nquery = " + root +
          "/sql/sample-msn.sql\ncontent_type = application/rss+xml\nlifecycle = msn\nkeyset = id\n"
          "fetch_rows = 100\nguid_prefix = ad-\nvalue.self = http://doska.example/feeds/msn\n";
  const std::string path = testing::TempDir("replica") + "/node.ini";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

Config NodeConfig(const std::vector<int>& replicas) {
  const std::string path = NodeConfigFile(replicas);
  Config c = LoadConfig(path);
  std::remove(path.c_str());
  std::remove(path.substr(0, path.rfind('/')).c_str());
  return c;
}

struct Page {
  int status = 0;
  std::string read_from;
  std::map<std::string, std::string> titles;  // ref -> title
  std::string token;
  std::string body;
};

Page Fetch(App& app, const std::string& query) {
  Request req;
  req.path_info = "/yads";
  req.query_string = query;
  Reply r = testing::Fetch(app, req);
  Page p;
  p.status = r.status;
  p.read_from = r.report.read_from;
  p.body = r.body;
  if (r.status != 200) return p;
  const std::string utf8 = testing::Cp1251ToUtf8(r.body);
  tinyxml2::XMLDocument doc;
  if (doc.Parse(utf8.c_str(), utf8.size()) != tinyxml2::XML_SUCCESS) {
    ADD_FAILURE() << "page does not parse: " << doc.ErrorStr();
    return p;
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  for (const tinyxml2::XMLElement* ad = root->FirstChildElement("ads")->FirstChildElement("ad"); ad;
       ad = ad->NextSiblingElement("ad")) {
    const char* id = ad->FirstChildElement("id")->GetText();
    const char* title = ad->FirstChildElement("title")->GetText();
    EXPECT_TRUE(p.titles.emplace(id ? id : "", title ? title : "").second) << "ad " << id << " twice on a page";
  }
  if (const tinyxml2::XMLElement* c = root->FirstChildElement("continue")) p.token = c->GetText() ? c->GetText() : "";
  return p;
}

const ServerStatus& StatusOf(App& app, const std::string& name) {
  static ServerStatus none;
  static std::vector<ServerStatus> last;
  last = app.servers().servers();
  for (const ServerStatus& s : last) {
    if (s.name == name) return s;
  }
  return none;
}

Reply Get(App& app, const std::string& path, const std::string& query = "") {
  Request req;
  req.path_info = path;
  req.query_string = query;
  return testing::Fetch(app, req);
}

// The highest number of `section`'s parts that the sitemap index lists (0
// for none).
int LastPart(const std::string& index, const std::string& section) {
  const std::string stem = "/sitemap-" + section + "-";
  int last = 0;
  for (size_t at = index.find(stem); at != std::string::npos; at = index.find(stem, at + 1)) {
    last = std::max(last, std::atoi(index.c_str() + at + stem.size()));
  }
  return last;
}

// Stops the primary (mariadb.sh); the returned guard starts whatever is not
// running again when it goes (or at Run()), also when an assertion ends
// the test early.
struct Restart {
  std::string cmd;
  void Run() {
    if (!cmd.empty()) testing::Shell(cmd);
    cmd.clear();
  }
  ~Restart() { Run(); }
};
std::unique_ptr<Restart> StopPrimary() {
  const std::string root = Env("FEED_TEST_ROOT");
  EXPECT_EQ(testing::Shell("'" + root + "/tests/harness/mariadb.sh' stop '" + Env("FEED_TEST_DB_DIR") + "' >/dev/null"),
            0);
  auto restart = std::make_unique<Restart>();  // (a copy would run it when the copy goes)
  // A replica held back stays so: the start does not wait for it.
  restart->cmd = "NO_CATCH_UP=1 '" + root + "/tests/harness/replicas.sh' start '" + Env("FEED_TEST_REPLICA_DIR") +
                 "' >/dev/null 2>&1";
  return restart;
}

// `feed.fcgi check` with `config`: its exit status and output.
struct CheckRun {
  int status;
  std::string out;
};
CheckRun RunCheck(const std::string& config, const std::string& flags = "") {
  const std::string out = config + ".out";
  const int rc = testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' check " + flags + " >'" +
                                out + "' 2>&1");
  CheckRun r{rc, testing::Slurp(out)};
  std::remove(out.c_str());
  return r;
}

// The line of `out` that starts with `start` ("" when none).
std::string LineStarting(const std::string& out, const std::string& start) {
  for (size_t at = 0; at < out.size();) {
    const size_t end = std::min(out.find('\n', at), out.size());
    if (out.compare(at, start.size(), start) == 0) return out.substr(at, end - at);
    at = end + 1;
  }
  return "";
}

const char kSince[] = "2026-10-01 00:00:00";
const char kQuery[] = "date=2026-10-01+00:00:00";
const char kValid[] = " AND ref REGEXP '^[A-Za-z0-9]{1,32}$'";

// Starts whichever of the three servers is not running (replicas.sh).
int StartServers() {
  return testing::Shell("'" + Env("FEED_TEST_ROOT") + "/tests/harness/replicas.sh' start '" +
                        Env("FEED_TEST_REPLICA_DIR") + "' >/dev/null 2>&1");
}

// The Yads form of <continue>: 1 to 32 letters and digits.
bool YadsToken(const std::string& token) {
  static const std::regex form("^[0-9A-Za-z]{1,32}$");
  return std::regex_match(token, form);
}

class ReplicaIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(StartServers(), 0);
    testing::LoadSampleBoard(1200, 300, 7);
    ASSERT_TRUE(CaughtUp(1) && CaughtUp(2)) << "the replicas did not take the sample board";
  }
  void SetUp() override {
    // Each test starts with all three servers up (a test may have stopped
    // one) and both replicas replicating, without delay.
    ASSERT_EQ(StartServers(), 0);
    for (int i : {1, 2}) {
      Admin(Replica(i), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE");
      ASSERT_TRUE(CaughtUp(i)) << "replica " << i << ": " << Admin(Replica(i), "SHOW SLAVE STATUS\\G");
    }
  }
  void TearDown() override {
    for (int i : {1, 2}) Admin(Replica(i), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE");
  }

  // The refs of the ads the feed must show now, by the feed's rule read on
  // the primary: active, added since kSince, a valid ref.
  static std::map<std::string, std::string> Shown() {
    std::map<std::string, std::string> out;
    for (const auto& r : Table(std::string("SELECT HEX(ref), HEX(title) FROM listing WHERE status = 'active' AND "
                                           "added >= '") +
                               kSince + "'" + kValid)) {
      out[Unhex(r[0])] = Unhex(r[1]);
    }
    return out;
  }

  // A robot's run alternating between `a` and `b` (page 1 from `a`); after
  // each page the test deletes an ad and edits one well ahead of the
  // robot, adds one after every ad, and waits until replica 1 has all of
  // that. `between` runs after that too (it may break a server). Checks
  // every page against the primary and returns the pages.
  std::vector<Page> Run(App& a, App& b, const std::function<void(size_t page)>& between = nullptr) {
    std::vector<Page> pages;
    std::set<std::string> deleted, added;
    std::map<std::string, std::string> edited;  // ref -> new title
    const auto at_start = Shown();
    std::string token;
    for (size_t k = 0;; ++k) {
      App& node = k % 2 == 0 ? a : b;
      Page p;
      // A 503 (no server can serve this page now) is asked again, as a
      // robot does after Retry-After; never more than a few times.
      for (int attempt = 0; attempt < 20; ++attempt) {
        p = Fetch(node, std::string(kQuery) + (token.empty() ? "" : "&continue=" + token));
        if (p.status != 503) break;
      }
      EXPECT_EQ(p.status, 200) << p.body;
      if (p.status != 200) break;
      pages.push_back(p);
      for (const auto& [ref, title] : p.titles) {
        EXPECT_FALSE(deleted.count(ref)) << "page " << k << " from " << p.read_from << " shows ad " << ref
                                         << ", deleted before it was asked for";
        if (auto e = edited.find(ref); e != edited.end()) {
          EXPECT_EQ(title, e->second) << "page " << k << " from " << p.read_from << " shows ad " << ref
                                      << " as it was before an edit made before the page was asked for";
        }
      }
      token = p.token;
      if (token.empty()) break;
      if (k > 60) {
        ADD_FAILURE() << "the run does not end";
        break;
      }
      // Ahead of the robot: the 80th ad and later past the last one sent
      // (a page is 50), on the primary.
      auto ahead =
          Table(std::string("SELECT id, HEX(ref) FROM listing WHERE status = 'active' AND added >= '") + kSince + "'" +
                kValid + " ORDER BY added, id LIMIT 2 OFFSET " + std::to_string(50 * (k + 1) + 80 - deleted.size()));
      if (ahead.size() == 2) {
        const std::string ref0 = Unhex(ahead[0][1]), ref1 = Unhex(ahead[1][1]);
        Admin(Primary(), "DELETE FROM sample_test.listing WHERE id = " + ahead[0][0]);
        deleted.insert(ref0);
        const std::string title = "Правка " + std::to_string(k);
        Admin(Primary(),
              "SET NAMES utf8mb4; UPDATE sample_test.listing SET title = '" + title + "' WHERE id = " + ahead[1][0]);
        edited[ref1] = title;
      }
      const std::string ref = "R" + std::to_string(++added_count_) + "ADD" + std::to_string(k);
      const std::string now = FormatSqlDateTime(testing::Kiev().FromUnix(Now()));
      Admin(Primary(), "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES ('" + ref +
                           "', 'New', '', '" + now + "', '" + now + "')");
      added.insert(ref);
      EXPECT_TRUE(CaughtUp(1)) << "replica 1 did not apply the writes";
      if (between) between(k);
    }
    // No ad lost or doubled: every ad that qualified at the start and was
    // not deleted, and every one added during the run, exactly once.
    std::map<std::string, int> got;
    for (const Page& p : pages) {
      for (const auto& [ref, title] : p.titles) ++got[ref];
    }
    for (const auto& [ref, n] : got) EXPECT_EQ(n, 1) << "ad " << ref << " sent " << n << " times";
    for (const auto& [ref, title] : at_start) {
      if (!deleted.count(ref)) {
        EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " lost";
      }
    }
    for (const std::string& ref : added) EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " added ahead, lost";
    EXPECT_GE(deleted.size(), 3u);
    return pages;
  }
  static inline int added_count_ = 0;  // unique refs across the tests
};

// Replica 2's SQL thread is stopped for the whole run (and the primary
// moves on): node B must not read from it once the run's position is past
// it, and its pages come from the primary.
TEST_F(ReplicaIntegration, PagingAcrossTwoNodesWithAStoppedReplicaIsExact) {
  Admin(Replica(2), "STOP SLAVE SQL_THREAD");
  Admin(Primary(), "UPDATE sample_test.listing SET updated = updated WHERE id = 1; DO 1");
  Admin(Primary(),
        "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES "
        "('REPLSTOP', 'x', '', NOW(), NOW())");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  std::vector<Page> pages = Run(a, b);
  ASSERT_GE(pages.size(), 10u);
  for (size_t k = 0; k < pages.size(); ++k) {
    EXPECT_EQ(pages[k].read_from, k % 2 == 0 ? "r1" : "primary") << "page " << k;
  }
  EXPECT_EQ(StatusOf(b, "r2").health, ServerHealth::kDetached);
  EXPECT_NE(StatusOf(b, "r2").error.find("Slave_SQL_Running No"), std::string::npos) << StatusOf(b, "r2").error;
  EXPECT_EQ(StatusOf(a, "r1").health, ServerHealth::kHealthy);
}

// A token issued before replicas (by a node without any: no position in
// it) is still taken; only the primary is surely as new as its first page,
// so the page comes from there, and its own token carries a position.
TEST_F(ReplicaIntegration, ATokenOfBeforeReplicasIsServedByThePrimary) {
  App old_node(NodeConfig({})), a(NodeConfig({1}));
  Page first = Fetch(old_node, kQuery);
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.read_from, "primary");
  ASSERT_FALSE(first.token.empty());
  EXPECT_TRUE(YadsToken(first.token)) << first.token;
  Page second = Fetch(a, std::string(kQuery) + "&continue=" + first.token);
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(second.read_from, "primary");
  // Its position is inside the 32 characters: the next page may be a replica's.
  EXPECT_TRUE(YadsToken(second.token)) << second.token;
  Page third = Fetch(a, std::string(kQuery) + "&continue=" + second.token);
  ASSERT_EQ(third.status, 200) << third.body;
  EXPECT_EQ(third.read_from, "r1");
  // A token altered by hand is refused like any forged token.
  std::string forged = second.token;
  forged.back() = forged.back() == '9' ? '8' : '9';
  EXPECT_EQ(Fetch(a, std::string(kQuery) + "&continue=" + forged).status, 400);
}

// Replica 2 replicates but an hour behind (MASTER_DELAY): healthy by its
// threads, it cannot reach any position of the run within replica_wait,
// so node B serves from the primary; its first look is its own.
TEST_F(ReplicaIntegration, ALaggingReplicaNeverServesAPageOlderThanTheRun) {
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 3600; START SLAVE");
  Admin(Primary(),
        "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES "
        "('REPLLAG', 'x', '', NOW(), NOW())");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  std::vector<Page> pages = Run(a, b);
  ASSERT_GE(pages.size(), 10u);
  for (size_t k = 1; k < pages.size(); k += 2) EXPECT_EQ(pages[k].read_from, "primary") << "page " << k;
  EXPECT_EQ(StatusOf(b, "r2").health, ServerHealth::kHealthy);
  EXPECT_GE(StatusOf(b, "r2").passed_over, static_cast<int64_t>(pages.size() / 2));
  // A first page asks for no position: the lagging replica serves it.
  EXPECT_EQ(Fetch(b, kQuery).read_from, "r2");
}

// Node B has both replicas: replica 2 first. It is killed mid-run and
// started again: the pages go on (from replica 1 meanwhile), and replica 2
// is used again once it is back.
TEST_F(ReplicaIntegration, AReplicaKilledMidRunIsSkippedAndComesBack) {
  App a(NodeConfig({1})), b(NodeConfig({2, 1}));
  const std::string dir = Env("FEED_TEST_REPLICA_DIR"), root = Env("FEED_TEST_ROOT");
  bool killed = false, restarted = false;
  std::vector<Page> pages = Run(a, b, [&](size_t k) {
    if (k == 2) {
      ASSERT_EQ(testing::Shell("kill -9 $(cat '" + dir + "/replica2/run/mariadbd.pid')"), 0);
      ASSERT_TRUE(testing::PollUntil([&] { return Admin(Replica(2), "SELECT 1") != "1"; }));
      killed = true;
    }
    if (k == 6) {
      ASSERT_EQ(testing::Shell("'" + root + "/tests/harness/replicas.sh' start '" + dir + "' >/dev/null 2>&1"), 0);
      restarted = true;
    }
  });
  ASSERT_TRUE(killed && restarted);
  ASSERT_GE(pages.size(), 10u);
  EXPECT_EQ(pages[1].read_from, "r2");
  for (size_t k = 3; k <= 5; k += 2) EXPECT_EQ(pages[k].read_from, "r1") << "page " << k << " while r2 is dead";
  // Back: replicas.sh waited until it caught up; health is asked again
  // within replica_check (1 s) of the system clock.
  ASSERT_TRUE(testing::PollUntil([&] { return Fetch(b, kQuery).read_from == "r2"; }, 10000));
  EXPECT_EQ(StatusOf(b, "r2").health, ServerHealth::kHealthy);
}

// The primary stopped: pages still come from the replicas (their I/O
// threads cannot connect, their data stands), a JoobleBot visit is served
// whole from a replica, its record stays where it was, and the failed
// write is counted for the status page.
TEST_F(ReplicaIntegration, WithThePrimaryStoppedReadsContinueAndTheRobotsRecordStaysPut) {
  App a(NodeConfig({1})), b(NodeConfig({2}));
  Admin(Primary(),
        "DELETE FROM sample_test.feed_robot_visit; INSERT INTO sample_test.feed_robot_visit "
        "(robot, feed, last_visit, previous_visit, recorded) VALUES "
        "('JoobleBot', 'jooble', '2026-11-01 00:00:00', '2026-10-31 00:00:00', NOW())");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  Page first = Fetch(a, kQuery);
  ASSERT_EQ(first.status, 200);
  ASSERT_FALSE(first.token.empty());
  std::unique_ptr<Restart> restart = StopPrimary();

  // The run goes on from the other node's replica.
  Page second = Fetch(b, std::string(kQuery) + "&continue=" + first.token);
  EXPECT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(second.read_from, "r2");
  EXPECT_FALSE(second.titles.empty());
  // A new run too.
  EXPECT_EQ(Fetch(a, kQuery).read_from, "r1");

  Request visit;
  visit.path_info = "/jooble";
  visit.user_agent = "Mozilla/5.0 (compatible; JoobleBot/2.0; +http://jooble.org/)";
  Reply r = testing::Fetch(b, visit);
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.report.read_from, "r2");
  EXPECT_FALSE(r.report.visit_recorded);
  EXPECT_GE(b.servers().writes().failed, 1);
  EXPECT_NE(b.servers().writes().last_error.find("jooble"), std::string::npos) << b.servers().writes().last_error;
  EXPECT_EQ(StatusOf(b, "primary").health, ServerHealth::kDown);
  // The status page says so: the primary down, the write it did not take.
  SystemClock clock;
  const StatusSnapshot snap =
      StatusPage(b.config(), {{"jooble", "/jooble"}}).Snapshot(b.servers().primary(), clock, &b.servers());
  const std::string json = StatusJson(snap), html = StatusHtml(snap, testing::Kiev());
  EXPECT_NE(json.find("{\"name\": \"primary\", \"health\": \"down\""), std::string::npos) << json;
  EXPECT_NE(json.find("{\"name\": \"r2\", \"health\": "), std::string::npos) << json;
  EXPECT_NE(json.find("\"failed_writes\": {\"count\": " + std::to_string(b.servers().writes().failed)),
            std::string::npos)
      << json;
  EXPECT_NE(html.find("data-server=\"primary\" data-health=\"down\""), std::string::npos) << html;
  EXPECT_NE(html.find("id=\"failed-writes\""), std::string::npos);
  // Every current job (the record could not be read), not only those
  // after the record's 2026-11-01: the robot loses nothing.
  const std::string current =
      Admin(Replica(2), "SELECT COUNT(*) FROM sample_test.job WHERE status = 'active' AND updated <= '" +
                            FormatSqlDateTime(testing::Kiev().FromUnix(Now())) + "'");
  EXPECT_EQ(std::to_string(r.report.rows + r.report.skipped), current);
  EXPECT_NE(Admin(Replica(2),
                  "SELECT COUNT(*) FROM sample_test.job WHERE status = 'active' AND updated >= "
                  "'2026-10-31 00:00:00'"),
            current)
      << "the sample board must have jobs older than the record for this to mean something";

  // Back: the record is where it was.
  restart->Run();
  auto rec = Table("SELECT last_visit, previous_visit FROM feed_robot_visit WHERE robot = 'JoobleBot'");
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0][0], "2026-11-01 00:00:00");
  EXPECT_EQ(rec[0][1], "2026-10-31 00:00:00");
}

// JoobleBot's visits alternate between the nodes: each one reads and
// moves the one record on the primary, so each visit starts where the
// previous one (on the other node) ended.
TEST_F(ReplicaIntegration, JoobleVisitsAlternatingBetweenNodesAdvanceOneRecordOnThePrimary) {
  App a(NodeConfig({1})), b(NodeConfig({2}));
  Admin(Primary(), "DELETE FROM sample_test.feed_robot_visit");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  Request visit;
  visit.path_info = "/jooble";
  visit.user_agent = "Mozilla/5.0 (compatible; JoobleBot/2.0; +http://jooble.org/)";
  std::string previous_last;
  for (int k = 0; k < 4; ++k) {
    App& node = k % 2 == 0 ? a : b;
    Reply r = testing::Fetch(node, visit);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.report.visit_recorded) << r.report.visit_error;
    auto rec = Table(
        "SELECT last_visit, IFNULL(previous_visit, '-') FROM feed_robot_visit WHERE robot = "
        "'JoobleBot' AND feed = 'jooble'");
    ASSERT_EQ(rec.size(), 1u);
    if (k > 0) {
      EXPECT_EQ(rec[0][1], previous_last) << "visit " << k << " on the other node";
      EXPECT_GE(rec[0][0], previous_last);
    }
    previous_last = rec[0][0];
    // The replicas hold the record too, but no node reads it there: stop
    // replication of it to node B's replica and the visits still advance.
    if (k == 0) Admin(Replica(2), "STOP SLAVE SQL_THREAD");
    // The next visit is at least a second later (the record has seconds).
    const std::string was = previous_last;
    ASSERT_TRUE(testing::PollUntil([&] { return FormatSqlDateTime(testing::Kiev().FromUnix(Now())) > was; }, 5000));
  }
}

// A sitemap index made on node A from replica 1 stores, with its part
// plan, the position the plan was read at. Node B's replica 2 is an hour
// behind (healthy by its threads, so only the position keeps it out): B
// reads the parts from the primary, never from replica 2, and a part has
// every ad its plan counted. Once replica 2 has caught up, B reads the
// parts from it, byte for byte the same.
TEST_F(ReplicaIntegration, ASitemapsPartsAreReadOnlyWhereThePlansPositionIsReached) {
  Admin(Primary(), "DELETE FROM sample_test.feed_part_plan; DELETE FROM sample_test.feed_state_seen");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 3600; START SLAVE");
  const std::string ref = "SMAP" + std::to_string(++added_count_);
  Admin(Primary(), "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES ('" + ref +
                       "', 'x', '', NOW(), NOW())");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  Reply index = Get(a, "/sitemap.xml");
  ASSERT_EQ(index.status, 200) << index.body;
  const int last = LastPart(index.body, "ads");
  ASSERT_GE(last, 1) << index.body;
  // The plan's position, stamped with its moment: replica 1 has it,
  // replica 2 not.
  auto plan = Table("SELECT planned, position FROM feed_part_plan WHERE feed = 'ads'");
  ASSERT_EQ(plan.size(), 1u);
  ASSERT_EQ(plan[0][1].rfind(plan[0][0] + " ", 0), 0u) << plan[0][1];
  const std::string at = plan[0][1].substr(plan[0][0].size() + 1);
  ASSERT_FALSE(at.empty());
  EXPECT_EQ(Admin(Replica(1), "SELECT MASTER_GTID_WAIT('" + at + "', 0)"), "0");
  EXPECT_EQ(Admin(Replica(2), "SELECT MASTER_GTID_WAIT('" + at + "', 0)"), "-1");

  const std::string part = "/sitemap-ads-" + std::to_string(last) + ".xml";
  Reply p = Get(b, part);
  ASSERT_EQ(p.status, 200) << p.body;
  EXPECT_EQ(p.report.read_from, "primary");
  EXPECT_NE(p.body.find("/ad/" + ref + ".html"), std::string::npos) << "part " << last << " lacks an ad of its plan";
  EXPECT_GE(StatusOf(b, "r2").passed_over, 1);

  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE");
  ASSERT_TRUE(CaughtUp(2));
  Reply q = Get(b, part);
  ASSERT_EQ(q.status, 200) << q.body;
  EXPECT_EQ(q.report.read_from, "r2");
  EXPECT_EQ(q.body, p.body);
}

// A run's second page must be read at the position of its first, which
// node B's only replica has not applied (its SQL thread stopped); with the
// primary stopped too, no server can serve it: 503, Retry-After and a
// one-line reason. A sitemap part whose plan is at that position is a 503
// too (replica 2 lacks the plan as well), while node A serves it from
// replica 1's copy of the plan. With the primary back, B serves the page
// as node A does, and the part from the primary.
TEST_F(ReplicaIntegration, APageNoServerCanServeIs503WithRetryAfterUntilThePrimaryIsBack) {
  Admin(Primary(), "DELETE FROM sample_test.feed_part_plan");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  Admin(Replica(2), "STOP SLAVE SQL_THREAD");
  const std::string ref = "R" + std::to_string(++added_count_) + "BEHIND";
  Admin(Primary(), "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES ('" + ref +
                       "', 'x', '', NOW(), NOW())");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  Page first = Fetch(a, kQuery);
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.read_from, "r1");
  ASSERT_FALSE(first.token.empty());
  Reply index = Get(a, "/sitemap.xml");
  ASSERT_EQ(index.status, 200);
  const std::string part = "/sitemap-ads-" + std::to_string(LastPart(index.body, "ads")) + ".xml";
  const std::string next = std::string(kQuery) + "&continue=" + first.token;
  ASSERT_TRUE(CaughtUp(1));  // the plan too

  std::unique_ptr<Restart> restart = StopPrimary();
  for (const Reply& r : {Get(b, "/yads", next), Get(b, part)}) {
    EXPECT_EQ(r.status, 503) << "read from " << r.report.read_from << ": " << r.body.substr(0, 200);
    EXPECT_EQ(r.headers.count("Retry-After") ? r.headers.at("Retry-After") : "", "60");
    std::string body = r.body;
    while (!body.empty() && body.back() == '\n') body.pop_back();
    EXPECT_EQ(body.find('\n'), std::string::npos) << body.substr(0, 200);
    EXPECT_NE(body.find("; try again later"), std::string::npos) << body.substr(0, 200);
  }
  // The page's reason says what it waits for (a part's plan is on the
  // primary: it just waits for the database).
  EXPECT_EQ(Get(b, "/yads", next).body.rfind("no database server has caught up yet", 0), 0u);
  // Node A's replica holds the plan (it replicates like the board) and
  // has its position: A serves the part from there meanwhile.
  Reply from_r1 = Get(a, part);
  EXPECT_EQ(from_r1.status, 200) << from_r1.body.substr(0, 200);
  EXPECT_EQ(from_r1.report.read_from, "r1");
  EXPECT_NE(from_r1.body.find("/ad/" + ref + ".html"), std::string::npos);
  // So is the index, from replica 1's copy of the plans as they stand (a
  // refresh writes to the primary); replica 2, which stopped applying
  // before the plan was made, cannot give it.
  Reply index_r1 = Get(a, "/sitemap.xml");
  EXPECT_EQ(index_r1.status, 200) << index_r1.body.substr(0, 200);
  EXPECT_EQ(index_r1.report.read_from, "r1");
  EXPECT_EQ(index_r1.body, index.body);
  EXPECT_EQ(Get(b, "/sitemap.xml").status, 503);

  restart->Run();
  // Health is asked again within replica_check (1 s).
  ASSERT_TRUE(testing::PollUntil([&] { return Get(b, "/yads", next).status == 200; }, 15000));
  Page again = Fetch(b, next);
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(again.read_from, "primary");
  // Replica 1 reconnects to the restarted primary (its IO thread retries
  // each second); until it replicates again, health sends node a's reads to
  // the primary too. Once it does, they go to replica 1.
  Page there;
  EXPECT_TRUE(testing::PollUntil([&] { return (there = Fetch(a, next)).read_from == "r1"; }, 15000))
      << "node a still reads from " << there.read_from;
  EXPECT_FALSE(again.titles.empty());
  EXPECT_EQ(again.titles, there.titles);
  Reply p = Get(b, part);
  ASSERT_EQ(p.status, 200) << p.body;
  EXPECT_EQ(p.report.read_from, "primary");
  EXPECT_NE(p.body.find("/ad/" + ref + ".html"), std::string::npos);
}

// Two nodes sync the MSN feed's item state, node A from replica 1, node B
// from replica 2, which is an hour behind. The rule, as MSN sees it: an
// edit is one update, dated by the first sync after it. A sync of B that
// read replica 2 (without the edit) would record the old content as a
// change, and A's next sync the edit again: three changes for one.
TEST_F(ReplicaIntegration, MsnSyncsOnTwoNodesAtDifferentLagNeverDoubleAChange) {
  Admin(Primary(), "DELETE FROM sample_test.feed_item_state; DELETE FROM sample_test.feed_item_sync");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  const UnixTime t0 = testing::Kiev().ToUnix({2026, 11, 1, 12, 0, 0});
  FixedClock ca(t0), cb(t0);
  App a(NodeConfig({1}), &ca), b(NodeConfig({2}), &cb);
  SyncReport first = a.SyncItems("/msn");
  ASSERT_GT(first.counts.created, 100u);
  // Replica 2 has that sync's position, then falls behind.
  ASSERT_TRUE(CaughtUp(2));
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 3600; START SLAVE");
  cb.Set(t0 + 30);
  SyncReport quiet = b.SyncItems("/msn");
  EXPECT_EQ(quiet.counts.Changes(), 0u);

  std::string ids;
  for (const auto& r : Table("SELECT item_id FROM feed_item_state WHERE feed = 'msn' AND gone = 0 ORDER BY item_id "
                             "LIMIT 5")) {
    ids += (ids.empty() ? "" : ",") + r[0];
  }
  Admin(Primary(), "UPDATE sample_test.listing SET title = CONCAT(title, ' (правка)') WHERE id IN (" + ids + ")");
  ASSERT_TRUE(CaughtUp(1));
  ca.Set(t0 + 60);
  EXPECT_EQ(a.SyncItems("/msn").counts.updated, 5u);
  cb.Set(t0 + 120);
  SyncReport rb = b.SyncItems("/msn");
  EXPECT_EQ(rb.counts.Changes(), 0u) << "node B's sync undid the edits";
  EXPECT_GE(StatusOf(b, "r2").passed_over, 1);
  ca.Set(t0 + 180);
  EXPECT_EQ(a.SyncItems("/msn").counts.Changes(), 0u) << "node A's sync recorded the edits again";
  // Replica 2 caught up serves B's syncs again, with nothing new.
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 0; START SLAVE");
  ASSERT_TRUE(CaughtUp(2));
  cb.Set(t0 + 240);
  EXPECT_EQ(b.SyncItems("/msn").counts.Changes(), 0u);

  const std::string edited = std::to_string(t0 + 60), created = std::to_string(t0);
  for (const auto& r : Table("SELECT item_id, modified FROM feed_item_state WHERE feed = 'msn'")) {
    const bool was_edited = ("," + ids + ",").find("," + r[0] + ",") != std::string::npos;
    EXPECT_EQ(r[1], was_edited ? edited : created) << "item " << r[0];
  }
  // The sync's record holds its moment and position.
  auto sync = Table("SELECT synced, position FROM feed_item_sync WHERE feed = 'msn'");
  ASSERT_EQ(sync.size(), 1u);
  EXPECT_EQ(sync[0][0], std::to_string(t0 + 240));
  EXPECT_EQ(sync[0][1].rfind(sync[0][0] + " ", 0), 0u) << sync[0][1];
}

// Tables of a version before replicas (feed_part_plan and feed_item_sync
// without `position`): the sitemaps and the MSN feed work as before, and
// since no position is stored, every part and every sync after the first
// reads from the primary. Applying sql/state.sql adds the columns.
TEST_F(ReplicaIntegration, TablesOfAnOlderVersionSendPartsAndSyncsToThePrimary) {
  const std::string apply =
      "mariadb --no-defaults --socket='" + Primary() + "' sample_test < '" + Env("FEED_TEST_ROOT") + "/sql/state.sql'";
  struct Apply {
    std::string cmd;
    ~Apply() { testing::Shell(cmd); }
  } restore{apply};
  Admin(Primary(),
        "USE sample_test; DELETE FROM feed_part_plan; DELETE FROM feed_item_sync; DELETE FROM feed_item_state; "
        "ALTER TABLE feed_part_plan DROP COLUMN position; ALTER TABLE feed_item_sync DROP COLUMN position");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1}));
  Reply index = Get(a, "/sitemap.xml");
  ASSERT_EQ(index.status, 200) << index.body;
  Reply part = Get(a, "/sitemap-ads-1.xml");
  ASSERT_EQ(part.status, 200) << part.body;
  EXPECT_EQ(part.report.read_from, "primary");
  Reply msn = Get(a, "/msn");
  ASSERT_EQ(msn.status, 200) << msn.body;
  EXPECT_EQ(msn.report.read_from, "r1");  // no sync yet: any server
  msn = Get(a, "/msn");
  ASSERT_EQ(msn.status, 200) << msn.body;
  EXPECT_EQ(msn.report.read_from, "primary");
  // check says so, as a warning.
  const std::string config = NodeConfigFile({1});
  CheckRun old_tables = RunCheck(config);
  EXPECT_EQ(old_tables.status, 0) << old_tables.out;
  EXPECT_NE(LineStarting(old_tables.out, "[database]: warning: feed_part_plan has no column position"), "")
      << old_tables.out;
  EXPECT_NE(LineStarting(old_tables.out, "[database]: warning: feed_item_sync has no column position"), "")
      << old_tables.out;

  ASSERT_EQ(testing::Shell(apply), 0);
  EXPECT_EQ(Table("SHOW COLUMNS FROM feed_part_plan LIKE 'position'").size(), 1u);
  EXPECT_EQ(Table("SHOW COLUMNS FROM feed_item_sync LIKE 'position'").size(), 1u);
  CheckRun applied = RunCheck(config);
  EXPECT_EQ(applied.out.find("has no column position"), std::string::npos) << applied.out;
  std::remove(config.c_str());
  std::remove(config.substr(0, config.rfind('/')).c_str());
  ASSERT_TRUE(CaughtUp(1));
  Admin(Primary(), "DELETE FROM sample_test.feed_part_plan");
  App c(NodeConfig({1}));
  ASSERT_EQ(Get(c, "/sitemap.xml").status, 200);
  ASSERT_TRUE(CaughtUp(1));
  part = Get(c, "/sitemap-ads-1.xml");
  ASSERT_EQ(part.status, 200);
  EXPECT_EQ(part.report.read_from, "r1");
}

// check looks at every replica: each one's line says whether it
// replicates and how far behind it is; a stopped thread, a missing grant
// (naming the GRANT to run), replication without GTID and a replica that
// cannot be reached are errors in its section.
TEST_F(ReplicaIntegration, CheckReportsEachReplicasReplication) {
  struct Repair {
    ~Repair() {
      Admin(Primary(), "GRANT SLAVE MONITOR ON *.* TO 'feed'@'localhost'");
      Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_USE_GTID = slave_pos; START SLAVE");
    }
  } repair;
  const std::string config = NodeConfigFile({1, 2});
  CheckRun ok = RunCheck(config);
  EXPECT_EQ(ok.status, 0) << ok.out;
  for (const char* r : {"r1", "r2"}) {
    const std::string line = LineStarting(ok.out, std::string("[database replica ") + r + "]: ");
    EXPECT_EQ(line.rfind(std::string("[database replica ") + r + "]: replicating, ", 0), 0u) << ok.out;
    EXPECT_NE(line.find(" s behind the primary"), std::string::npos) << line;
  }
  CheckRun json = RunCheck(config, "--json");
  EXPECT_NE(json.out.find("\"replicas\": [{\"name\": \"r1\", \"replicating\": true, \"seconds_behind\": "),
            std::string::npos)
      << json.out;

  Admin(Replica(2), "STOP SLAVE SQL_THREAD");
  CheckRun stopped = RunCheck(config);
  EXPECT_EQ(stopped.status, 1);
  EXPECT_EQ(LineStarting(stopped.out, "[database replica r2]: does not replicate: ")
                .rfind("[database replica r2]: does not replicate: Slave_IO_Running Yes, Slave_SQL_Running No", 0),
            0u)
      << stopped.out;
  EXPECT_EQ(LineStarting(stopped.out, "[database replica r1]: does not"), "");
  Admin(Replica(2), "START SLAVE");

  Admin(Primary(), "REVOKE SLAVE MONITOR ON *.* FROM 'feed'@'localhost'");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  CheckRun denied = RunCheck(config);
  EXPECT_EQ(denied.status, 1);
  for (const char* r : {"r1", "r2"}) {
    const std::string line = LineStarting(denied.out, std::string("[database replica ") + r + "]: the feed user");
    EXPECT_NE(line.find("; run on the primary (it replicates to the replicas): GRANT SLAVE MONITOR ON *.* TO "
                        "'feed'@'localhost'"),
              std::string::npos)
        << denied.out;
  }
  Admin(Primary(), "GRANT SLAVE MONITOR ON *.* TO 'feed'@'localhost'");
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));

  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_USE_GTID = no; START SLAVE");
  CheckRun no_gtid = RunCheck(config);
  EXPECT_EQ(no_gtid.status, 1);
  EXPECT_NE(LineStarting(no_gtid.out, "[database replica r2]: replicates without GTID (Using_Gtid No)")
                .find("CHANGE MASTER TO MASTER_USE_GTID = slave_pos"),
            std::string::npos)
      << no_gtid.out;
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_USE_GTID = slave_pos; START SLAVE");
  ASSERT_TRUE(CaughtUp(2));

  const std::string gone = NodeConfigFile({1, 0});
  CheckRun unreachable = RunCheck(gone);
  EXPECT_EQ(unreachable.status, 1);
  EXPECT_NE(LineStarting(unreachable.out, "[database replica r0]: cannot be reached: "), "") << unreachable.out;
  EXPECT_EQ(RunCheck(config).status, 0);
  for (const std::string& f : {config, gone}) {
    std::remove(f.c_str());
    std::remove(f.substr(0, f.rfind('/')).c_str());
  }
}

// `feed.fcgi write` reads a static set from one server, the first healthy
// replica in config order: here replica 2, an hour behind, so the files
// lack an ad added on the primary since (they are a snapshot of it).
TEST_F(ReplicaIntegration, AStaticWriteReadsTheFirstHealthyReplica) {
  ASSERT_TRUE(CaughtUp(2));
  Admin(Replica(2), "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY = 3600; START SLAVE");
  const std::string ref = "WRITE" + std::to_string(++added_count_);
  Admin(Primary(), "INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES ('" + ref +
                       "', 'x', '', NOW(), NOW())");
  const std::string dir = testing::TempDir("replica-write") + "/maps";
  App b(NodeConfig({2, 1})), a(NodeConfig({1}));
  auto all = [&](App& app) {
    WriteReport r = app.WriteSet("/sitemap.xml", dir);
    std::string text;
    for (const WrittenFile& f : r.files) text += testing::Slurp(dir + "/" + f.name);
    return text;
  };
  ASSERT_TRUE(CaughtUp(1));
  const std::string from_r2 = all(b), from_r1 = all(a);
  EXPECT_EQ(from_r2.find("/ad/" + ref + ".html"), std::string::npos);
  EXPECT_NE(from_r1.find("/ad/" + ref + ".html"), std::string::npos);
  testing::Shell("rm -rf '" + dir.substr(0, dir.rfind('/')) + "'");
}

// Issue #22: every <continue> of a run through replicas is 1 to 32
// letters and digits, also when the replication position has two domains
// (a transaction of domain 1 written on the primary first), and the
// position is carried all the same: node A's pages are replica 1's, node
// B's (replica 2 stopped) the primary's, and Run holds each page to a
// state no older than the previous one's (no deleted ad shown, no edit
// undone, none lost or doubled).
TEST_F(ReplicaIntegration, EveryContinueOfARunThroughReplicasIs32LettersAndDigitsAtMost) {
  Admin(Primary(),
        "SET SESSION gtid_domain_id = 1; INSERT INTO sample_test.listing (ref, title, body, added, updated) VALUES "
        "('REPLDOM1', 'x', '', NOW(), NOW())");
  ASSERT_NE(PrimaryPosition().find("1-1-"), std::string::npos) << PrimaryPosition();
  Admin(Replica(2), "STOP SLAVE SQL_THREAD");
  ASSERT_TRUE(CaughtUp(1));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  std::vector<Page> pages = Run(a, b);
  ASSERT_GE(pages.size(), 10u);
  for (size_t k = 0; k < pages.size(); ++k) {
    if (k + 1 < pages.size()) {
      EXPECT_TRUE(YadsToken(pages[k].token)) << "page " << k << ": " << pages[k].token;
    }
    EXPECT_EQ(pages[k].read_from, k % 2 == 0 ? "r1" : "primary") << "page " << k;
  }
  EXPECT_NE(Admin(Replica(1), "SELECT @@gtid_slave_pos").find("1-1-"), std::string::npos);
}

// The fallback: a position too large for the token (domain 9 at 2^62
// transactions beside domain 0) is left out of it, so every page after the
// first is read from the primary, which has every position; the tokens
// stay 32 letters and digits at most and the run stays exact. Last in the
// file: the domain stays in the servers' positions (no server forgets a
// domain), and every later token of these servers would leave it out.
TEST_F(ReplicaIntegration, ZAPositionTooLargeForTheTokenSendsTheRunToThePrimary) {
  Admin(Primary(),
        "SET SESSION gtid_domain_id = 9, gtid_seq_no = 4611686018427387904; INSERT INTO sample_test.listing "
        "(ref, title, body, added, updated) VALUES ('REPLDOM9', 'x', '', NOW(), NOW())");
  ASSERT_NE(PrimaryPosition().find("9-1-46116860184273879"), std::string::npos) << PrimaryPosition();
  ASSERT_TRUE(CaughtUp(1) && CaughtUp(2));
  App a(NodeConfig({1})), b(NodeConfig({2}));
  std::vector<Page> pages = Run(a, b);
  ASSERT_GE(pages.size(), 10u);
  EXPECT_EQ(pages[0].read_from, "r1");  // a first page asks for no position
  for (size_t k = 0; k < pages.size(); ++k) {
    if (k + 1 < pages.size()) {
      EXPECT_TRUE(YadsToken(pages[k].token)) << "page " << k << ": " << pages[k].token;
    }
    if (k > 0) {
      EXPECT_EQ(pages[k].read_from, "primary") << "page " << k;
    }
  }
}

}  // namespace
}  // namespace feed
