// The program under a shared host's database account (issue #21, points 4
// and 5): SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, CREATE
// TEMPORARY TABLES and LOCK TABLES on its own database, nothing global.
// `install` makes the program's tables with it (the same as sql/state.sql
// makes, compared in information_schema), every shipped feed renders with
// it and `check` passes; an account that lacks a privilege gets the GRANT
// that gives it. The accounts and the database (feed_shared, holding the
// sample board's tables) are made here by the test server's administrator
// (testing::AdminSql: root over the socket), so that a clean clone needs
// nothing set up by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "app.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::AdminSql;
using testing::Env;
using testing::Slurp;

constexpr char kDb[] = "feed_shared";
constexpr char kRefDb[] = "feed_shared_ref";  // sql/state.sql applied by the administrator
constexpr char kPassword[] = "Shared-Host-Pa55word";
constexpr char kPrivileges[] =
    "SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, CREATE TEMPORARY TABLES, LOCK TABLES";

struct FeedRun {
  int status;
  std::string out, err;
};

// feed.fcgi with conf/sample-board.ini, as `user` on feed_shared.
FeedRun Feed(const std::string& user, const std::string& args) {
  const std::string out = testing::TempDir("shared-run");
  const int rc = testing::Shell("FEED_DB_SOCKET='" + Env("FEED_TEST_SOCKET") + "' FEED_DB_NAME=" + kDb +
                                " FEED_DB_USER=" + user + " FEED_DB_PASSWORD=" + kPassword +
                                " FEED_SECRET=shared-host-test-secret-0123456789 '" + Env("FEED_TEST_BIN") +
                                "' --config '" + Env("FEED_TEST_ROOT") + "/conf/sample-board.ini' " + args + " >'" +
                                out + "/out' 2>'" + out + "/err'");
  FeedRun r{rc, Slurp(out + "/out"), Slurp(out + "/err")};
  testing::Shell("rm -rf '" + out + "'");
  return r;
}

// An account on feed_shared with `privileges`, made anew.
void Account(const std::string& user, const std::string& privileges) {
  AdminSql("DROP USER IF EXISTS '" + user + "'@'localhost'; CREATE USER '" + user + "'@'localhost' IDENTIFIED BY '" +
           kPassword + "'; GRANT " + privileges + " ON " + kDb + ".* TO '" + user + "'@'localhost';");
}

// The layout of the feed_* tables of `db` as information_schema gives it:
// the tables' engine and collation, every column's position and type,
// every index's columns.
std::string Layout(const std::string& db) {
  const std::string where = " WHERE TABLE_SCHEMA = '" + db + "' AND TABLE_NAME LIKE 'feed\\_%'";
  return AdminSql("SELECT TABLE_NAME, ENGINE, TABLE_COLLATION FROM information_schema.TABLES" + where +
                  " ORDER BY TABLE_NAME;"
                  "SELECT TABLE_NAME, ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, "
                  "COALESCE(COLUMN_DEFAULT, 'none'), EXTRA, COALESCE(COLLATION_NAME, '') "
                  "FROM information_schema.COLUMNS" +
                  where +
                  " ORDER BY TABLE_NAME, ORDINAL_POSITION;"
                  "SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME FROM "
                  "information_schema.STATISTICS" +
                  where + " ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX;");
}

// The board's tables of feed_shared and a checksum of each.
std::string BoardTables() {
  std::string list;
  for (const char* t : {"region", "listing", "job", "member", "document", "document_comment"}) {
    list += std::string(list.empty() ? "" : ", ") + kDb + "." + t;
  }
  return AdminSql("SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME) FROM information_schema.TABLES WHERE "
                  "TABLE_SCHEMA = '" + std::string(kDb) + "' AND TABLE_NAME NOT LIKE 'feed\\_%'; CHECKSUM TABLE " +
                  list + " EXTENDED;");
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> Lines(const std::string& text, const std::string& prefix = "") {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

const std::vector<std::string> kTables = {"feed_robot_visit", "feed_part_plan",  "feed_state_seen",
                                          "feed_item_state",  "feed_item_sync", "feed_run_report"};

class SharedHostIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    AdminSql(std::string("DROP DATABASE IF EXISTS ") + kDb + "; CREATE DATABASE " + kDb + "; DROP DATABASE IF EXISTS " +
             kRefDb + "; CREATE DATABASE " + kRefDb + ";");
    // The board's tables and rows, as the host's administrator would have
    // loaded them; no table of the program's.
    const std::string root = Env("FEED_TEST_ROOT");
    ASSERT_EQ(testing::Shell("{ cat '" + root + "/sql/sample-board.sql'; python3 '" + root +
                             "/tools/gen_sample_board.py' --ads 400 --jobs 60 --seed 3 --docs 30; } | mariadb "
                             "--no-defaults --default-character-set=utf8mb4 --socket='" +
                             Env("FEED_TEST_SOCKET") + "' " + kDb),
              0);
    ASSERT_EQ(testing::Shell("mariadb --no-defaults --socket='" + Env("FEED_TEST_SOCKET") + "' " + kRefDb + " < '" +
                             root + "/sql/state.sql'"),
              0);
    Account("shared", kPrivileges);
  }
};

