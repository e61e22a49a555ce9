// The Jooble feed of the sample board against the real private MariaDB:
// incremental by the robot's last whole visit (or If-Modified-Since), 304
// when nothing changed, the visit record moved only by JoobleBot and only
// by a response written whole, full mode without expired jobs, and both
// encodings compared with the database field by field.
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "app.h"
#include "clock.h"
#include "datetime.h"
#include "dirty_text.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Reply;
using testing::Table;
using testing::Unhex;

// `jooble` and `jooble-1251` send what changed since the last visit
// (overlap_visits = 0), `jooble-overlap` since the one before it (the
// default), `jooble-pause` streams and sleeps at a marked job (a database
// that stops answering mid-feed).
const std::string kFeeds =
    "[feed jooble]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = UTF-8\nsince = robot JoobleBot\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 10\noverlap_visits = 0\n"
    "[feed jooble-1251]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = windows-1251\nsince = robot JoobleBot\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 10\noverlap_visits = 0\n"
    "[feed jooble-overlap]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = UTF-8\nsince = robot JoobleBot\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 0\n"
    "[feed jooble-pause]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @PAUSE_SQL@\n"
    "encoding = UTF-8\nsince = robot JoobleBot\nread = stream\n"
    "keyset = updated id\nfetch_rows = 100\nsettle_seconds = 0\n"
    "[feed jooble-full]\n"
    "template = @ROOT@/templates/jooble.xml\nquery = @ROOT@/sql/sample-jooble-full.sql\n"
    "state_query = @ROOT@/sql/sample-jooble-state.sql\nencoding = windows-1251\nsince = none\n"
    "keyset = id\nfetch_rows = 100\nvalue.hide_contacts = 1\n";

constexpr const char* kBot = "Mozilla/5.0 (compatible; JoobleBot/2.0; +http://jooble.org/)";
constexpr const char* kBrowser = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0";

Request Visit(const std::string& path, const std::string& agent, const std::string& ims = "") {
  Request r;
  r.path_info = path;
  r.user_agent = agent;
  r.if_modified_since = ims;
  return r;
}

std::string SiteNow() { return testing::KievNow(); }

// The robot's record for a feed, or "" when there is none.
std::string Record(const std::string& feed) {
  auto rows = Table("SELECT last_visit FROM feed_robot_visit WHERE robot = 'JoobleBot' AND feed = '" + feed + "'");
  return rows.empty() ? "" : rows[0][0];
}

struct Job {
  std::map<std::string, std::string> f;  // element -> text
};

// Parses a Jooble document (either encoding) into jobs by id; the text of
// an element joins its CDATA sections and the references between them.
std::map<std::string, Job> ParseJobs(const Reply& r, bool cp1251, std::string* hide_contacts = nullptr) {
  EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
  EXPECT_EQ(r.headers.at("Content-Type"), cp1251 ? "text/xml; charset=windows-1251" : "text/xml; charset=UTF-8");
  EXPECT_EQ(r.body.rfind(
                std::string("<?xml version=\"1.0\" encoding=\"") + (cp1251 ? "windows-1251" : "UTF-8") + "\"?>\n", 0),
            0u);
  std::string text = cp1251 ? testing::Cp1251ToUtf8(r.body) : r.body;
  tinyxml2::XMLDocument doc;
  std::map<std::string, Job> jobs;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    ADD_FAILURE() << "does not parse: " << doc.ErrorStr();
    return jobs;
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  EXPECT_STREQ(root->Name(), "jobs");
  if (hide_contacts) *hide_contacts = root->Attribute("hide_contacts") ? root->Attribute("hide_contacts") : "";
  for (const tinyxml2::XMLElement* j = root->FirstChildElement("job"); j; j = j->NextSiblingElement("job")) {
    EXPECT_EQ(j->FirstAttribute()->Next(), nullptr) << "id is the only attribute";
    Job job;
    // The elements in the order the format gives; <expire> only when known.
    std::string order;
    for (const tinyxml2::XMLElement* e = j->FirstChildElement(); e; e = e->NextSiblingElement()) {
      order += std::string(order.empty() ? "" : " ") + e->Name();
    }
    EXPECT_TRUE(order == "link name region salary company companyinfo description contacts expire pubdate updated" ||
                order == "link name region salary company companyinfo description contacts pubdate updated")
        << order;
    for (const tinyxml2::XMLElement* e = j->FirstChildElement(); e; e = e->NextSiblingElement()) {
      std::string all;
      for (const tinyxml2::XMLNode* n = e->FirstChild(); n; n = n->NextSibling()) {
        if (const tinyxml2::XMLText* t = n->ToText()) all += t->Value();
      }
      job.f[e->Name()] = all;
    }
    EXPECT_TRUE(jobs.emplace(j->Attribute("id"), job).second) << "job " << j->Attribute("id") << " twice";
  }
  return jobs;
}

