// RSS 2.0 and Atom 1.0 of the newest ads against the real database: one
// item per row in order, the required elements, dates parsed back by
// parsers of their own RFCs, and text in any script round-tripped.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app.h"
#include "clock.h"
#include "datetime.h"
#include "test_env.h"
#include "time_zone.h"

namespace feed {
namespace {

// RFC 822 / RFC 2822 date-time with a four-digit year and a numeric zone:
// "Wed, 01 Jul 2026 12:00:00 +0300". nullopt for anything else.
std::optional<UnixTime> ParseRfc822(const std::string& s) {
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char day[4], mon[4], sign;
  int d, y, h, mi, se, zh, zm, n = 0;
  if (std::sscanf(s.c_str(), "%3s, %2d %3s %4d %2d:%2d:%2d %c%2d%2d%n", day, &d, mon, &y, &h, &mi, &se, &sign, &zh,
                  &zm, &n) != 10 ||
      static_cast<size_t>(n) != s.size() || s.size() != 31 || (sign != '+' && sign != '-')) {
    return std::nullopt;
  }
  int m = 0;
  while (m < 12 && std::string(kMonths[m]) != mon) ++m;
  if (m == 12) return std::nullopt;
  const UnixTime t = NaiveSeconds({y, m + 1, d, h, mi, se}) - (sign == '+' ? 1 : -1) * (zh * 3600 + zm * 60);
  // The day name must be the true one.
  const int64_t days = (t + (sign == '+' ? 1 : -1) * (zh * 3600 + zm * 60)) / 86400;
  if (std::string(kDays[((days % 7) + 11) % 7]) != day) return std::nullopt;
  return t;
}

// RFC 3339 date-time: "2026-07-01T12:00:00+03:00" or "...Z".
std::optional<UnixTime> ParseRfc3339(const std::string& s) {
  int y, mo, d, h, mi, se, n = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &se, &n) != 6 || n != 19) {
    return std::nullopt;
  }
  const UnixTime local = NaiveSeconds({y, mo, d, h, mi, se});
  const std::string zone = s.substr(19);
  if (zone == "Z") return local;
  int zh, zm;
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' ||
      std::sscanf(zone.c_str() + 1, "%2d:%2d", &zh, &zm) != 2) {
    return std::nullopt;
  }
  return local - (zone[0] == '+' ? 1 : -1) * (zh * 3600 + zm * 60);
}

TEST(DateParsers, ReadTheFormsTheRfcsDefine) {
  EXPECT_EQ(ParseRfc822("Wed, 01 Jul 2026 12:00:00 +0300"), 1782896400);
  EXPECT_FALSE(ParseRfc822("Thu, 01 Jul 2026 12:00:00 +0300")) << "wrong day name";
  EXPECT_FALSE(ParseRfc822("Wed, 01 Jul 26 12:00:00 +0300")) << "two-digit year";
  EXPECT_EQ(ParseRfc3339("2026-07-01T12:00:00+03:00"), 1782896400);
  EXPECT_EQ(ParseRfc3339("2026-07-01T09:00:00Z"), 1782896400);
  EXPECT_FALSE(ParseRfc3339("2026-07-01 12:00:00+03:00"));
}

std::string Text(const tinyxml2::XMLElement* e, const char* name) {
  const tinyxml2::XMLElement* c = e->FirstChildElement(name);
  return c && c->GetText() ? c->GetText() : "";
}

class RecentIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::LoadSampleBoard(3000, 200);
    // The newest ad: text in three scripts, an emoji and a typed entity.
    testing::Mariadb(
        "INSERT INTO listing (ref, title, body, added, updated) VALUES "
        "('NEWEST1', 'Новое 中文 😀', '<b>Текст</b> 你好 😀 &amp; ещё', '2030-01-01 00:00:00', "
        "'2030-01-02 03:04:05')");
  }
  static std::string Config() {
    return testing::WriteConfig(
        "[feed rss]\npath = /rss\ntemplate = @ROOT@/templates/rss.xml\nquery = @ROOT@/sql/sample-recent-ads.sql\n"
        "state_query = @ROOT@/sql/sample-recent-ads-state.sql\norder = desc\nkeyset = published id_key\n"
        "value.self = http://doska.example/feeds/rss\n"
        "[feed atom]\npath = /atom\ntemplate = @ROOT@/templates/atom.xml\n"
        "query = @ROOT@/sql/sample-recent-ads.sql\nstate_query = @ROOT@/sql/sample-recent-ads-state.sql\n"
        "order = desc\nkeyset = published id_key\nmax_items = 30\nvalue.self = http://doska.example/feeds/atom\n");
  }
  // The newest active ads, as the board has them.
  static std::vector<std::vector<std::string>> Newest(int n) {
    return testing::Table("SELECT id, ref, added, updated FROM listing WHERE status = 'active' "
                          "ORDER BY added DESC, id DESC LIMIT " + std::to_string(n));
  }
};

