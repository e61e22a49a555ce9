// The web server's clock stepped back an hour or forward an hour (issue
// #22, point 5), through the injected clock, against the real MariaDB: a
// robot's record never moves back nor past the database's clock, a running
// dump's tokens are still taken, a part plan made "in the future" is
// refreshed, and Last-Modified is never later than now.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "clock.h"
#include "datetime.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Kiev;

std::string SiteTime(UnixTime t) { return FormatSqlDateTime(Kiev().FromUnix(t)); }

const std::string kJooble =
    "[feed jooble]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = UTF-8\nsince = robot JoobleBot\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 10\noverlap_visits = 0\n";

constexpr const char* kBot = "Mozilla/5.0 (compatible; JoobleBot/2.0; +http://jooble.org/)";

std::set<std::string> JobIds(const testing::Reply& r) {
  EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
  tinyxml2::XMLDocument doc;
  std::set<std::string> ids;
  if (doc.Parse(r.body.data(), r.body.size()) != tinyxml2::XML_SUCCESS) {
    ADD_FAILURE() << "the feed does not parse: " << doc.ErrorStr();
    return ids;
  }
  for (auto* j = doc.RootElement()->FirstChildElement("job"); j; j = j->NextSiblingElement("job")) {
    ids.insert(j->Attribute("id"));
  }
  return ids;
}

testing::Reply JoobleVisit(App& app) {
  Request req;
  req.path_info = "/jooble";
  req.user_agent = kBot;
  return testing::Fetch(app, req);
}

std::string LastVisit() {
  auto rows = testing::Table("SELECT last_visit FROM feed_robot_visit WHERE robot = 'JoobleBot' AND feed = 'jooble'");
  return rows.size() == 1 ? rows[0][0] : "";
}

class ClockIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(300, 300); }
  void SetUp() override {
    testing::Mariadb("DELETE FROM feed_robot_visit; DELETE FROM feed_part_plan; DELETE FROM feed_state_seen");
  }
};

// The web server's clock an hour ahead: the visit is recorded at the
// database's clock (less settle_seconds), not an hour ahead, so that a job
// the board changes meanwhile comes in the next visit once the clock is put
// right; that visit, at a clock an hour behind the first, moves the record
// forward only. Recording the web server's moment (the bug before) made
// the next visit skip every job changed in that hour.
TEST_F(ClockIntegration, AVisitAtAClockAheadIsRecordedAtTheDatabasesTimeAndLosesNoChange) {
  const UnixTime real = Now();
  // Every job changed an hour ago: the second visit sends only job 7.
  testing::Mariadb("UPDATE job SET updated = '" + SiteTime(real - 3600) + "' WHERE updated > '" +
                   SiteTime(real - 3600) + "'");
  FixedClock clock(real + 3600);
  App app(LoadConfig(testing::WriteConfig(kJooble)), &clock);
  std::vector<std::string> log;
  app.SetLog([&](const std::string& line) { log.push_back(line); });
  ASSERT_GT(JobIds(JoobleVisit(app)).size(), 100u);
  const UnixTime db_after = std::stoll(testing::Mariadb("SELECT UNIX_TIMESTAMP()"));
  const std::string first = LastVisit();
  EXPECT_GE(first, SiteTime(real - 10));
  EXPECT_LE(first, SiteTime(db_after - 10)) << "recorded past the database's clock";
  bool logged = false;
  for (const std::string& l : log) logged = logged || l.find("ahead of the database's") != std::string::npos;
  EXPECT_TRUE(logged) << "the clock's step is not logged";

  // The board changes job 7 now; the clock is put right (back an hour).
  const UnixTime changed = Now();
  testing::Mariadb("UPDATE job SET title = CONCAT(title, '+'), status = 'active', contacts = 'hr@example.com', "
                   "updated = '" + SiteTime(changed - 1) + "' WHERE id = 7");
  clock.Set(changed);  // not ahead of the database's clock
  EXPECT_EQ(JobIds(JoobleVisit(app)), (std::set<std::string>{"7"}));
  const std::string second = LastVisit();
  EXPECT_EQ(second, SiteTime(changed - 10));
  EXPECT_GE(second, first) << "the record moved back";

  // Stepped back another hour: a visit moves nothing.
  clock.Set(changed - 3600);
  JobIds(JoobleVisit(app));
  EXPECT_EQ(LastVisit(), second);
}