// A job as the feed must show it. A text field is known exactly when it is
// plain already or one of the dirty texts the tests insert (dirty_text.h,
// written by hand); otherwise (the generator's random dirty rows) it is
// held to what plain text never holds.
struct DbJob {
  std::string status;
  bool has_contacts = false;  // not blank once cleaned
  std::map<std::string, std::optional<std::string>> expected;
  std::string expires, updated;
};

bool HasLetters(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

std::map<std::string, DbJob> DbJobs() {
  std::map<std::string, DbJob> out;
  for (const auto& c :
       Table("SELECT id, status, HEX(title), HEX(regions), HEX(salary), HEX(company), HEX(company_info),"
             " HEX(description), HEX(contacts), IFNULL(expires, ''), IFNULL(DATE_FORMAT(expires, '%d.%m.%Y'), ''),"
             " DATE_FORMAT(created, '%d.%m.%Y'), DATE_FORMAT(updated, '%d.%m.%Y'), updated FROM job")) {
    DbJob j;
    j.status = c[1];
    j.expected["link"] = "http://doska.example/job/" + c[0] + ".html";
    j.expected["name"] = testing::KnownPlain(Unhex(c[2]));
    j.expected["region"] = testing::KnownPlain(Unhex(c[3]));
    j.expected["salary"] = testing::KnownPlain(Unhex(c[4]));
    j.expected["company"] = testing::KnownPlain(Unhex(c[5]));
    j.expected["companyinfo"] = testing::KnownPlain(Unhex(c[6]));
    j.expected["description"] = testing::KnownPlain(Unhex(c[7]));
    j.expected["contacts"] = testing::KnownPlain(Unhex(c[8]));
    j.has_contacts = j.expected["contacts"] ? !j.expected["contacts"]->empty() : HasLetters(Unhex(c[8]));
    if (!c[10].empty()) j.expected["expire"] = c[10];
    j.expected["pubdate"] = c[11];
    j.expected["updated"] = c[12];
    j.expires = c[9];
    j.updated = c[13];
    out[c[0]] = j;
  }
  return out;
}

void ExpectSameAsDatabase(const std::map<std::string, Job>& jobs, const std::map<std::string, DbJob>& db) {
  for (const auto& [id, job] : jobs) {
    auto it = db.find(id);
    ASSERT_NE(it, db.end()) << id;
    for (const auto& [name, value] : it->second.expected) {
      auto got = job.f.find(name);
      if (got == job.f.end()) {
        ADD_FAILURE() << "job " << id << " has no <" << name << ">";
        continue;
      }
      if (value) {
        EXPECT_EQ(got->second, *value) << "job " << id << " <" << name << ">";
      } else {
        EXPECT_EQ(testing::WhyNotPlain(got->second), "") << "job " << id << " <" << name << ">: " << got->second;
      }
    }
    EXPECT_EQ(job.f.size(), it->second.expected.size()) << "job " << id;
  }
}

// Two jobs made of the dirty texts of dirty_text.h, changed on 2026-10-31.
void InsertDirtyJobs() {
  auto text = [](size_t i) {
    std::string hex;
    for (unsigned char c : testing::DirtyTexts().at(i).raw) {
      static const char* digits = "0123456789ABCDEF";
      hex += digits[c >> 4];
      hex += digits[c & 15];
    }
    return "CONVERT(0x" + hex + " USING utf8mb4)";
  };
  testing::Mariadb(
      "INSERT INTO job (title, regions, salary, company, company_info, description, contacts, created, updated) VALUES"
      " (" + text(2) + ", " + text(3) + ", " + text(6) + ", " + text(7) + ", " + text(10) + ", " + text(8) + ", " +
      text(13) + ", '2026-10-31 10:00:00', '2026-10-31 10:00:00'),"
      " (" + text(0) + ", " + text(4) + ", " + text(9) + ", " + text(11) + ", " + text(5) + ", " + text(12) + ", " +
      text(13) + ", '2026-10-31 10:00:00', '2026-10-31 10:00:01')");
}

class JoobleIntegration : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::LoadSampleBoard(200, 1500);
    InsertDirtyJobs();
    // The shipped query, sleeping at the job titled PAUSE-HERE.
    std::string pause = ReadSiteFile(testing::Env("FEED_TEST_ROOT") + "/sql/sample-jooble.sql");
    const std::string title = "j.title                                   AS name,";
    ASSERT_NE(pause.find(title), std::string::npos);
    pause.replace(pause.find(title), title.size(), title + " IF(j.title = 'PAUSE-HERE', SLEEP(60), 0) AS pause,");
    pause_sql_ = ::testing::TempDir() + "jooble-pause.sql";
    std::ofstream(pause_sql_) << pause;
    feeds_ = kFeeds;
    feeds_.replace(feeds_.find("@PAUSE_SQL@"), 11, pause_sql_);
    app_ = std::make_unique<App>(LoadConfig(testing::WriteConfig(feeds_)));
    app_->CheckDatabase();
  }
  std::unique_ptr<App> app_;
  std::string pause_sql_;
  std::string feeds_;  // kFeeds, with the pausing query's path
};