// Column `col` of each row (a Kiev DATETIME) in Unix seconds, read by GNU
// date (testing::KievDates), not by the program's own time code.
std::vector<std::string> Seconds(const std::vector<std::vector<std::string>>& rows, size_t col) {
  std::vector<std::string> local;
  for (const auto& r : rows) local.push_back(r[col]);
  return testing::KievDates(local, "%s");
}

Request Get(const std::string& path) {
  Request r;
  r.path_info = path;
  return r;
}

// Dates that happened are never written in the future (issue #22, point
// 5): the ad of 2030 is published at the clock's now, 2026-12-01 12:00 in
// Kiev.
TEST_F(RecentIntegration, RssListsTheNewestAdsWithEveryRequiredElement) {
  const UnixTime now = testing::Kiev().ToUnix({2026, 12, 1, 12, 0, 0});
  FixedClock clock(now);
  App app(LoadConfig(Config()), &clock);
  testing::Reply r = testing::Fetch(app, Get("/rss"));
  ASSERT_EQ(r.status, 200) << r.body;
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(r.body.data(), r.body.size()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* channel = doc.RootElement()->FirstChildElement("channel");
  ASSERT_NE(channel, nullptr);
  EXPECT_STREQ(doc.RootElement()->Attribute("version"), "2.0");
  EXPECT_EQ(Text(channel, "title"), "Доска");
  EXPECT_EQ(Text(channel, "link"), "http://doska.example/");
  EXPECT_EQ(Text(channel, "description"), "Объявления");
  const tinyxml2::XMLElement* self = channel->FirstChildElement("atom:link");
  ASSERT_NE(self, nullptr);
  EXPECT_STREQ(self->Attribute("rel"), "self");
  EXPECT_STREQ(self->Attribute("href"), "http://doska.example/feeds/rss");

  const auto expected = Newest(50);
  const std::vector<std::string> published = Seconds(expected, 2);
  size_t i = 0;
  for (auto* item = channel->FirstChildElement("item"); item; item = item->NextSiblingElement("item"), ++i) {
    ASSERT_LT(i, expected.size());
    const auto& row = expected[i];
    EXPECT_EQ(Text(item, "link"), "http://doska.example/ad/" + row[1] + ".html");
    const tinyxml2::XMLElement* guid = item->FirstChildElement("guid");
    ASSERT_NE(guid, nullptr);
    EXPECT_STREQ(guid->Attribute("isPermaLink"), "false");
    EXPECT_EQ(Text(item, "guid"), "ad-" + row[0]);
    EXPECT_FALSE(Text(item, "title").empty());
    ASSERT_NE(item->FirstChildElement("description"), nullptr);
    auto pub = ParseRfc822(Text(item, "pubDate"));
    ASSERT_TRUE(pub) << Text(item, "pubDate");
    EXPECT_EQ(*pub, std::min<UnixTime>(now, std::stoll(published[i])));
  }
  EXPECT_EQ(i, 50u) << "max_items defaults to 50 for a feed of the newest items";
  const tinyxml2::XMLElement* first = channel->FirstChildElement("item");
  EXPECT_EQ(Text(first, "title"), "Новое 中文 😀");
  EXPECT_EQ(Text(first, "description"), "Текст 你好 😀 & ещё");
  EXPECT_EQ(Text(first, "pubDate"), "Tue, 01 Dec 2026 12:00:00 +0200") << "2030-01-01, written as now";
}

TEST_F(RecentIntegration, AtomListsTheNewestAdsWithEveryRequiredElement) {
  const UnixTime now = testing::Kiev().ToUnix({2026, 12, 1, 12, 0, 0});
  FixedClock clock(now);
  App app(LoadConfig(Config()), &clock);
  testing::Reply r = testing::Fetch(app, Get("/atom"));
  ASSERT_EQ(r.status, 200) << r.body;
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(r.body.data(), r.body.size()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* feed = doc.RootElement();
  EXPECT_STREQ(feed->Name(), "feed");
  EXPECT_STREQ(feed->Attribute("xmlns"), "http://www.w3.org/2005/Atom");
  EXPECT_EQ(Text(feed, "id"), "http://doska.example/feeds/atom");
  EXPECT_EQ(Text(feed, "title"), "Доска");
  ASSERT_NE(feed->FirstChildElement("author"), nullptr);
  EXPECT_EQ(Text(feed->FirstChildElement("author"), "name"), "Доска");
  const tinyxml2::XMLElement* self = feed->FirstChildElement("link");
  ASSERT_NE(self, nullptr);
  EXPECT_STREQ(self->Attribute("rel"), "self");
  EXPECT_STREQ(self->Attribute("href"), "http://doska.example/feeds/atom");
  // The feed's updated is the newest change among the entries listed
  // (2030-01-02 03:04:05) but never later than now (issue #22, point 5).
  auto updated = ParseRfc3339(Text(feed, "updated"));
  ASSERT_TRUE(updated) << Text(feed, "updated");
  EXPECT_EQ(*updated, now);

  const auto expected = Newest(30);
  const std::vector<std::string> published = Seconds(expected, 2), updated_at = Seconds(expected, 3);
  size_t i = 0;
  for (auto* e = feed->FirstChildElement("entry"); e; e = e->NextSiblingElement("entry"), ++i) {
    ASSERT_LT(i, expected.size());
    const auto& row = expected[i];
    const std::string url = "http://doska.example/ad/" + row[1] + ".html";
    EXPECT_EQ(Text(e, "id"), url);
    EXPECT_STREQ(e->FirstChildElement("link")->Attribute("href"), url.c_str());
    EXPECT_FALSE(Text(e, "title").empty());
    ASSERT_NE(e->FirstChildElement("summary"), nullptr);
    auto up = ParseRfc3339(Text(e, "updated"));
    auto pub = ParseRfc3339(Text(e, "published"));
    ASSERT_TRUE(up && pub) << Text(e, "updated") << " " << Text(e, "published");
    EXPECT_EQ(*up, std::min<UnixTime>(now, std::stoll(updated_at[i])));
    EXPECT_EQ(*pub, std::min<UnixTime>(now, std::stoll(published[i])));
  }
  EXPECT_EQ(i, 30u) << "max_items";
  const tinyxml2::XMLElement* first = feed->FirstChildElement("entry");
  EXPECT_EQ(Text(first, "title"), "Новое 中文 😀");
  EXPECT_EQ(Text(first, "summary"), "Текст 你好 😀 & ещё");
  EXPECT_EQ(Text(first, "updated"), "2026-12-01T12:00:00+02:00") << "2030-01-02 03:04:05, written as now";
}

TEST_F(RecentIntegration, ConditionalRequestsAndANewAdChangeTheTag) {
  App app(LoadConfig(Config()));
  testing::Reply r = testing::Fetch(app, Get("/atom"));
  Request cond = Get("/atom");
  cond.if_none_match = r.headers["ETag"];
  EXPECT_EQ(testing::Fetch(app, cond).status, 304);
  testing::Mariadb(
      "INSERT INTO listing (ref, title, body, added, updated) VALUES "
      "('NEWEST2', 'Ещё новее', '', '2030-01-03 00:00:00', '2030-01-03 00:00:00')");
  EXPECT_EQ(testing::Fetch(app, cond).status, 200);
  testing::Mariadb("DELETE FROM listing WHERE ref = 'NEWEST2'");
  // Back to the old state, and then a hard delete of a listed ad that is
  // not its newest change: the XOR of the ids changes, so does the tag.
  EXPECT_EQ(testing::Fetch(app, cond).status, 304);
  std::vector<std::string> victim;
  for (const auto& row : Newest(30)) {
    if (row[3] < "2030" && row[1].find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
                               std::string::npos) {
      victim = row;
      break;
    }
  }
  ASSERT_FALSE(victim.empty());
  const std::string link = "<id>http://doska.example/ad/" + victim[1] + ".html</id>";
  ASSERT_NE(r.body.find(link), std::string::npos);
  testing::Mariadb("DELETE FROM listing WHERE id = " + victim[0]);
  testing::Reply after = testing::Fetch(app, cond);
  EXPECT_EQ(after.status, 200);
  EXPECT_EQ(after.body.find(link), std::string::npos);
  EXPECT_EQ(after.headers["ETag"].front(), '"') << "RSS and Atom bodies are the same bytes for one state";
}

}  // namespace
}  // namespace feed