// Yads pages of one run (max_run_seconds = 1 hour) while the clock steps:
// back an hour (the run start then lies ahead of now), then forward an hour
// half an hour into the run (it then looks 90 minutes old): each page is
// taken and shows the run's date. Forged and expired tokens still get 400.
TEST_F(ClockIntegration, ARunsTokensAreTakenWhenTheClockStepsBackOrForwardAnHour) {
  const UnixTime t0 = 1796119200;  // 2026-12-01 10:00:00 UTC, 12:00:00 in Kyiv
  FixedClock clock(t0);
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "50"}, {"max_run_seconds", "3600"}})), &clock);
  struct Page {
    int status = 0;
    std::string date, token;
  };
  auto get = [&](const std::string& token) {
    Request req;
    req.path_info = "/yads";
    req.query_string = "date=2026-10-01+00:00:00" + (token.empty() ? "" : "&continue=" + token);
    testing::Reply r = testing::Fetch(app, req);
    Page p;
    p.status = r.status;
    if (r.status != 200) return p;
    const std::string utf8 = testing::Cp1251ToUtf8(r.body);
    tinyxml2::XMLDocument doc;
    EXPECT_EQ(doc.Parse(utf8.data(), utf8.size()), tinyxml2::XML_SUCCESS) << utf8.substr(0, 300);
    if (!doc.RootElement()) return p;
    p.date = doc.RootElement()->Attribute("date");
    if (auto* c = doc.RootElement()->FirstChildElement("continue")) p.token = c->GetText();
    return p;
  };
  const Page first = get("");
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(first.date, "2026-12-01 11:59:50");  // the run's start less settle_seconds
  ASSERT_FALSE(first.token.empty());

  clock.Set(t0 - 3600);  // stepped back an hour
  const Page second = get(first.token);
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.date, "2026-12-01 11:59:50");
  ASSERT_FALSE(second.token.empty());

  clock.Set(t0 + 1800 + 3600);  // half an hour into the run, stepped forward an hour
  const Page third = get(second.token);
  EXPECT_EQ(third.status, 200);
  EXPECT_EQ(third.date, "2026-12-01 11:59:50");
  ASSERT_FALSE(third.token.empty());
  std::string forged = third.token;
  forged[forged.size() / 2] = forged[forged.size() / 2] == 'A' ? 'B' : 'A';
  EXPECT_EQ(get(forged).status, 400);

  clock.Set(t0 + 3600 + 3600 + 1);  // the run's hour and the clock's hour are over
  EXPECT_EQ(get(third.token).status, 400);
}

std::string SetConfig() {
  return testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
      "publish_url = http://doska.example/maps\nrefresh_seconds = 600\n"
      "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "state_query = @ROOT@/sql/sample-sitemap-ads-state.sql\nkeyset = id\nlastmod = lastmod\nfetch_rows = 97\n"
      "max_items = 100\n");
}

struct Entry {
  std::string loc, lastmod;
};
std::vector<Entry> Entries(const std::string& xml, const char* entry) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(xml.data(), xml.size()), tinyxml2::XML_SUCCESS) << xml.substr(0, 300);
  std::vector<Entry> out;
  if (!doc.RootElement()) return out;
  for (auto* u = doc.RootElement()->FirstChildElement(entry); u; u = u->NextSiblingElement(entry)) {
    Entry e;
    if (auto* l = u->FirstChildElement("loc")) e.loc = l->GetText() ? l->GetText() : "";
    if (auto* l = u->FirstChildElement("lastmod")) e.lastmod = l->GetText() ? l->GetText() : "";
    out.push_back(e);
  }
  return out;
}

Request Get(const std::string& path) {
  Request r;
  r.path_info = path;
  return r;
}