TEST_F(JoobleIntegration, FirstVisitAllThen304ThenOnlyWhatChanged) {
  auto db = DbJobs();
  std::set<std::string> qualifying, no_contacts;
  for (const auto& [id, j] : db) {
    if (j.status != "active") continue;
    (j.has_contacts ? qualifying : no_contacts).insert(id);
  }
  ASSERT_FALSE(no_contacts.empty()) << "the sample board should hold jobs without contacts";

  // First visit: everything that qualifies, jobs without contacts reported.
  EXPECT_EQ(Record("jooble"), "");
  Reply first = testing::Fetch(*app_, Visit("/jooble", kBot));
  auto jobs = ParseJobs(first, false);
  std::set<std::string> ids;
  for (const auto& [id, j] : jobs) ids.insert(id);
  EXPECT_EQ(ids, qualifying);
  ExpectSameAsDatabase(jobs, db);
  EXPECT_EQ(first.report.skipped, no_contacts.size());
  for (const std::string& id : no_contacts) {
    bool reported = false;
    for (const std::string& s : first.report.skipped_items)
      reported = reported || s.rfind("item " + id + ": contacts=", 0) == 0;
    EXPECT_TRUE(reported) << "job " << id << " without contacts not reported";
  }
  // Text with Ukrainian letters, emoji and ]]> came through.
  EXPECT_NE(first.body.find("]]]]><![CDATA[>"), std::string::npos);
  EXPECT_NE(first.body.find("ї"), std::string::npos);
  EXPECT_NE(first.body.find("\xF0\x9F"), std::string::npos) << "an emoji in UTF-8";

  // The record is the run's start less the settle margin.
  std::string record = Record("jooble");
  ASSERT_FALSE(record.empty());
  // Both read by GNU date (testing::KievDates), not by the program's own time code.
  const std::vector<std::string> seconds = testing::KievDates({testing::KievNow(), record}, "%s");
  const int64_t lag = std::stoll(seconds[0]) - std::stoll(seconds[1]);
  EXPECT_GE(lag, 10);
  EXPECT_LE(lag, 15);
  EXPECT_TRUE(first.report.visit_recorded);

  // Second visit right after, with If-Modified-Since: 304, no body.
  ASSERT_FALSE(first.headers["Last-Modified"].empty());
  Reply second = testing::Fetch(*app_, Visit("/jooble", kBot, first.headers["Last-Modified"]));
  EXPECT_EQ(second.status, 304);
  EXPECT_EQ(second.body, "");
  EXPECT_EQ(Record("jooble"), record) << "a 304 delivers nothing and records nothing";

  // Edits and new jobs come in the third visit, and nothing else.
  std::string now = SiteNow();
  testing::Mariadb("UPDATE job SET description = CONCAT(description, ' Оновлено ✅'), updated = '" + now +
                   "' WHERE id IN (3, 30, 300) AND status = 'active' AND contacts <> ''");
  auto fresh = Table("SELECT id FROM job WHERE id IN (3, 30, 300) AND status = 'active' AND contacts <> ''");
  testing::Mariadb(
      "INSERT INTO job (title, regions, salary, company, company_info, description, contacts, created, updated) VALUES"
      " ('Кур''єр', 'Кам''янське', '300$', 'ТОВ \"Ґанок\"', '', 'Опис ]]> 😀', 'тел. 0501234567', '" +
      now + "', '" + now +
      "'),"
      " ('Продавець', 'Київ', '', 'Магазин', '', 'Без контактів', '', '" +
      now + "', '" + now + "')");
  std::set<std::string> changed;
  for (const auto& r : fresh) changed.insert(r[0]);
  for (const auto& r : Table("SELECT id FROM job WHERE title = 'Кур''єр' AND updated = '" + now + "'"))
    changed.insert(r[0]);
  ASSERT_GE(changed.size(), 2u);
  Reply third = testing::Fetch(*app_, Visit("/jooble", kBot));
  auto third_jobs = ParseJobs(third, false);
  std::set<std::string> third_ids;
  for (const auto& [id, j] : third_jobs) third_ids.insert(id);
  EXPECT_EQ(third_ids, changed);
  EXPECT_EQ(third.report.skipped, 1u) << "the new job without contacts";
  ExpectSameAsDatabase(third_jobs, DbJobs());
}