TEST_F(SharedHostIntegration, InstallMakesWhatStateSqlMakesAndASecondRunChangesNothing) {
  const std::string board = BoardTables();
  ASSERT_NE(board.find("document,document_comment,job,listing,member,region"), std::string::npos) << board;
  FeedRun first = Feed("shared", "install");
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  std::vector<std::string> want;
  for (const std::string& t : kTables) want.push_back(t + ": created");
  want.push_back(std::string(kDb) + ": 6 tables changed");
  EXPECT_EQ(Lines(first.out), want) << first.out;
  EXPECT_EQ(first.err, "");
  EXPECT_EQ(Layout(kDb), Layout(kRefDb));
  // 6 tables, 38 columns, 17 columns of indexes (sql/state.sql).
  EXPECT_EQ(Lines(Layout(kRefDb), "feed_").size(), 61u) << Layout(kRefDb);
  EXPECT_EQ(BoardTables(), board) << "the board's tables are left as they were";

  FeedRun second = Feed("shared", "install");
  ASSERT_EQ(second.status, 0) << second.out << second.err;
  want.clear();
  for (const std::string& t : kTables) want.push_back(t + ": up to date");
  want.push_back(std::string(kDb) + ": every table up to date, nothing changed");
  EXPECT_EQ(Lines(second.out), want) << second.out;
  EXPECT_EQ(Layout(kDb), Layout(kRefDb));
}

// A table of an older version (no position column), an index dropped:
// install adds them back where sql/state.sql has them.
TEST_F(SharedHostIntegration, InstallUpgradesATableOfAnOlderLayout) {
  ASSERT_EQ(Feed("shared", "install").status, 0);
  AdminSql(std::string("ALTER TABLE ") + kDb + ".feed_part_plan DROP COLUMN position; ALTER TABLE " + kDb +
           ".feed_state_seen DROP KEY oldest; ALTER TABLE " + kDb + ".feed_item_state DROP COLUMN gone, DROP KEY newest;");
  ASSERT_NE(Layout(kDb), Layout(kRefDb));
  FeedRun r = Feed("shared", "install");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(Lines(r.out), (std::vector<std::string>{
                              "feed_robot_visit: up to date",
                              "feed_part_plan: upgraded (added column position)",
                              "feed_state_seen: upgraded (added index oldest)",
                              "feed_item_state: upgraded (added column gone, index newest)",
                              "feed_item_sync: up to date",
                              "feed_run_report: up to date",
                              std::string(kDb) + ": 3 tables changed",
                          }))
      << r.out;
  EXPECT_EQ(Layout(kDb), Layout(kRefDb));
}