// Every ad URL the index's parts list.
std::set<std::string> Listed(App& app, const std::string& index) {
  std::set<std::string> all;
  for (const Entry& p : Entries(index, "sitemap")) {
    const std::string name = p.loc.substr(p.loc.rfind('/') + 1);
    for (const Entry& u : Entries(testing::Fetch(app, Get("/" + name)).body, "url")) all.insert(u.loc);
  }
  return all;
}

// A plan made at noon, the clock then stepped back an hour: the index
// refreshes the plan at once (it was made "after now"; before, it was kept
// until 12:10, so ads added meanwhile were in no part for 70 minutes), the
// parts listed before keep their URLs, and the plan says when it was made.
TEST_F(ClockIntegration, APlanMadeBeforeTheClockSteppedBackIsRefreshed) {
  const UnixTime noon = 1796032800;  // 2026-11-30 12:00:00 in Kyiv
  FixedClock clock(noon);
  App app(LoadConfig(SetConfig()), &clock);
  const testing::Reply first = testing::Fetch(app, Get("/sitemap.xml"));
  ASSERT_EQ(first.status, 200) << first.body;
  const std::vector<Entry> parts = Entries(first.body, "sitemap");
  ASSERT_GE(parts.size(), 2u);

  clock.Set(noon - 3600);
  testing::Mariadb(
      "INSERT INTO listing (ref, title, body, added, updated, status) "
      "SELECT CONCAT('STEP', id), 'Новое', '', '2026-11-30 10:50:00', '2026-11-30 10:50:00', 'active' "
      "FROM listing ORDER BY id LIMIT 150");
  const testing::Reply again = testing::Fetch(app, Get("/sitemap.xml"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(testing::Table("SELECT planned FROM feed_part_plan WHERE feed = 'ads'"),
            (std::vector<std::vector<std::string>>{{std::to_string(noon - 3600)}}));
  const std::set<std::string> listed = Listed(app, again.body);
  const auto active = testing::Table("SELECT CONCAT('http://doska.example/ad/', ref, '.html') FROM listing "
                                     "WHERE status = 'active'");
  EXPECT_EQ(listed.size(), active.size());
  for (const auto& r : active) EXPECT_TRUE(listed.count(r[0])) << r[0] << " is in no part";
  for (const Entry& p : parts) {
    bool still = false;
    for (const Entry& q : Entries(again.body, "sitemap")) still = still || q.loc == p.loc;
    EXPECT_TRUE(still) << p.loc << " went away";
  }
}

// A board whose clock is ahead stamps an ad two hours after the web
// server's now: the part's and the index's Last-Modified say now, never
// the future (RFC 9110 8.8.2.1).
TEST_F(ClockIntegration, LastModifiedIsNeverLaterThanNow) {
  const UnixTime noon = 1796032800;  // 2026-11-30 12:00:00 in Kyiv
  testing::Mariadb("UPDATE listing SET updated = '2026-11-30 14:00:00' WHERE status = 'active' ORDER BY id LIMIT 1");
  FixedClock clock(noon);
  App app(LoadConfig(SetConfig()), &clock);
  testing::Reply index = testing::Fetch(app, Get("/sitemap.xml"));
  ASSERT_EQ(index.status, 200) << index.body;
  EXPECT_EQ(index.headers["Last-Modified"], "Mon, 30 Nov 2026 10:00:00 GMT");
  testing::Reply part = testing::Fetch(app, Get("/sitemap-ads-1.xml"));
  ASSERT_EQ(part.status, 200) << part.body;
  EXPECT_EQ(part.headers["Last-Modified"], "Mon, 30 Nov 2026 10:00:00 GMT");
  // The shipped mapping bounds the row's own date too: LEAST(l.updated, :now).
  bool found = false;
  for (const Entry& u : Entries(part.body, "url")) {
    if (u.lastmod > "2026-11-30T12:00:00+02:00") ADD_FAILURE() << u.loc << " has a lastmod in the future: " << u.lastmod;
    found = found || u.lastmod == "2026-11-30T12:00:00+02:00";
  }
  EXPECT_TRUE(found) << "the ad stamped 14:00 is not listed at now";
}

}  // namespace
}  // namespace feed