TEST_F(JoobleIntegration, WindowsCp1251WithCdataStaysCorrect) {
  Reply r = testing::Fetch(*app_, Visit("/jooble-1251", kBot));
  auto jobs = ParseJobs(r, true);
  ASSERT_GT(jobs.size(), 1000u);
  ExpectSameAsDatabase(jobs, DbJobs());
  // Emoji and CJK cannot be in windows-1251 CDATA: the section closes, the
  // reference stands between, a new section opens; Ukrainian letters are in
  // the code page.
  EXPECT_NE(r.body.find("]]>&#128512;<![CDATA["), std::string::npos);
  EXPECT_NE(r.body.find("]]]]><![CDATA[>"), std::string::npos);
  EXPECT_NE(r.body.find("\xbf"), std::string::npos) << "ї as one windows-1251 byte";
}

// A hard-deleted job stamps nothing: the state's count and id sum change
// all the same, so the tag changes and Last-Modified moves to the moment
// the new state was first seen. The clock is fixed; the expected dates
// follow from that rule.
TEST_F(JoobleIntegration, AHardDeletedJobChangesTheTagAndLastModified) {
  testing::Mariadb("DELETE FROM feed_state_seen");
  FixedClock clock(1795600800);  // Wed, 25 Nov 2026 10:00:00 GMT
  App app(LoadConfig(testing::WriteConfig(feeds_)), &clock);
  auto visit = [&](const std::string& path, const std::string& inm, const std::string& ims) {
    Request r = Visit(path, kBrowser, ims);
    r.if_none_match = inm;
    return testing::Fetch(app, r);
  };
  Reply first = visit("/jooble-full", "", "");
  ASSERT_EQ(first.status, 200);
  const std::string etag = first.headers["ETag"];
  EXPECT_EQ(etag.front(), '"') << etag << ": the same state gives the same bytes, so the tag is strong";
  EXPECT_EQ(first.headers["Last-Modified"], "Wed, 25 Nov 2026 10:00:00 GMT");
  clock.Set(1795604400);  // 11:00, nothing changed
  EXPECT_EQ(visit("/jooble-full", etag, "").status, 304);
  EXPECT_EQ(visit("/jooble-full", "", "Wed, 25 Nov 2026 10:00:00 GMT").status, 304);

  // The oldest job the feed lists goes, hard: the newest change stays.
  const std::string newest = Table("SELECT MAX(updated) FROM job")[0][0];
  const std::string victim =
      Table("SELECT id FROM job WHERE status = 'active' AND TRIM(contacts) <> '' AND (expires IS NULL OR expires >="
            " '2026-11-25') ORDER BY updated, id LIMIT 1")[0][0];
  ASSERT_NE(first.body.find("<job id=\"" + victim + "\">"), std::string::npos);
  testing::Mariadb("DELETE FROM job WHERE id = " + victim);
  ASSERT_EQ(Table("SELECT MAX(updated) FROM job")[0][0], newest);
  clock.Set(1795608000);  // 12:00
  Reply after = visit("/jooble-full", etag, "");
  EXPECT_EQ(after.status, 200);
  EXPECT_NE(after.headers["ETag"], etag);
  EXPECT_EQ(after.body.find("<job id=\"" + victim + "\">"), std::string::npos);
  EXPECT_EQ(after.headers["Last-Modified"], "Wed, 25 Nov 2026 12:00:00 GMT");
  EXPECT_EQ(visit("/jooble-full", "", "Wed, 25 Nov 2026 10:00:00 GMT").status, 200);
  EXPECT_EQ(visit("/jooble-full", "", "Wed, 25 Nov 2026 12:00:00 GMT").status, 304);
  // The incremental feed's state covers the whole table, not the robot's
  // since: its If-Modified-Since (which is also its since) meets the same
  // record on the next visit.
  Reply bot = testing::Fetch(app, Visit("/jooble", kBot));
  ASSERT_EQ(bot.status, 200);
  EXPECT_EQ(bot.headers["Last-Modified"], "Wed, 25 Nov 2026 12:00:00 GMT");
  clock.Set(1795611600);  // 13:00
  Reply again = testing::Fetch(app, Visit("/jooble", kBot, bot.headers["Last-Modified"]));
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(Table("SELECT COUNT(*) FROM feed_state_seen")[0][0], "2") << "one record per feed";
}