// Every feed and set of conf/sample-board.ini, rendered by the command
// line as the account (the item state, part plans and states it writes
// included), and check finds nothing.
TEST_F(SharedHostIntegration, EveryShippedFeedRendersUnderTheAccountAndCheckPasses) {
  ASSERT_EQ(Feed("shared", "install").status, 0);
  std::vector<std::string> paths;
  std::istringstream conf(Slurp(Env("FEED_TEST_ROOT") + "/conf/sample-board.ini"));
  std::string section;
  for (std::string line; std::getline(conf, line);) {
    if (line.rfind("[", 0) == 0) section = line;
    std::smatch m;
    if (std::regex_match(line, m, std::regex(R"(path\s*=\s*(/\S+)\s*)"))) {
      // A text set is served as its parts only: the first of each of its
      // sections (the shipped one has three).
      const std::string p = m[1];
      if (p.size() > 4 && p.substr(p.size() - 4) == ".txt") {
        for (const char* s : {"ad-urls", "job-urls", "doc-urls"}) {
          paths.push_back(p.substr(0, p.size() - 4) + "-" + s + "-1.txt");
        }
      } else {
        paths.push_back(p);
      }
    }
  }
  ASSERT_GE(paths.size(), 9u) << "yads, jooble, jooble-full, sitemap, baidu, urls, rss, atom, msn";
  const std::string dir = testing::TempDir("shared-render");
  for (const std::string& p : paths) {
    FeedRun r = Feed("shared", "render " + p + " -o '" + dir + "/doc'");
    EXPECT_EQ(r.status, 0) << p << ": " << r.err;
    EXPECT_NE(r.err.find(p + ": "), std::string::npos) << r.err;
    const std::string doc = Slurp(dir + "/doc");
    EXPECT_GT(doc.size(), 100u) << p;
    // An index: its first part too.
    std::smatch m;
    if (std::regex_search(doc, m, std::regex("<loc>http://[^<]*(/[a-z]+-[a-z-]+-1\\.xml)</loc>"))) {
      FeedRun part = Feed("shared", "render " + m[1].str() + " -o '" + dir + "/doc'");
      EXPECT_EQ(part.status, 0) << m[1] << ": " << part.err;
    }
  }
  testing::Shell("rm -rf '" + dir + "'");
  // What the renders wrote, as the account.
  EXPECT_NE(AdminSql(std::string("SELECT COUNT(*) FROM ") + kDb + ".feed_part_plan"), "0\n");
  EXPECT_NE(AdminSql(std::string("SELECT COUNT(*) FROM ") + kDb + ".feed_item_state"), "0\n");
  EXPECT_NE(AdminSql(std::string("SELECT COUNT(*) FROM ") + kDb + ".feed_item_sync"), "0\n");

  FeedRun check = Feed("shared", "check");
  EXPECT_EQ(check.status, 0) << check.out << check.err;
  EXPECT_NE(check.out.find(": 0 errors"), std::string::npos) << check.out;
  EXPECT_EQ(check.out.find("[database] user"), std::string::npos) << check.out;
}

// An account that may only read: check names each table's missing
// privileges and the GRANT, for the account as the server knows it; after
// the GRANT, nothing.
TEST_F(SharedHostIntegration, CheckNamesEachMissingPrivilegeAndTheGrantThatGivesIt) {
  ASSERT_EQ(Feed("shared", "install").status, 0);
  Account("shared_ro", "SELECT");
  FeedRun r = Feed("shared_ro", "check");
  EXPECT_EQ(r.status, 1) << r.out;
  const std::string grant = std::string(" ON `") + kDb + "`.* TO 'shared_ro'@'localhost'";
  EXPECT_EQ(Lines(r.out, "[database] user: "),
            (std::vector<std::string>{
                "[database] user: the account lacks INSERT, UPDATE on feed_robot_visit; run as an administrator: "
                "GRANT INSERT, UPDATE" + grant,
                "[database] user: the account lacks INSERT, UPDATE on feed_part_plan; run as an administrator: "
                "GRANT INSERT, UPDATE" + grant,
                "[database] user: the account lacks INSERT, UPDATE, DELETE on feed_state_seen; run as an "
                "administrator: GRANT INSERT, UPDATE, DELETE" + grant,
                "[database] user: the account lacks INSERT, UPDATE, DELETE on feed_item_state; run as an "
                "administrator: GRANT INSERT, UPDATE, DELETE" + grant,
                "[database] user: the account lacks INSERT, UPDATE on feed_item_sync; run as an administrator: "
                "GRANT INSERT, UPDATE" + grant,
            }))
      << r.out;
  // Only INSERT missing on one table: only it is named.
  AdminSql(std::string("GRANT INSERT, UPDATE, DELETE ON ") + kDb + ".* TO 'shared_ro'@'localhost'; REVOKE INSERT ON " +
           kDb + ".* FROM 'shared_ro'@'localhost'; GRANT INSERT ON " + kDb +
           ".feed_part_plan TO 'shared_ro'@'localhost';");
  FeedRun one = Feed("shared_ro", "check");
  EXPECT_EQ(one.status, 1) << one.out;
  std::vector<std::string> lines = Lines(one.out, "[database] user: ");
  ASSERT_EQ(lines.size(), 4u) << one.out;
  EXPECT_EQ(lines[0], "[database] user: the account lacks INSERT on feed_robot_visit; run as an administrator: "
                      "GRANT INSERT" + grant);
  EXPECT_EQ(Lines(one.out, "[database] user: the account lacks INSERT on feed_part_plan").size(), 0u) << one.out;
  AdminSql(std::string("GRANT INSERT ON ") + kDb + ".* TO 'shared_ro'@'localhost'");
  FeedRun fine = Feed("shared_ro", "check");
  EXPECT_EQ(fine.status, 0) << fine.out;
  EXPECT_EQ(Lines(fine.out, "[database] user").size(), 0u) << fine.out;
}

