// Run reports and the status page against the real database: a report is
// written by RecordRun after the response, never by Handle; the newest
// [status] reports per feed are kept; a failed write is logged and fails
// nothing; the page shows what the requests did, and is 404 when off.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app.h"
#include "test_env.h"

namespace feed {
namespace {

const char kToken[] = "integration-status-token-7f3a9c";

class StatusIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(300, 50); }
  void SetUp() override { testing::Mariadb("DELETE FROM feed_run_report; DELETE FROM feed_robot_visit;"); }

  // rss, atom and a paged yads; the status page as `status` says.
  static std::string Config(const std::string& status) {
    return testing::WriteConfig(
        "[feed rss]\npath = /rss\ntemplate = @ROOT@/templates/rss.xml\nquery = @ROOT@/sql/sample-recent-ads.sql\n"
        "state_query = @ROOT@/sql/sample-recent-ads-state.sql\norder = desc\nkeyset = published id_key\n"
        "value.self = http://doska.example/feeds/rss\n"
        "[feed atom]\npath = /atom\ntemplate = @ROOT@/templates/atom.xml\n"
        "query = @ROOT@/sql/sample-recent-ads.sql\nstate_query = @ROOT@/sql/sample-recent-ads-state.sql\n"
        "order = desc\nkeyset = published id_key\nmax_items = 30\nvalue.self = http://doska.example/feeds/atom\n"
        "[feed yads]\npath = /yads\ntemplate = @ROOT@/templates/yads.xml\nquery = @ROOT@/sql/sample-yads.sql\n"
        "encoding = windows-1251\nsince = param date\ncontinue = param continue\npage_size = 100\n"
        "keyset = added id_key\nsecret = integration-test-secret\n" +
        status);
  }
  static std::string Enabled(int reports) {
    return std::string("[status]\nenabled = 1\ntoken = ") + kToken + "\nreports = " + std::to_string(reports) + "\n";
  }
  static int64_t Count(const std::string& where = "1") {
    return std::stoll(testing::Table("SELECT COUNT(*) FROM feed_run_report WHERE " + where)[0][0]);
  }
};

Request Get(const std::string& path, const std::string& query = "") {
  Request r;
  r.path_info = path;
  r.query_string = query;
  r.remote_addr = "192.0.2.7";
  r.user_agent = "Mozilla/5.0 (compatible; ExampleBot/2.1)";
  return r;
}

size_t Items(const std::string& rss) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(rss.data(), rss.size()) != tinyxml2::XML_SUCCESS) return SIZE_MAX;
  size_t n = 0;
  for (auto* i = doc.RootElement()->FirstChildElement("channel")->FirstChildElement("item"); i;
       i = i->NextSiblingElement("item"))
    ++n;
  return n;
}

TEST_F(StatusIntegration, AReportIsWrittenAfterTheResponseNotInsideIt) {
  FixedClock clock(1764583200);
  App app(LoadConfig(Config(Enabled(20))), &clock);
  testing::Reply r = testing::Fetch(app, Get("/rss"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count(), 0) << "Handle wrote to the database before the response was handed over";
  app.RecordRun();
  auto rows = testing::Table(
      "SELECT feed, at, robot, client, method, status, rows_sent, bytes, left_out, millis >= 0 FROM feed_run_report");
  ASSERT_EQ(rows.size(), 1u);
  // What the client received: 50 items (max_items of a newest-first feed),
  // this many bytes, unzipped.
  EXPECT_EQ(Items(r.body), 50u);
  const std::vector<std::string> expected = {
      "rss", "1764583200", "ExampleBot", "192.0.2.7", "GET", "200", "50", std::to_string(r.body.size()), "0", "1"};
  EXPECT_EQ(rows[0], expected);
  app.RecordRun();  // nothing left to write
  EXPECT_EQ(Count(), 1);

  // A client's mistake is a response too.
  testing::Reply bad = testing::Fetch(app, Get("/yads", "date=yesterday"));
  ASSERT_EQ(bad.status, 400);
  app.RecordRun();
  rows = testing::Table("SELECT status, rows_sent, bytes FROM feed_run_report WHERE feed = 'yads'");
  EXPECT_EQ(rows, (std::vector<std::vector<std::string>>{{"400", "0", "0"}}));

  // The command line's requests (not live) and paths no feed has are not.
  FeedReport ignored;
  StringSink out;
  app.Handle(Get("/atom"), out, /*live=*/false, &ignored);
  app.RecordRun();
  testing::Fetch(app, Get("/nothing-here"));
  app.RecordRun();
  EXPECT_EQ(Count(), 2);
}

TEST_F(StatusIntegration, KeepsTheNewestReportsOfEachFeed) {
  FixedClock clock(1764583200);
  App app(LoadConfig(Config(Enabled(3))), &clock);
  for (int i = 0; i < 5; ++i) {
    clock.Set(1764583200 + i);
    ASSERT_EQ(testing::Fetch(app, Get("/rss")).status, 200);
    app.RecordRun();
  }
  ASSERT_EQ(testing::Fetch(app, Get("/atom")).status, 200);
  app.RecordRun();
  // The three newest of rss, the one of atom.
  auto rss = testing::Table("SELECT at FROM feed_run_report WHERE feed = 'rss' ORDER BY at");
  EXPECT_EQ(rss, (std::vector<std::vector<std::string>>{{"1764583202"}, {"1764583203"}, {"1764583204"}}));
  EXPECT_EQ(Count("feed = 'atom'"), 1);
}

TEST_F(StatusIntegration, AFailedWriteIsLoggedAndFailsNothing) {
  FixedClock clock(1764583200);
  App app(LoadConfig(Config(Enabled(20))), &clock);
  std::vector<std::string> log;
  app.SetLog([&](const std::string& line) { log.push_back(line); });
  testing::Mariadb("RENAME TABLE feed_run_report TO feed_run_report_away");
  testing::Reply r = testing::Fetch(app, Get("/rss"));
  EXPECT_EQ(r.status, 200);
  EXPECT_NO_THROW(app.RecordRun());
  testing::Mariadb("RENAME TABLE feed_run_report_away TO feed_run_report");
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("feed rss: the run report was not recorded: "), std::string::npos) << log[0];
  // The next one is written as usual.
  EXPECT_EQ(testing::Fetch(app, Get("/rss")).status, 200);
  app.RecordRun();
  EXPECT_EQ(Count(), 1);
}