TEST_F(JoobleIntegration, IfModifiedSinceWinsOverTheRecord) {
  testing::Mariadb("INSERT INTO feed_robot_visit (robot, feed, last_visit, recorded) VALUES ('JoobleBot', 'jooble', '2030-01-01 00:00:00', NOW())");
  auto none = ParseJobs(testing::Fetch(*app_, Visit("/jooble", kBot)), false);
  EXPECT_TRUE(none.empty()) << "the record says everything was seen";
  std::string cut = "2026-10-25 00:00:00";
  auto jobs = ParseJobs(
      testing::Fetch(*app_, Visit("/jooble", kBot, FormatHttpDate(testing::Kiev().ToUnix(*ParseSqlDateTime(cut))))), false);
  auto expected =
      Table("SELECT id FROM job WHERE status = 'active' AND updated >= '" + cut + "' AND TRIM(contacts) <> ''");
  EXPECT_GT(jobs.size(), 50u);
  EXPECT_LE(jobs.size(), expected.size());
  EXPECT_GE(jobs.size() + 5, expected.size()) << "contacts that are blank only after cleaning are left out too";
  for (const auto& [id, j] : jobs)
    EXPECT_GE(j.f.at("updated").substr(6) + j.f.at("updated").substr(3, 2) + j.f.at("updated").substr(0, 2),
              "20261025");
}

TEST_F(JoobleIntegration, APersonLookingDoesNotMoveTheRecord) {
  testing::Mariadb("INSERT INTO feed_robot_visit (robot, feed, last_visit, recorded) VALUES ('JoobleBot', 'jooble', '2026-10-30 00:00:00', NOW())");
  Reply bot_view = testing::Fetch(*app_, Visit("/jooble", kBrowser));
  EXPECT_EQ(bot_view.status, 200);
  EXPECT_TRUE(bot_view.report.complete);
  EXPECT_FALSE(bot_view.report.visit_recorded);
  EXPECT_EQ(Record("jooble"), "2026-10-30 00:00:00");
  // The person sees what the robot would get next.
  auto jobs = ParseJobs(bot_view, false);
  EXPECT_FALSE(jobs.empty());
  for (const auto& [id, j] : jobs) EXPECT_GE(j.f.at("updated").substr(6) + j.f.at("updated").substr(3, 2), "202610");
}

TEST_F(JoobleIntegration, ACutOffVisitDoesNotAdvanceTheRecord) {
  // The client goes away after 20 KB.
  Reply cut = testing::FetchCut(*app_, Visit("/jooble", kBot), 20000);
  EXPECT_FALSE(cut.report.complete);
  EXPECT_EQ(Record("jooble"), "");
  // The next visit gets every job, as a first one would.
  Reply whole = testing::Fetch(*app_, Visit("/jooble", kBot));
  EXPECT_GT(ParseJobs(whole, false).size(), 1000u);
  EXPECT_NE(Record("jooble"), "");
}