// install without CREATE (a table missing) and without ALTER (a column
// missing): one line naming the privilege and the GRANT, exit 1; check
// says the same of the missing table.
TEST_F(SharedHostIntegration, InstallWithoutCreateOrAlterSaysWhichGrantItNeeds) {
  ASSERT_EQ(Feed("shared", "install").status, 0);
  Account("shared_rw", "SELECT, INSERT, UPDATE, DELETE");
  AdminSql(std::string("DROP TABLE ") + kDb + ".feed_robot_visit");
  const std::string grant =
      std::string("run as an administrator: GRANT CREATE, ALTER, INDEX ON `") + kDb + "`.* TO 'shared_rw'@'localhost'";
  FeedRun r = Feed("shared_rw", "install");
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "feed.fcgi: install: the account lacks CREATE on feed_robot_visit; " + grant +
                       " (install needs CREATE, ALTER and INDEX)\n");
  FeedRun check = Feed("shared_rw", "check");
  EXPECT_EQ(check.status, 1) << check.out;
  EXPECT_EQ(Lines(check.out, "[database] user: "),
            (std::vector<std::string>{"[database] user: the table feed_robot_visit is missing; " + grant +
                                      ", then `feed.fcgi install`; or apply sql/state.sql as one"}))
      << check.out;

  Account("shared_rw", "SELECT, INSERT, UPDATE, DELETE, CREATE");
  AdminSql(std::string("ALTER TABLE ") + kDb + ".feed_part_plan DROP COLUMN position");
  FeedRun alter = Feed("shared_rw", "install");
  EXPECT_EQ(alter.status, 1) << alter.out << alter.err;
  EXPECT_EQ(alter.out, "feed_robot_visit: created\n");
  EXPECT_EQ(alter.err, "feed.fcgi: install: the account lacks ALTER on feed_part_plan; " + grant +
                           " (install needs CREATE, ALTER and INDEX)\n");
  FeedRun older = Feed("shared_rw", "check");
  EXPECT_NE(older.out.find("[database] user: warning: feed_part_plan is of an older layout: it lacks column "
                           "position; run `feed.fcgi install`"),
            std::string::npos)
      << older.out;
  ASSERT_EQ(Feed("shared", "install").status, 0);
  EXPECT_EQ(Layout(kDb), Layout(kRefDb));
}

// A connection refused (a wrong password): the robot gets the generic
// one-line 503, never the user, the password, the socket or the server's
// words; the log line says what happened.
TEST_F(SharedHostIntegration, AConnectionFailureShowsTheRobotNothingOfTheConfig) {
  Config c = LoadConfig(testing::WriteSampleConfig());
  c.database.user = "shared";
  c.database.password = "Wrong-Secret-Pa55";
  c.database.name = kDb;
  App app(std::move(c));
  std::string log;
  app.SetLog([&](const std::string& line) { log += line + "\n"; });
  Request req;
  req.method = "GET";
  req.path_info = "/yads";
  testing::Reply reply = testing::Fetch(app, req);
  EXPECT_EQ(reply.status, 503);
  EXPECT_EQ(reply.body, "the database is unavailable; try again later\n");
  EXPECT_EQ(reply.headers["Retry-After"], "60");
  std::string head;
  for (const auto& [k, v] : reply.headers) head += k + ": " + v + "\n";
  for (const std::string& secret : {std::string("Wrong-Secret-Pa55"), std::string("shared"), Env("FEED_TEST_SOCKET"),
                                    std::string(kDb), std::string("Access denied")}) {
    EXPECT_EQ(head.find(secret), std::string::npos) << secret;
  }
  EXPECT_NE(log.find("Access denied for user 'shared'@'localhost'"), std::string::npos) << log;
  EXPECT_EQ(log.find("Wrong-Secret-Pa55"), std::string::npos) << log;
}

}  // namespace
}  // namespace feed