// `feed.fcgi check` names a status page whose table is missing.
TEST_F(StatusIntegration, CheckNamesAMissingReportTable) {
  // A new App each time: a connection keeps what it prepared.
  auto status_findings = [&] {
    App app(LoadConfig(Config(Enabled(20))));
    std::vector<std::string> found;
    for (const Finding& f : app.Check(CheckOptions{}).findings) {
      if (f.where == "[status]") found.push_back(f.Line());
    }
    return found;
  };
  EXPECT_EQ(status_findings(), std::vector<std::string>{});
  testing::Mariadb("RENAME TABLE feed_run_report TO feed_run_report_away");
  const auto found = status_findings();
  testing::Mariadb("RENAME TABLE feed_run_report_away TO feed_run_report");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "[status]: the table feed_run_report is missing; run `feed.fcgi install` (or apply sql/state.sql as "
                      "an administrator)");
}

TEST_F(StatusIntegration, ThePageShowsTheResponsesTheVisitsAndTheDatabase) {
  FixedClock clock(1764583200);
  App app(LoadConfig(Config(Enabled(20))), &clock);
  testing::Mariadb(
      "INSERT INTO feed_robot_visit (robot, feed, last_visit, previous_visit, recorded) VALUES "
      "('JoobleBot', 'jooble', '2025-12-01 11:59:50', '2025-11-30 11:00:00', '2025-12-01 12:00:00')");
  testing::Reply rss = testing::Fetch(app, Get("/rss"));
  ASSERT_EQ(rss.status, 200);
  app.RecordRun();
  clock.Advance(5);
  Request status = Get("/status", "format=json");
  status.authorization = std::string("Bearer ") + kToken;
  testing::Reply page = testing::Fetch(app, status);
  ASSERT_EQ(page.status, 200) << page.body;
  app.RecordRun();
  EXPECT_EQ(Count(), 1) << "the status page reported itself";
  EXPECT_EQ(page.headers["Content-Type"], "application/json; charset=utf-8");
  EXPECT_EQ(page.body.find(kToken), std::string::npos);
  const auto j = nlohmann::json::parse(page.body);
  EXPECT_EQ(j["database"]["reachable"], true);
  ASSERT_TRUE(j["database"]["connection_age_seconds"].is_number());
  EXPECT_GE(j["database"]["connection_age_seconds"].get<int64_t>(), 0);
  EXPECT_EQ(j["reports_error"], "");
  EXPECT_EQ(j["generated"], 1764583205);
  ASSERT_EQ(j["feeds"].size(), 3u);
  EXPECT_EQ(j["feeds"][0]["name"], "rss");
  EXPECT_EQ(j["feeds"][1]["name"], "atom");
  EXPECT_EQ(j["feeds"][2]["name"], "yads");
  ASSERT_EQ(j["feeds"][0]["responses"].size(), 1u);
  const auto& r = j["feeds"][0]["responses"][0];
  EXPECT_EQ(r["at"], 1764583200);
  EXPECT_EQ(r["status"], 200);
  EXPECT_EQ(r["rows"], 50);
  EXPECT_EQ(r["bytes"], rss.body.size());
  EXPECT_EQ(r["robot"], "ExampleBot");
  EXPECT_EQ(r["client"], "192.0.2.7");
  EXPECT_TRUE(j["feeds"][1]["responses"].empty());
  ASSERT_EQ(j["robot_visits"].size(), 1u);
  EXPECT_EQ(j["robot_visits"][0]["robot"], "JoobleBot");
  EXPECT_EQ(j["robot_visits"][0]["feed"], "jooble");
  EXPECT_EQ(j["robot_visits"][0]["last_visit"], "2025-12-01 11:59:50");
  EXPECT_EQ(j["robot_visits"][0]["previous_visit"], "2025-11-30 11:00:00");

  // Without the token: 403 and nothing else.
  testing::Reply refused = testing::Fetch(app, Get("/status"));
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body, "");
  EXPECT_EQ(refused.headers["Content-Length"], "0");
}

TEST_F(StatusIntegration, OffItIsNotFoundAndNothingIsRecorded) {
  App app(LoadConfig(Config("")));
  Request status = Get("/status", std::string("token=") + kToken);
  EXPECT_EQ(testing::Fetch(app, status).status, 404);
  ASSERT_EQ(testing::Fetch(app, Get("/rss")).status, 200);
  app.RecordRun();
  EXPECT_EQ(Count(), 0);
}

}  // namespace
}  // namespace feed