// The database stops answering while the feed is being made (a job near
// the end of the walk makes the server sleep, and the test kills that
// connection once it sleeps): the response is a clean 503 with Retry-After,
// not a cut document, and the record stays.
TEST_F(JoobleIntegration, ADatabaseLostMidFeedIsA503AndNoDocument) {
  testing::Mariadb("UPDATE job SET title = 'PAUSE-HERE', updated = '" + SiteNow() +
                   "' WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM job WHERE status = 'active') m)");
  Reply reply;
  std::thread visit([&] { reply = testing::Fetch(*app_, Visit("/jooble-pause", kBot)); });
  std::string killed;
  testing::PollUntil([&] {
    auto rows = Table("SELECT ID FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep' AND INFO LIKE '%PAUSE-HERE%'");
    if (rows.empty() || rows[0].empty() || rows[0][0].empty()) return false;
    killed = rows[0][0];
    testing::Mariadb("KILL " + killed);
    return true;
  });
  visit.join();
  ASSERT_FALSE(killed.empty()) << "the feed's query never reached the marked job";
  EXPECT_EQ(reply.status, 503);
  EXPECT_EQ(reply.headers["Retry-After"], "60");
  EXPECT_EQ(reply.body, "the database is unavailable; try again later\n");
  EXPECT_FALSE(reply.report.visit_recorded);
  EXPECT_EQ(Record("jooble-pause"), "");
}

// Every change goes out in two visits: a visit cut where the program cannot
// see it (the web server took the whole response, the robot did not) loses
// nothing, because the next one sends again what it carried.
TEST_F(JoobleIntegration, WithOverlapEachChangeComesInTwoVisits) {
  // Visits a minute apart on the engine's clock; each change is stamped
  // between two of them. The clock starts behind the real one so that it
  // never passes the database's (a visit is never recorded later).
  FixedClock clock(Now() - 600);
  App app(LoadConfig(testing::WriteConfig(feeds_)), &clock);
  auto visit = [&] {
    std::set<std::string> s;
    for (const auto& [id, j] : ParseJobs(testing::Fetch(app, Visit("/jooble-overlap", kBot)), false)) s.insert(id);
    clock.Advance(60);
    return s;
  };
  auto change = [&](const std::string& id) {
    std::string stamp = FormatSqlDateTime(testing::Kiev().FromUnix(clock.Now() - 30));
    testing::Mariadb("UPDATE job SET title = CONCAT(title, '+'), status = 'active', contacts = 'hr@example.com', updated = '" +
                     stamp + "' WHERE id = " + id);
  };
  testing::Mariadb("UPDATE job SET updated = '" + FormatSqlDateTime(testing::Kiev().FromUnix(clock.Now() - 3600)) +
                   "' WHERE updated > '" + FormatSqlDateTime(testing::Kiev().FromUnix(clock.Now() - 3600)) + "'");
  const size_t all = visit().size();
  ASSERT_GT(all, 1000u);
  // The first visit may have been cut unseen: the second sends all again.
  change("3");
  EXPECT_EQ(visit().size(), all);
  // Job 300 changes; visit A carries it, and 3 (changed before the last
  // visit). Were A cut unseen, B still carries 300; C has nothing.
  change("300");
  EXPECT_EQ(visit(), (std::set<std::string>{"3", "300"}));
  EXPECT_EQ(visit(), (std::set<std::string>{"300"}));
  EXPECT_EQ(visit(), (std::set<std::string>{}));
}

// Three whole visits in the same second (issue #22, point 6): the second
// makes the first previous although both are stamped alike, so the third,
// with nothing changed, carries nothing; before, the record kept no
// previous visit and the third sent the whole feed again.
TEST_F(JoobleIntegration, ThreeVisitsInOneSecondTheThirdCarriesNothingWhenNothingChanged) {
  FixedClock clock(Now());
  App app(LoadConfig(testing::WriteConfig(feeds_)), &clock);
  testing::Mariadb("UPDATE job SET updated = '" + FormatSqlDateTime(testing::Kiev().FromUnix(clock.Now() - 3600)) +
                   "' WHERE updated > '" + FormatSqlDateTime(testing::Kiev().FromUnix(clock.Now() - 3600)) + "'");
  auto visit = [&] { return ParseJobs(testing::Fetch(app, Visit("/jooble-overlap", kBot)), false).size(); };
  const size_t all = visit();
  ASSERT_GT(all, 1000u);
  EXPECT_EQ(visit(), all) << "no previous visit yet: the first may have been cut unseen";
  EXPECT_EQ(visit(), 0u);
  const auto row = testing::Table("SELECT last_visit, previous_visit FROM feed_robot_visit WHERE feed = 'jooble-overlap'");
  ASSERT_EQ(row.size(), 1u);
  EXPECT_EQ(row[0][0], row[0][1]);
  // A visit stamped earlier (the web server's clock stepped back an hour)
  // moves neither.
  clock.Advance(-3600);
  visit();
  EXPECT_EQ(testing::Table("SELECT last_visit, previous_visit FROM feed_robot_visit WHERE feed = 'jooble-overlap'"), row);
}

TEST_F(JoobleIntegration, FullModeListsEveryCurrentJobButTheExpired) {
  std::string today = SiteNow().substr(0, 10);
  testing::Mariadb("UPDATE job SET expires = DATE_SUB('" + today + "', INTERVAL 1 DAY) WHERE id % 10 = 0");
  testing::Mariadb("UPDATE job SET expires = '" + today + "' WHERE id % 10 = 1");
  auto db = DbJobs();
  std::set<std::string> expected;
  for (const auto& [id, j] : db) {
    if (j.status == "active" && j.has_contacts && (j.expires.empty() || j.expires >= today))
      expected.insert(id);
  }
  std::string hide;
  for (int visit = 0; visit < 2; ++visit) {
    auto jobs = ParseJobs(testing::Fetch(*app_, Visit("/jooble-full", kBot)), true, &hide);
    std::set<std::string> ids;
    for (const auto& [id, j] : jobs) ids.insert(id);
    EXPECT_EQ(ids, expected) << "visit " << visit;
    EXPECT_EQ(hide, "1");
    if (visit == 0) ExpectSameAsDatabase(jobs, db);
  }
  EXPECT_EQ(Record("jooble-full"), "") << "a full feed keeps no record";
  std::string plain;
  ParseJobs(testing::Fetch(*app_, Visit("/jooble", kBot)), false, &plain);
  EXPECT_EQ(plain, "") << "no hide_contacts attribute when the config does not ask for it";
}

// The shipped legacy mapping's full visit (query_full: the primary key)
// sends the same vacancies as its incremental walk over the `modified`
// index would for a visit with no record, in primary-key order.
TEST(LegacyBoard, JoobleFullVisitWalksThePrimaryKeyAndSendsWhatTheDatedWalkSends) {
  std::optional<Config> legacy = testing::LegacyConfig();
  if (!legacy) GTEST_SKIP() << "no legacy board loaded (../shared/board not found)";
  Config dated = *legacy;
  for (FeedConfig& f : dated.feeds) {
    if (f.name != "jooble") continue;
    ASSERT_FALSE(f.query_full_file.empty()) << "the shipped Jooble mapping walks the primary key for a full visit";
    f.query_full_file.clear();
    f.state_query_full_file.clear();
    f.keyset_full.clear();
  }
  App full_app(std::move(*legacy)), dated_app(std::move(dated));
  auto ids = [](App& app) {
    Request req;
    req.path_info = "/jooble";
    req.user_agent = "Mozilla/5.0 (a person looking)";  // moves no record: a full visit each time
    Reply r = testing::Fetch(app, req);
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<long long> out;
    for (size_t at = r.body.find("<job id=\""); at != std::string::npos; at = r.body.find("<job id=\"", at + 1)) {
      out.push_back(std::stoll(r.body.substr(at + 9)));
    }
    return out;
  };
  const std::vector<long long> by_key = ids(full_app), by_date = ids(dated_app);
  ASSERT_GT(by_key.size(), 100u);
  EXPECT_TRUE(std::is_sorted(by_key.begin(), by_key.end())) << "the full visit is in primary-key order";
  EXPECT_FALSE(std::is_sorted(by_date.begin(), by_date.end())) << "the dated walk is in `modified` order";
  EXPECT_EQ(std::set<long long>(by_key.begin(), by_key.end()), std::set<long long>(by_date.begin(), by_date.end()));
  EXPECT_EQ(std::set<long long>(by_key.begin(), by_key.end()).size(), by_key.size()) << "a vacancy sent twice";
}

}  // namespace
}  // namespace feed
