// The Yads feed of the sample board against the real private MariaDB:
// every page parsed and checked field by field against the database,
// paging exactly once under concurrent writes, a database outage answered
// with 503 and recovered from in the same process, and a feed cut midway
// left unparseable.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "app.h"
#include "continue_token.h"
#include "clock.h"
#include "datetime.h"
#include "error.h"
#include "dirty_text.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Cp1251ToUtf8;
using testing::Env;
using testing::Mariadb;

using testing::Reply;
using testing::Table;
using testing::Unhex;

Reply Get(App& app, const std::string& query, const std::string& method = "GET",
          std::map<std::string, std::string> extra = {}) {
  Request req;
  req.method = method;
  req.path_info = "/yads";
  req.query_string = query;
  req.if_none_match = extra["If-None-Match"];
  req.if_modified_since = extra["If-Modified-Since"];
  return testing::Fetch(app, req);
}

// One ad as the feed must show it, from the table's raw values. A text
// field is known exactly when it is plain already or one of the dirty
// texts the tests insert (dirty_text.h, written by hand); otherwise (the
// generator's random dirty rows) it is held to what plain text never holds.
struct ExpectedAd {
  std::optional<std::string> title, body, name, town;
  std::string tip, tel, email, icq, pic, date, period, url;
};

bool HasValue(const std::string& s) { return s.find_first_not_of(" \t\r\n") != std::string::npos; }

// One ad as the feed must show it, from a row of HEX()-ed text columns:
// ref, title, body, author, kind (1/2 or offer/demand), town, phone, email,
// icq, photo, DATE(added), days; `url` is the page the feed must name.
ExpectedAd FromRow(const std::vector<std::string>& c, const std::string& url) {
  ExpectedAd a;
  a.title = testing::KnownPlain(Unhex(c[1]));
  a.body = testing::KnownPlain(Unhex(c[2]));
  a.name = testing::KnownPlain(Unhex(c[3]));
  a.tip = c[4] == "demand" || c[4] == "2" ? "2" : "1";
  a.town = testing::KnownPlain(Unhex(c[5]));
  a.tel = HasValue(Unhex(c[6])) ? "1" : "0";
  a.email = HasValue(Unhex(c[7])) ? "1" : "0";
  a.icq = HasValue(Unhex(c[8])) ? "1" : "0";
  a.pic = HasValue(Unhex(c[9])) ? "1" : "0";
  a.date = c[10];
  a.period = c[11] == "0" ? "30" : c[11];
  a.url = url;
  return a;
}

void ExpectText(const std::string& id, const char* field, const std::string& shown,
                const std::optional<std::string>& expected) {
  if (expected) {
    EXPECT_EQ(shown, *expected) << id << " " << field;
  } else {
    EXPECT_EQ(testing::WhyNotPlain(shown), "") << id << " " << field << ": " << shown;
  }
}

// Checks one parsed ad against what the database says it must be.
void ExpectAd(const std::string& id, const std::map<std::string, std::string>& f, const ExpectedAd& e) {
  ExpectText(id, "title", f.at("title"), e.title);
  ExpectText(id, "body", f.at("body"), e.body);
  ExpectText(id, "name", f.at("name"), e.name);
  EXPECT_EQ(f.at("tip"), e.tip) << id;
  ExpectText(id, "town", f.at("town"), e.town);
  EXPECT_EQ(f.at("tel"), e.tel) << id;
  EXPECT_EQ(f.at("email"), e.email) << id;
  EXPECT_EQ(f.at("icq"), e.icq) << id;
  EXPECT_EQ(f.at("pic"), e.pic) << id;
  EXPECT_EQ(f.at("date"), e.date) << id;
  EXPECT_EQ(f.at("period"), e.period) << id;
  EXPECT_EQ(f.at("url"), e.url) << id;
}

// Active ads with a valid id (ref), by ref; and the refs that break the id rule.
std::map<std::string, ExpectedAd> ExpectedAds(const std::string& since, std::set<std::string>* bad_refs) {
  std::map<std::string, ExpectedAd> ads;
  auto rows = Table(
      "SELECT HEX(l.ref), HEX(l.title), HEX(l.body), HEX(l.author), l.kind, HEX(IFNULL(r.name, '')),"
      " HEX(l.phone), HEX(l.email), HEX(l.icq), HEX(l.photo), DATE(l.added), l.days"
      " FROM listing l LEFT JOIN region r ON r.region_id = l.region_id"
      " WHERE l.status = 'active' AND l.added >= '" +
      since + "'");
  for (const auto& c : rows) {
    std::string ref = Unhex(c[0]);
    bool valid =
        !ref.empty() && ref.size() <= 32 &&
        ref.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == std::string::npos;
    if (!valid) {
      bad_refs->insert(ref);
      continue;
    }
    ads[ref] = FromRow(c, "doska.example/ad/" + ref + ".html");
  }
  return ads;
}

// A page of the feed, parsed.
struct Page {
  std::string catalog_date;
  std::vector<std::pair<std::string, std::map<std::string, std::string>>> ads;  // id -> fields
  std::string continue_token;                                                   // empty on the last page
};

Page Parse(const Reply& r, const std::string& charset = "windows-1251") {
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers.at("Content-Type"), "text/xml; charset=" + charset);
  EXPECT_EQ(r.body.rfind("<?xml version=\"1.0\" encoding=\"" + charset + "\"?>\n", 0), 0u);
  std::string utf8 = charset == "windows-1251" ? Cp1251ToUtf8(r.body) : testing::IconvToUtf8(r.body, charset);
  tinyxml2::XMLDocument doc;
  Page page;
  if (doc.Parse(utf8.c_str(), utf8.size()) != tinyxml2::XML_SUCCESS) {
    ADD_FAILURE() << "page does not parse: " << doc.ErrorStr();
    return page;
  }
  const tinyxml2::XMLElement* root = doc.RootElement();
  EXPECT_STREQ(root->Name(), "yml_catalog");
  page.catalog_date = root->Attribute("date");
  const char* order[] = {"title", "body", "name", "tip",    "town", "tel", "email",
                         "icq",   "pic",  "date", "period", "url",  "id"};
  for (const tinyxml2::XMLElement* ad = root->FirstChildElement("ads")->FirstChildElement("ad"); ad;
       ad = ad->NextSiblingElement("ad")) {
    std::map<std::string, std::string> f;
    size_t i = 0;
    for (const tinyxml2::XMLElement* e = ad->FirstChildElement(); e; e = e->NextSiblingElement(), ++i) {
      EXPECT_LT(i, 13u);
      if (i < 13) {
        EXPECT_STREQ(e->Name(), order[i]);
      }
      f[e->Name()] = e->GetText() ? e->GetText() : "";
    }
    EXPECT_EQ(i, 13u);
    page.ads.emplace_back(f["id"], f);
  }
  if (const tinyxml2::XMLElement* c = root->FirstChildElement("continue")) page.continue_token = c->GetText();
  return page;
}

// Counts the ads `pages` brought (their last titles into *title): each
// must come once, and each ad of `before` once unless it was deleted ahead
// of the robot.
std::map<std::string, int> ExpectEachAdOnce(const std::vector<Page>& pages,
                                            const std::map<std::string, ExpectedAd>& before,
                                            const std::set<std::string>& deleted_ahead,
                                            std::map<std::string, std::string>* title) {
  std::map<std::string, int> got;
  for (const Page& p : pages) {
    for (const auto& [id, f] : p.ads) {
      ++got[id];
      (*title)[id] = f.at("title");
    }
  }
  for (const auto& [id, n] : got) EXPECT_EQ(n, 1) << "ad " << id << " sent " << n << " times";
  for (const auto& [ref, ad] : before) {
    if (deleted_ahead.count(ref)) {
      EXPECT_EQ(got.count(ref), 0u) << "ad " << ref << " was deleted before the robot reached it";
    } else {
      EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " qualified at the start, stayed, and was lost";
    }
  }
  return got;
}

// Follows a robot's run from the first page to the last.
std::vector<Page> FollowRun(App& app, const std::string& date, const std::string& charset = "windows-1251") {
  std::vector<Page> pages;
  std::string cont;
  for (int n = 0; n < 10000; ++n) {
    std::string q = date.empty() ? "" : "date=" + date;
    if (!cont.empty()) q += (q.empty() ? "" : "&") + std::string("continue=") + cont;
    pages.push_back(Parse(Get(app, q), charset));
    cont = pages.back().continue_token;
    if (cont.empty()) break;
  }
  return pages;
}

// The dirty texts of dirty_text.h as ads DIRTY1, DIRTY2, ... added on
// 2026-10-22 at noon: each as title and body, and as author when it fits.
void InsertDirtyAds() {
  std::string values;
  int n = 0;
  for (const testing::DirtyText& d : testing::DirtyTexts()) {
    std::string hex;
    for (unsigned char c : d.raw) {
      static const char* digits = "0123456789ABCDEF";
      hex += digits[c >> 4];
      hex += digits[c & 15];
    }
    const std::string text = "CONVERT(0x" + hex + " USING utf8mb4)";
    ++n;
    values += std::string(n > 1 ? "," : "") + "('DIRTY" + std::to_string(n) + "', " + text + ", " + text +
              ", IF(CHAR_LENGTH(" + text + ") <= 100, " + text +
              ", 'Автор'), 1, '2026-10-22 12:00:00', '2026-10-22 12:00:00')";
  }
  Mariadb("INSERT INTO listing (ref, title, body, author, region_id, added, updated) VALUES " + values);
}

class YadsIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::LoadSampleBoard(3000, 200);
    InsertDirtyAds();
  }
};

TEST_F(YadsIntegration, EveryPageMatchesTheDatabaseFieldByField) {
  // Rows read through prepared statements and through streamed plain ones.
  for (const char* read : {"prepared", "stream"}) {
    SCOPED_TRACE(read);
    App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "700"}, {"fetch_rows", "300"}, {"read", read}})));
    for (const std::string& date : {std::string(), std::string("2026-10-15+00:00:00")}) {
      std::set<std::string> bad_refs;
      auto expected = ExpectedAds(date.empty() ? "1000-01-01" : "2026-10-15 00:00:00", &bad_refs);
      ASSERT_GT(expected.size(), 500u);
      ASSERT_FALSE(bad_refs.empty()) << "the sample board should hold ids the feed must leave out";
      std::vector<Page> pages = FollowRun(app, date);
      EXPECT_EQ(pages.size(), (expected.size() + bad_refs.size() + 699) / 700);
      std::set<std::string> seen;
      for (const Page& p : pages) {
        EXPECT_EQ(p.catalog_date, pages[0].catalog_date) << "every page of a run shows the run's date";
        for (const auto& [id, f] : p.ads) {
          EXPECT_TRUE(seen.insert(id).second) << "ad " << id << " twice";
          EXPECT_FALSE(bad_refs.count(id)) << "ad with a bad id " << id << " was listed";
          auto it = expected.find(id);
          if (it == expected.end()) {
            ADD_FAILURE() << "ad " << id << " is not an active ad of the database";
            continue;
          }
          ExpectAd(id, f, it->second);
        }
      }
      EXPECT_EQ(seen.size(), expected.size());
    }
  }
}

// Any single-byte encoding iconv knows: the same ads, field by field, once
// the bytes are read back with iconv (characters the encoding lacks, such
// as the sample board's emoji and CJK, come back through their references).
TEST_F(YadsIntegration, Koi8rAndIso88595FeedsMatchTheDatabaseFieldByField) {
  for (const std::string charset : {"KOI8-R", "ISO-8859-5"}) {
    SCOPED_TRACE(charset);
    App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "1500"}, {"encoding", charset}})));
    std::set<std::string> bad_refs;
    auto expected = ExpectedAds("1000-01-01", &bad_refs);
    std::set<std::string> seen;
    for (const Page& p : FollowRun(app, "", charset)) {
      for (const auto& [id, f] : p.ads) {
        EXPECT_TRUE(seen.insert(id).second) << "ad " << id << " twice";
        auto it = expected.find(id);
        if (it == expected.end()) {
          ADD_FAILURE() << "ad " << id << " is not an active ad of the database";
          continue;
        }
        ExpectAd(id, f, it->second);
      }
    }
    EXPECT_EQ(seen.size(), expected.size());
    // Cyrillic is written as the encoding's own bytes, not as references.
    const std::string body = Get(app, "").body;
    EXPECT_GT(std::count_if(body.begin(), body.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }),
              1000);
    EXPECT_EQ(body.find("&#1040;"), std::string::npos);
    EXPECT_EQ(body.find("&#1072;"), std::string::npos);
  }
}

// The dirty texts, field by field, against what was written out by hand.
TEST_F(YadsIntegration, DirtyTextComesOutAsTheRulesSay) {
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100000"}})));
  Page p = Parse(Get(app, "date=2026-10-22+12:00:00"));
  std::map<std::string, std::map<std::string, std::string>> ads(p.ads.begin(), p.ads.end());
  const std::vector<testing::DirtyText>& texts = testing::DirtyTexts();
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string id = "DIRTY" + std::to_string(i + 1);
    ASSERT_TRUE(ads.count(id)) << id;
    EXPECT_EQ(ads[id]["title"], texts[i].plain) << id;
    EXPECT_EQ(ads[id]["body"], texts[i].plain) << id;
    if (texts[i].raw.size() <= 100) {
      EXPECT_EQ(ads[id]["name"], texts[i].plain) << id;
    }
    EXPECT_EQ(ads[id]["town"], "Киев") << id;
  }
  // In the windows-1251 bytes: a character outside the code page is a
  // reference, and a reference typed as text is escaped once, not twice.
  const std::string bytes = Cp1251ToUtf8(Get(app, "date=2026-10-22+12:00:00").body);
  EXPECT_NE(bytes.find(" сумка №2 &#128512;</title>"), std::string::npos);
  EXPECT_NE(bytes.find("<title>&amp;quot; — не кавычка</title>"), std::string::npos);
}

TEST_F(YadsIntegration, TextOutsideTheCodePageBecomesCharacterReferences) {
  // The sample board is utf8mb4: emoji and CJK reach windows-1251 output as
  // &#N; (never '?'), and control characters never reach it at all.
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100000"}, {"fetch_rows", "1000"}})));
  Reply r = Get(app, "");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("&#128512;"), std::string::npos);
  for (char c : {'\x01', '\x08', '\x0b', '\x1f'}) EXPECT_EQ(r.body.find(c), std::string::npos) << int(c);
  EXPECT_EQ(r.body.find("<script"), std::string::npos);
  // Typed entities are decoded once: no &amp;quot; but where the board
  // holds "&amp;quot;" itself (ad DIRTY10 of dirty_text.h).
  std::string others = r.body;
  const size_t dirty10 = others.find("<id>DIRTY10</id>");
  ASSERT_NE(dirty10, std::string::npos);
  const size_t ad_start = others.rfind("<ad>", dirty10);
  others.erase(ad_start, others.find("</ad>", dirty10) - ad_start);
  EXPECT_EQ(others.find("&amp;quot;"), std::string::npos);
}

TEST_F(YadsIntegration, TokensAreBoundToTheirDateAndTamperEvident) {
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})));
  Page first = Parse(Get(app, "date=2026-10-01+00:00:00"));
  ASSERT_FALSE(first.continue_token.empty());
  EXPECT_LE(first.continue_token.size(), 32u);
  EXPECT_EQ(first.continue_token.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
            std::string::npos);
  EXPECT_EQ(Get(app, "date=2026-10-01+00:00:00&continue=" + first.continue_token).status, 200);
  EXPECT_EQ(Get(app, "date=2026-10-02+00:00:00&continue=" + first.continue_token).status, 400);
  EXPECT_EQ(Get(app, "continue=" + first.continue_token).status, 400);
  std::string forged = first.continue_token;
  forged[forged.size() / 2] = forged[forged.size() / 2] == 'A' ? 'B' : 'A';
  Reply r = Get(app, "date=2026-10-01+00:00:00&continue=" + forged);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.headers["Content-Type"], "text/plain; charset=utf-8");
  // A token from another secret does not work either.
  App other(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}, {"secret", "another-secret-of-16+"}})));
  EXPECT_EQ(Get(other, "date=2026-10-01+00:00:00&continue=" + first.continue_token).status, 400);
}

// With the secret known (leaked, or a bug in the feed), a token can carry
// anything the codec can: what it carries is checked against the rules of
// document.h, each answer below following from them and the site's clock.
TEST_F(YadsIntegration, ForgedTokensWithTheSecretAnswer400UnlessTheyFit) {
  FixedClock clock(1796119200);             // 2026-12-01 10:00:00 UTC
  const int64_t now = 1796126400;           // the same in Kyiv (UTC+2), as NaiveSeconds
  const int64_t since = 1790812800;         // 2026-10-01 00:00:00, the date asked for
  const int64_t year_10000 = 253402300800;  // 10000-01-01 00:00:00
  const int64_t day = 86400, p47 = int64_t{1} << 47;
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})), &clock);
  std::vector<std::string> log;
  app.SetLog([&](const std::string& line) { log.push_back(line); });
  const ContinueTokenCodec codec("integration-test-secret");  // WriteSampleConfig's
  // DocumentFeed's binding: the feed's name, a newline, the normalised date.
  auto forge = [&](int64_t run_start, Position keyset) {
    return "date=2026-10-01+00:00:00&continue=" + codec.Encode({run_start, keyset}, "yads\n2026-10-01 00:00:00");
  };

  // The forger's codec and binding are the feed's: it reads the feed's own token.
  Page first = Parse(Get(app, "date=2026-10-01+00:00:00"));
  ASSERT_EQ(first.catalog_date, "2026-12-01 11:59:50");  // the run's start less settle_seconds
  auto own = codec.Decode(first.continue_token, "yads\n2026-10-01 00:00:00", now);
  ASSERT_TRUE(own.has_value()) << first.continue_token;
  EXPECT_EQ(own->run_start, now);

  struct Case {
    const char* what;
    int64_t run_start;
    Position keyset;
    int status;
  } cases[] = {
      {"keyset date in the year 10000", now, {year_10000, 1}, 400},
      {"keyset date before the year 1000", now, {-p47, 1}, 400},
      {"keyset date before the date asked for", now, {since - 1, 1}, 400},
      {"run start 2^47 - 1", p47 - 1, {since, 1}, 400},
      {"run start -2^47", -p47, {since, 1}, 400},
      {"run start 40 days ago", now - 40 * day, {since, 1}, 400},
      // max_run_seconds (7 days) and an hour for a clock stepped forward (kClockStepAllowance).
      {"run start 7 days, an hour and a second ago", now - 7 * day - 3601, {since, 1}, 400},
      {"run start a day and a second ahead", now + day + 1, {since, 1}, 400},
      {"run start 7 days and an hour ago", now - 7 * day - 3600, {since, 1}, 200},
      {"run start a day ahead", now + day, {since, 1}, 200},
      {"keyset at the date asked for", now, {since, 1}, 200},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    log.clear();
    Reply r = Get(app, forge(c.run_start, c.keyset));
    EXPECT_EQ(r.status, c.status) << r.body;
    if (c.status == 400) {
      EXPECT_EQ(r.headers["Content-Type"], "text/plain; charset=utf-8");
      EXPECT_EQ(std::count(r.body.begin(), r.body.end(), '\n'), 1) << r.body;
      EXPECT_NE(r.body.find("start again without continue"), std::string::npos) << r.body;
      EXPECT_TRUE(log.empty()) << "a client's mistake is no server event: " << log.front();
    }
  }

  // A good forged token is a page like any other: it goes on from its
  // position, shows its run's date and hands on a token of the same run.
  Reply six = Get(app, forge(now - 6 * day, {since + 14 * day, 0}));  // after 2026-10-15 00:00:00
  Page six_days = Parse(six);
  EXPECT_EQ(six_days.catalog_date, "2026-11-25 11:59:50");
  EXPECT_EQ(six_days.ads.size() + six.report.skipped, 100u);  // page_size rows, some left out
  for (const auto& [id, f] : six_days.ads) EXPECT_GE(f.at("date"), "2026-10-15") << id;
  ASSERT_FALSE(six_days.continue_token.empty());
  Page next = Parse(Get(app, "date=2026-10-01+00:00:00&continue=" + six_days.continue_token));
  EXPECT_EQ(next.catalog_date, "2026-11-25 11:59:50");
  EXPECT_FALSE(next.ads.empty());
}

TEST_F(YadsIntegration, ConditionalRequestsAnswer304) {
  App app(LoadConfig(testing::WriteSampleConfig()));
  Reply r = Get(app, "date=2026-10-20+00:00:00");
  ASSERT_EQ(r.status, 200);
  std::string etag = r.headers["ETag"], lm = r.headers["Last-Modified"];
  ASSERT_FALSE(etag.empty());
  ASSERT_FALSE(lm.empty());
  Reply nm = Get(app, "date=2026-10-20+00:00:00", "GET", {{"If-None-Match", etag}});
  EXPECT_EQ(nm.status, 304);
  EXPECT_EQ(nm.body, "");
  EXPECT_EQ(Get(app, "date=2026-10-20+00:00:00", "GET", {{"If-Modified-Since", lm}}).status, 304);
  EXPECT_EQ(Get(app, "date=2026-10-21+00:00:00", "GET", {{"If-None-Match", etag}}).status, 200)
      << "another date is another document";
  // An edit of an ad on that page (the first ad of the date).
  Mariadb(
      "UPDATE listing SET title = CONCAT(title, ' !'), updated = '2026-11-20 10:00:00' WHERE status = 'active'"
      " AND added >= '2026-10-20 00:00:00' ORDER BY added, id LIMIT 1");
  Reply changed = Get(app, "date=2026-10-20+00:00:00", "GET", {{"If-None-Match", etag}});
  EXPECT_EQ(changed.status, 200);
  EXPECT_NE(changed.headers["ETag"], etag);
  EXPECT_EQ(Get(app, "date=2026-10-20+00:00:00", "GET", {{"If-Modified-Since", lm}}).status, 200);
}

// Validators that cannot go stale: the state of a page covers its rows'
// count and ids beside their newest change, so a hard-deleted ad (which
// stamps nothing) changes the tag, and Last-Modified moves to the moment
// the engine first saw the new state. The clock is fixed: every expected
// date below follows from the rule, not from the code.
TEST_F(YadsIntegration, AHardDeletedAdChangesTheTagAndLastModified) {
  Mariadb("DELETE FROM feed_state_seen");
  FixedClock clock(1795600800);  // Wed, 25 Nov 2026 10:00:00 GMT
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})), &clock);
  const std::string q = "date=2026-10-20+00:00:00";
  auto conditional = [&](const std::string& inm, const std::string& ims, const std::string& ae = "") {
    Request req;
    req.path_info = "/yads";
    req.query_string = q;
    req.if_none_match = inm;
    req.if_modified_since = ims;
    req.accept_encoding = ae;
    return testing::Fetch(app, req);
  };
  // The page's rows: the first 101 active ads of the date (100 and the one
  // that tells a continue token follows).
  auto window = Table(
      "SELECT id, HEX(ref), updated FROM listing WHERE status = 'active' AND added >= '2026-10-20 00:00:00'"
      " ORDER BY added, id LIMIT 101");
  ASSERT_EQ(window.size(), 101u);
  std::string newest;
  for (const auto& row : window) newest = std::max(newest, row[2]);
  ASSERT_LT(newest, "2026-11-25 12:00:00") << "the page's changes are all older than the clock (site time)";

  Reply first = conditional("", "");
  ASSERT_EQ(first.status, 200);
  const std::string etag = first.headers["ETag"];
  EXPECT_EQ(etag.rfind("W/\"", 0), 0u) << etag << ": the body holds its run's moment, so the tag is weak";
  // First seen now, which is later than the newest change.
  EXPECT_EQ(first.headers["Last-Modified"], "Wed, 25 Nov 2026 10:00:00 GMT");

  // An hour without changes: the same tag and date, and 304 for either.
  clock.Set(1795604400);  // 11:00
  Reply later = conditional("", "");
  EXPECT_EQ(later.headers["ETag"], etag);
  EXPECT_EQ(later.headers["Last-Modified"], "Wed, 25 Nov 2026 10:00:00 GMT");
  EXPECT_EQ(conditional(etag, "").status, 304);
  EXPECT_EQ(conditional("", "Wed, 25 Nov 2026 10:00:00 GMT").status, 304);
  // Weak comparison: the tag without W/, or in a list, matches too.
  EXPECT_EQ(conditional(etag.substr(2), "").status, 304);
  EXPECT_EQ(conditional("\"other\", " + etag, "").status, 304);
  EXPECT_EQ(conditional("*", "").status, 304);
  // A gzip body is another representation, with a tag of its own.
  Reply gz = conditional(etag, "", "gzip");
  EXPECT_EQ(gz.status, 200);
  EXPECT_NE(gz.headers["ETag"], etag);
  EXPECT_EQ(gz.headers["ETag"].rfind("W/\"", 0), 0u);
  // An edit outside the page changes nothing the page shows.
  Mariadb("UPDATE listing SET title = CONCAT(title, ' !'), updated = '2026-11-30 09:00:00' WHERE status = 'active'"
          " AND added < '2026-10-20 00:00:00' ORDER BY added, id LIMIT 1");
  EXPECT_EQ(conditional(etag, "").status, 304);
  // What a client holds just before the delete.
  Reply held = conditional("", "");
  EXPECT_EQ(held.headers["ETag"], etag);
  EXPECT_EQ(held.headers["Last-Modified"], "Wed, 25 Nov 2026 10:00:00 GMT");

  // A hard delete of an ad on the page that is not its newest change: the
  // newest change stays where it was, the count and the ids do not.
  std::string victim, victim_ref;
  for (const auto& row : window) {
    const std::string ref = Unhex(row[1]);
    if (row[2] < newest && ref.size() <= 32 &&
        ref.find_first_not_of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == std::string::npos) {
      victim = row[0];
      victim_ref = Unhex(row[1]);
      break;
    }
  }
  ASSERT_FALSE(victim.empty());
  ASSERT_NE(first.body.find("<id>" + victim_ref + "</id>"), std::string::npos);
  Mariadb("DELETE FROM listing WHERE id = " + victim);
  EXPECT_EQ(Table("SELECT MAX(updated) FROM (SELECT updated FROM listing WHERE status = 'active' AND"
                  " added >= '2026-10-20 00:00:00' ORDER BY added, id LIMIT 101) w")[0][0],
            newest)
      << "the newest change alone would not have moved";
  clock.Set(1795608000);  // 12:00
  Reply stale_tag = conditional(held.headers["ETag"], "");
  EXPECT_EQ(stale_tag.status, 200) << "the old tag must not get 304 for a page that lost an ad";
  EXPECT_EQ(stale_tag.body.find("<id>" + victim_ref + "</id>"), std::string::npos);
  EXPECT_NE(stale_tag.headers["ETag"], held.headers["ETag"]);
  EXPECT_EQ(stale_tag.headers["Last-Modified"], "Wed, 25 Nov 2026 12:00:00 GMT");
  EXPECT_EQ(conditional("", held.headers["Last-Modified"]).status, 200) << "nor the old date";
  EXPECT_EQ(conditional("", "Wed, 25 Nov 2026 11:59:59 GMT").status, 200);
  // The new state is stable again.
  clock.Set(1795611600);  // 13:00
  EXPECT_EQ(conditional(stale_tag.headers["ETag"], "").status, 304);
  EXPECT_EQ(conditional("", "Wed, 25 Nov 2026 12:00:00 GMT").status, 304);
  // Two changes within one second: HTTP dates count whole seconds, so the
  // second state is first seen a second later, and until that second has
  // come the page has no Last-Modified (never one in the future).
  auto drop_one = [&] {
    Mariadb(
        "DELETE FROM listing WHERE status = 'active' AND added >= '2026-10-20 00:00:00' ORDER BY added, id LIMIT 1");
  };
  drop_one();
  Reply one = conditional("", "");
  EXPECT_EQ(one.headers["Last-Modified"], "Wed, 25 Nov 2026 13:00:00 GMT");
  drop_one();
  Reply two = conditional("", "Wed, 25 Nov 2026 13:00:00 GMT");
  EXPECT_EQ(two.status, 200);
  EXPECT_EQ(two.headers.count("Last-Modified"), 0u);
  EXPECT_NE(two.headers["ETag"], one.headers["ETag"]);
  clock.Set(1795611605);  // 13:00:05
  EXPECT_EQ(conditional("", "").headers["Last-Modified"], "Wed, 25 Nov 2026 13:00:01 GMT");
  EXPECT_EQ(conditional("", "Wed, 25 Nov 2026 13:00:00 GMT").status, 200);
  EXPECT_EQ(Table("SELECT COUNT(*) FROM feed_state_seen")[0][0], "1") << "one date, one page: one record";
  // A page reached by a continue token has a tag but no Last-Modified.
  Page p = Parse(conditional("", ""));
  ASSERT_FALSE(p.continue_token.empty());
  Reply next = Get(app, q + "&continue=" + p.continue_token);
  EXPECT_EQ(next.status, 200);
  EXPECT_EQ(next.headers["ETag"].rfind("W/\"", 0), 0u);
  EXPECT_EQ(next.headers.count("Last-Modified"), 0u);
  EXPECT_EQ(Table("SELECT COUNT(*) FROM feed_state_seen")[0][0], "1");
}

// Paging while others add, edit and delete ads, deterministically: while
// each page streams (at the first byte it writes), another connection
// writes at positions chosen from where that page started, so each write is
// known to land behind the robot (on a page already sent) or ahead of it
// (past the rows this page can read), and each has one right outcome.
TEST_F(YadsIntegration, PagingIsExactlyOnceWhileOthersWrite) {
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "150"}, {"fetch_rows", "60"}})));
  const std::string since = "2026-10-01 00:00:00";
  std::set<std::string> bad;
  const auto before = ExpectedAds(since, &bad);
  Database writer(app.config().database);
  const std::string valid = " AND l.ref REGEXP '^[A-Za-z0-9]{1,32}$'";
  auto after = [](const std::string& added, const std::string& id) {
    return " AND (l.added, l.id) > ('" + added + "', " + id + ")";
  };
  auto site_now = [] { return FormatSqlDateTime(testing::Kiev().FromUnix(Now())); };

  std::set<std::string> touched;  // ids written to, each once
  std::set<std::string> deleted_ahead, edited_ahead, edited_behind, shown_again, added;
  std::vector<std::string> sent_order;  // refs as pages brought them
  size_t hooks = 0, pages_with_ahead = 0;
  std::string page_added = since, page_id = "-1";  // where the page being fetched starts
  int k = 0;
  auto write_during_page = [&] {
    ++hooks;
    const std::string now = site_now(), marker = " правка" + std::to_string(k);
    auto edit = [&](const std::string& id) {
      writer.Execute("UPDATE listing SET title = CONCAT(title, '" + marker + "'), updated = '" + now +
                     "' WHERE id = " + id);
    };
    // Ahead: past the 160th row from the page's start (a page reads at
    // most 151: 150 and the one that tells whether more follow).
    auto q = Table("SELECT l.added, l.id FROM listing l WHERE l.status = 'active' AND l.added >= '" + since + "'" +
                   after(page_added, page_id) + " ORDER BY l.added, l.id LIMIT 1 OFFSET 159");
    if (!q.empty()) {
      ++pages_with_ahead;
      std::vector<std::vector<std::string>> ahead;
      for (const auto& row : Table("SELECT l.id, HEX(l.ref) FROM listing l WHERE l.status = 'active'" + valid +
                                   after(q[0][0], q[0][1]) + " ORDER BY l.added, l.id LIMIT 40")) {
        if (!touched.count(row[0])) ahead.push_back(row);
      }
      if (ahead.size() >= 3) {
        touched.insert({ahead[0][0], ahead[1][0], ahead[2][0]});
        edit(ahead[0][0]);
        edited_ahead.insert(Unhex(ahead[0][1]));
        writer.Execute("DELETE FROM listing WHERE id = " + ahead[1][0]);
        deleted_ahead.insert(Unhex(ahead[1][1]));
        writer.Execute("UPDATE listing SET status = 'deleted', updated = '" + now + "' WHERE id = " + ahead[2][0]);
        deleted_ahead.insert(Unhex(ahead[2][1]));
      }
      auto hidden = Table("SELECT l.id, HEX(l.ref) FROM listing l WHERE l.status = 'hidden'" + valid +
                          after(q[0][0], q[0][1]) + " ORDER BY l.added, l.id LIMIT 1");
      if (!hidden.empty() && touched.insert(hidden[0][0]).second) {
        writer.Execute("UPDATE listing SET status = 'active', updated = '" + now + "' WHERE id = " + hidden[0][0]);
        shown_again.insert(Unhex(hidden[0][1]));
      }
      // A new ad dated like a row ahead: its id is the largest, so it
      // sorts right after that row.
      const std::string ref = "PAGEDB" + std::to_string(k);
      writer.Execute("INSERT INTO listing (ref, title, body, added, updated) VALUES ('" + ref + "', 'Вставка', '', '" +
                     q[0][0] + "', '" + now + "')");
      added.insert(ref);
    }
    // Behind: ads an earlier page brought.
    size_t behind = 0;
    for (auto it = sent_order.rbegin(); it != sent_order.rend() && behind < 2; ++it) {
      auto row = Table("SELECT id FROM listing WHERE ref = '" + *it + "'");
      if (row.empty() || !touched.insert(row[0][0]).second) continue;
      if (behind++ == 0) {
        edit(row[0][0]);
        edited_behind.insert(*it);
      } else {
        writer.Execute("DELETE FROM listing WHERE id = " + row[0][0]);
      }
    }
    // A new ad added now: after every row, so a later page of this run
    // brings it (or, added while the last page streams, the next run).
    const std::string ref = "PAGEDN" + std::to_string(k);
    writer.Execute("INSERT INTO listing (ref, title, body, added, updated) VALUES ('" + ref + "', 'Новое', '', '" +
                   now + "', '" + now + "')");
    added.insert(ref);
  };

  std::vector<Page> pages;
  std::string cont;
  const std::string q0 = "date=2026-10-01+00:00:00";
  do {
    Request req;
    req.path_info = "/yads";
    req.query_string = q0 + (cont.empty() ? "" : "&continue=" + cont);
    Reply r = testing::FetchWithHook(app, req, write_during_page);
    pages.push_back(Parse(r));
    for (const auto& [id, f] : pages.back().ads) sent_order.push_back(id);
    ASSERT_TRUE(r.report.has_last);
    page_added = FormatSqlDateTime(FromNaiveSeconds(r.report.last[0]));
    page_id = std::to_string(r.report.last[1]);
    cont = pages.back().continue_token;
    ++k;
    ASSERT_LT(pages.size(), 100u);
  } while (!cont.empty());
  // Every kind of write happened, on enough pages to mean something.
  ASSERT_GT(pages.size(), 10u);
  EXPECT_EQ(hooks, pages.size()) << "a write while every page streamed";
  ASSERT_GE(pages_with_ahead, 5u);
  ASSERT_GE(edited_ahead.size(), 5u);
  ASSERT_GE(deleted_ahead.size(), 10u);
  ASSERT_GE(edited_behind.size(), 5u);
  ASSERT_GE(shown_again.size(), 1u);

  std::map<std::string, std::string> title;
  std::map<std::string, int> got = ExpectEachAdOnce(pages, before, deleted_ahead, &title);
  for (const std::string& ref : edited_ahead) {
    EXPECT_NE(title[ref].find(" правка"), std::string::npos) << "ad " << ref << " was edited before it was sent";
  }
  for (const std::string& ref : edited_behind) {
    EXPECT_EQ(title[ref].find(" правка"), std::string::npos) << "ad " << ref << " was sent before its edit";
  }
  for (const std::string& ref : shown_again) EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " shown again ahead";
  const std::string during_last = "PAGEDN" + std::to_string(pages.size() - 1);
  for (const std::string& ref : added) {
    if (ref != during_last) {
      EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " added ahead of the robot";
    }
  }

  // The robot's next run starts at this run's yml_catalog date, the run's
  // start less settle_seconds: it brings again what was added during this
  // run (and an ad still committing when the run began).
  std::string next_date = pages[0].catalog_date;
  std::set<std::string> next_run;
  for (const Page& p : FollowRun(app, next_date.replace(next_date.find(' '), 1, "+"))) {
    for (const auto& [id, f] : p.ads) next_run.insert(id);
  }
  for (const std::string& ref : added) {
    if (ref.rfind("PAGEDN", 0) == 0) {
      EXPECT_TRUE(next_run.count(ref)) << "ad " << ref;
    }
  }
  EXPECT_TRUE(next_run.count(during_last)) << "added while the last page streamed: in the next run at the latest";
}

// The sample config's full-dump walk (query_full): a request with no date
// reads the table in primary-key order with a keyset on id_key alone.
std::map<std::string, std::string> FullWalk(std::map<std::string, std::string> more = {}) {
  const std::string root = Env("FEED_TEST_ROOT");
  more.try_emplace("query_full", root + "/sql/sample-yads-full.sql");
  more.try_emplace("state_query_full", root + "/sql/sample-yads-state-full.sql");
  more.try_emplace("keyset_full", "id_key");
  return more;
}

// The full walk, page by page, while ads are edited and deleted ahead of
// the robot, edited behind it and added. With `ahead`, each next page is
// made as the FastCGI loop makes it (MakePageAhead, after the page before
// was handed over), and the writes come after that making: a page made
// ahead is read before them, as if the robot had asked a moment earlier.
void FullWalkUnderWrites(bool ahead) {
  Config config = LoadConfig(testing::WriteSampleConfig(FullWalk({{"page_size", "150"}, {"fetch_rows", "60"}})));
  config.server.spool_dir = testing::TempDir("ahead");
  App app(std::move(config));
  std::set<std::string> bad;
  const auto before = ExpectedAds("1970-01-01 00:00:00", &bad);
  Database writer(app.config().database);
  // The ads written to: valid ids, none of the test's own new ones.
  const std::string valid = " AND l.ref REGEXP '^[A-Za-z0-9]{1,32}$' AND l.ref NOT LIKE 'FULL%'";
  const std::string new_ref = ahead ? "FULLA" : "FULLN";  // each run's own new ads...
  const std::string mark = ahead ? "ЗАРАНЕЕ " : "ПРАВКА ";  // ...and edits
  const std::string past = ahead ? "320" : "160";  // rows from a page's start to the writes ahead
  auto site_now = [] { return FormatSqlDateTime(testing::Kiev().FromUnix(Now())); };
  std::map<std::string, int64_t> id_of;  // ref -> primary key, for the order
  for (const auto& row : Table("SELECT HEX(ref), id FROM listing")) id_of[Unhex(row[0])] = std::stoll(row[1]);

  std::set<std::string> touched, deleted_ahead, edited_ahead, edited_behind, added;
  std::vector<std::string> sent_order;
  int64_t page_id = -1;  // where the page being fetched starts
  int k = 0;
  auto write_during_page = [&] {
    // An edit gives a title of its own, one plain line.
    const std::string now = site_now(), edited = mark + std::to_string(k);
    // Ahead: past the 160th row from the page's start (a page reads 151);
    // with pages made ahead, past the two pages made (page_ahead = 2).
    std::vector<std::vector<std::string>> ahead;
    for (const auto& row : Table("SELECT l.id, HEX(l.ref) FROM listing l WHERE l.status = 'active'" + valid +
                                 " AND l.id > " + std::to_string(page_id) + " ORDER BY l.id LIMIT 40 OFFSET " + past)) {
      if (!touched.count(row[0])) ahead.push_back(row);
    }
    if (ahead.size() >= 3) {
      touched.insert({ahead[0][0], ahead[1][0], ahead[2][0]});
      writer.Execute("UPDATE listing SET title = '" + edited + "', updated = '" + now + "' WHERE id = " + ahead[0][0]);
      edited_ahead.insert(Unhex(ahead[0][1]));
      writer.Execute("DELETE FROM listing WHERE id = " + ahead[1][0]);
      deleted_ahead.insert(Unhex(ahead[1][1]));
      writer.Execute("UPDATE listing SET status = 'deleted', updated = '" + now + "' WHERE id = " + ahead[2][0]);
      deleted_ahead.insert(Unhex(ahead[2][1]));
    }
    // Behind: the last ad sent, edited.
    if (!sent_order.empty()) {
      auto row = Table("SELECT id FROM listing WHERE ref = '" + sent_order.back() + "'");
      if (!row.empty() && touched.insert(row[0][0]).second) {
        writer.Execute("UPDATE listing SET title = '" + edited + "', updated = '" + now + "' WHERE id = " + row[0][0]);
        edited_behind.insert(sent_order.back());
      }
    }
    // A new ad, dated long ago: its id is the largest, so the walk meets it
    // at its end whatever its date.
    const std::string ref = new_ref + std::to_string(k);
    writer.Execute("INSERT INTO listing (ref, title, body, added, updated) VALUES ('" + ref +
                   "', 'Новое', '', '2020-01-01 00:00:00', '" + now + "')");
    id_of[ref] = std::stoll(Table("SELECT id FROM listing WHERE ref = '" + ref + "'")[0][0]);
    added.insert(ref);
  };

  std::vector<Page> pages;
  std::string cont;
  do {
    Request req;
    req.path_info = "/yads";
    req.query_string = cont.empty() ? "" : "continue=" + cont;
    Reply r = ahead ? testing::Fetch(app, req) : testing::FetchWithHook(app, req, write_during_page);
    pages.push_back(Parse(r));
    for (const auto& [id, f] : pages.back().ads) sent_order.push_back(id);
    ASSERT_TRUE(r.report.has_last);
    ASSERT_EQ(r.report.last.size(), 1u) << "the full walk's keyset is id_key alone";
    ASSERT_EQ(r.report.made_ahead, ahead && !cont.empty()) << "page " << pages.size();
    cont = pages.back().continue_token;
    if (ahead) {
      // The next two pages are made now (the first was made already but
      // for the first page); the writes land past their rows, ahead of
      // what was made.
      app.MakePageAhead();
      page_id = r.report.last[0];
      write_during_page();
    }
    page_id = r.report.last[0];
    ++k;
    ASSERT_LT(pages.size(), 100u);
  } while (!cont.empty());
  ASSERT_GT(pages.size(), 10u);
  ASSERT_GE(edited_ahead.size(), 5u);
  ASSERT_GE(deleted_ahead.size(), 10u);
  ASSERT_GE(edited_behind.size(), 5u);

  std::map<std::string, std::string> title;
  std::map<std::string, int> got = ExpectEachAdOnce(pages, before, deleted_ahead, &title);
  int64_t last_id = -1;
  for (const std::string& ref : sent_order) {
    ASSERT_TRUE(id_of.count(ref)) << ref;
    EXPECT_GT(id_of[ref], last_id) << "ad " << ref << " out of primary-key order";
    last_id = id_of[ref];
  }
  for (const std::string& ref : edited_ahead) {
    EXPECT_EQ(title[ref].rfind(mark, 0), 0u) << "ad " << ref << " was edited before it was sent";
  }
  for (const std::string& ref : edited_behind) {
    EXPECT_NE(title[ref].rfind(mark, 0), 0u) << "ad " << ref << " was sent before its edit";
  }
  // Added after the last page was read: in the next run. A page made ahead
  // was read before the writes that follow the page before it.
  std::set<std::string> after_last = {new_ref + std::to_string(pages.size() - 1)};
  if (ahead) {
    after_last.insert(new_ref + std::to_string(pages.size() - 2));
    after_last.insert(new_ref + std::to_string(pages.size() - 3));
  }
  for (const std::string& ref : added) {
    if (!after_last.count(ref)) {
      EXPECT_EQ(got.count(ref), 1u) << "ad " << ref << " added ahead of the robot, id " << id_of[ref] << " pages " << pages.size() << " last sent id " << last_id;
    }
  }
}

TEST_F(YadsIntegration, TheFullDumpWalksThePrimaryKeyExactlyOnceWhileOthersWrite) { FullWalkUnderWrites(false); }

TEST_F(YadsIntegration, WithPagesMadeAheadTheFullDumpIsStillExactlyOnceWhileOthersWrite) {
  FullWalkUnderWrites(true);
}

// Files of a folder whose names start with "ahead-".
std::vector<std::string> AheadFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (std::string n = e.path().filename(); n.rfind("ahead-", 0) == 0) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(YadsIntegration, TheNextPageIsMadeAheadAndTakenInsteadOfRead) {
  std::string spool = testing::TempDir("ahead");
  auto app_with = [&](const std::string& page_ahead) {
    Config c = LoadConfig(testing::WriteSampleConfig({{"page_size", "150"}, {"page_ahead", page_ahead}}));
    c.server.spool_dir = spool;
    return std::make_unique<App>(std::move(c));
  };
  const std::string date = "2026-01-01+00:00:00";
  // The title of page 2's first ad changes after page 2 was made: a page
  // made ahead still shows the title it was read with. (The ad is found
  // by a process that makes nothing ahead.)
  auto edit_next_page = [&](const Page& page1) {
    auto probe = app_with("0");
    const Page next = Parse(Get(*probe, "date=" + date + "&continue=" + page1.continue_token));
    EXPECT_FALSE(next.ads.empty());
    const std::string ref = next.ads.empty() ? "" : next.ads[0].first;
    Mariadb("UPDATE listing SET title = 'ПОСЛЕ СНИМКА', updated = NOW() WHERE ref = '" + ref + "'");
    return ref;
  };
  {
    auto app = app_with("");  // on by default for a paged feed
    Reply p1 = Get(*app, "date=" + date);
    ASSERT_EQ(p1.status, 200);
    EXPECT_FALSE(p1.report.made_ahead);
    const Page page1 = Parse(p1);
    ASSERT_FALSE(page1.continue_token.empty());
    EXPECT_EQ(AheadFiles(spool), std::vector<std::string>{}) << "nothing is made inside the request";
    app->MakePageAhead();
    EXPECT_EQ(AheadFiles(spool).size(), 4u) << "the next two pages' heads and bodies wait (page_ahead = 2)";
    const std::string edited = edit_next_page(page1);
    // Another process of the same spool folder takes it.
    auto other = app_with("");
    Reply p2 = Get(*other, "date=" + date + "&continue=" + page1.continue_token);
    EXPECT_TRUE(p2.report.made_ahead);
    const Page page2 = Parse(p2);
    ASSERT_FALSE(page2.ads.empty());
    EXPECT_NE(page2.ads[0].second.at("title"), "ПОСЛЕ СНИМКА") << "page 2 was read at its request, not ahead";
    EXPECT_EQ(p2.report.rows, page2.ads.size());
    EXPECT_EQ(p2.report.continue_token, page2.continue_token);
    EXPECT_EQ(AheadFiles(spool).size(), 2u) << "page 2 taken, and its body handed on; page 3 waits";
    // The page made ahead equals the page read now but for the edit.
    Reply again = Get(*app, "date=" + date + "&continue=" + page1.continue_token);
    EXPECT_FALSE(again.report.made_ahead) << "a page is taken once";
    const Page fresh = Parse(again);
    ASSERT_EQ(fresh.ads.size(), page2.ads.size());
    for (size_t i = 0; i < fresh.ads.size(); ++i) {
      EXPECT_EQ(fresh.ads[i].first, page2.ads[i].first);
      if (i > 0) {
        EXPECT_EQ(fresh.ads[i].second, page2.ads[i].second) << fresh.ads[i].first;
      }
    }
    EXPECT_EQ(fresh.ads[0].second.at("title"), "ПОСЛЕ СНИМКА");
    EXPECT_EQ(fresh.continue_token, page2.continue_token);

    // Conditional and HEAD requests read the page themselves.
    other->MakePageAhead();
    Reply conditional = Get(*app, "date=" + date + "&continue=" + page2.continue_token, "GET",
                            {{"If-None-Match", "\"x\""}});
    EXPECT_EQ(conditional.status, 200);
    EXPECT_FALSE(conditional.report.made_ahead);
    Reply head = Get(*app, "date=" + date + "&continue=" + page2.continue_token, "HEAD");
    EXPECT_EQ(head.status, 200);
    EXPECT_FALSE(head.report.made_ahead);
    EXPECT_TRUE(Get(*app, "date=" + date + "&continue=" + page2.continue_token).report.made_ahead);
    Mariadb("UPDATE listing SET title = 'Было', updated = NOW() WHERE ref = '" + edited + "'");
  }
  spool = testing::TempDir("ahead");  // page 4 waits in the first one
  {
    auto app = app_with("0");
    Reply p1 = Get(*app, "date=" + date);
    const Page page1 = Parse(p1);
    app->MakePageAhead();
    EXPECT_EQ(AheadFiles(spool), std::vector<std::string>{}) << "page_ahead = 0 makes nothing";
    edit_next_page(page1);
    Reply p2 = Get(*app, "date=" + date + "&continue=" + page1.continue_token);
    EXPECT_FALSE(p2.report.made_ahead);
    EXPECT_EQ(Parse(p2).ads[0].second.at("title"), "ПОСЛЕ СНИМКА");
  }
}

TEST_F(YadsIntegration, PageAheadOnAFeedThatCannotUseItIsNamed) {
  try {
    LoadConfig(testing::WriteSampleConfig({{"page_ahead", "1"}, {"continue", ""}, {"page_size", ""}}));
    ADD_FAILURE() << "page_ahead on an unpaged feed was accepted";
  } catch (const FeedError& e) {
    EXPECT_NE(std::string(e.what()).find("page_ahead needs a paged feed"), std::string::npos) << e.what();
  }
}

TEST_F(YadsIntegration, ATokenOfOneWalkIsRefusedByTheOther) {
  App app(LoadConfig(testing::WriteSampleConfig(FullWalk({{"page_size", "100"}}))));
  const Page full = Parse(Get(app, ""));
  const Page dated = Parse(Get(app, "date=2026-01-01+00:00:00"));
  ASSERT_FALSE(full.continue_token.empty());
  ASSERT_FALSE(dated.continue_token.empty());
  EXPECT_EQ(Get(app, "continue=" + full.continue_token).status, 200);
  EXPECT_EQ(Get(app, "date=2026-01-01+00:00:00&continue=" + dated.continue_token).status, 200);
  Reply crossed = Get(app, "date=2026-01-01+00:00:00&continue=" + full.continue_token);
  EXPECT_EQ(crossed.status, 400) << "a full dump's token on a dated run";
  EXPECT_EQ(Get(app, "continue=" + dated.continue_token).status, 400) << "a dated run's token on the full dump";
  // The same config without query_full: its date-less walk is (added,
  // id_key), and the full walk's token is not one of its positions.
  App plain(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})));
  EXPECT_EQ(Get(plain, "continue=" + full.continue_token).status, 400);
}

TEST_F(YadsIntegration, TheFullDumpHasValidatorsOfItsOwnRows) {
  App app(LoadConfig(testing::WriteSampleConfig(FullWalk({{"page_size", "100"}}))));
  Reply first = Get(app, "");
  ASSERT_EQ(first.status, 200);
  const std::string tag = first.headers["ETag"];
  ASSERT_FALSE(tag.empty());
  EXPECT_EQ(Get(app, "", "GET", {{"If-None-Match", tag}}).status, 304);
  // An edit of the first page's first ad (the lowest id) changes the page.
  const std::string lowest =
      Table("SELECT MIN(id) FROM listing WHERE status = 'active' AND ref REGEXP '^[A-Za-z0-9]{1,32}$'")[0][0];
  Mariadb("UPDATE listing SET title = CONCAT(title, ' x'), updated = NOW() + INTERVAL 1 DAY WHERE id = " + lowest);
  EXPECT_EQ(Get(app, "", "GET", {{"If-None-Match", tag}}).status, 200);
}

TEST_F(YadsIntegration, FullWalkConfigMistakesAreNamed) {
  auto refused = [](std::map<std::string, std::string> o) {
    try {
      LoadConfig(testing::WriteSampleConfig(std::move(o)));
    } catch (const FeedError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string root = Env("FEED_TEST_ROOT");
  EXPECT_NE(refused(FullWalk({{"state_query_full", ""}})).find("state_query and state_query_full both or neither"),
            std::string::npos);
  EXPECT_NE(refused({{"keyset_full", "id_key"}}).find("need query_full"), std::string::npos);
  EXPECT_NE(refused(FullWalk({{"since", ""}})).find("needs since"), std::string::npos);
}

TEST_F(YadsIntegration, DatabaseOutageGives503ThenRecoversInTheSameProcess) {
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})));
  ASSERT_EQ(Get(app, "").status, 200);
  testing::StopDatabase();
  Reply down = Get(app, "");
  Reply down_head = Get(app, "", "HEAD");
  Reply down_bad = Get(app, "date=yesterday");
  testing::StartDatabase();
  EXPECT_EQ(down_bad.status, 400) << "client input is judged before the database is asked";
  EXPECT_EQ(down.status, 503);
  EXPECT_EQ(down.headers["Retry-After"], "60");
  EXPECT_EQ(down.headers["Content-Type"], "text/plain; charset=utf-8");
  EXPECT_EQ(std::count(down.body.begin(), down.body.end(), '\n'), 1);
  EXPECT_EQ(down_head.status, 503);
  Reply back = Get(app, "");
  EXPECT_EQ(back.status, 200);
  EXPECT_FALSE(Parse(back).ads.empty());
}

// KILL `what` (CONNECTION or QUERY) for each process of the feed user
// that `where` also selects, this client's aside; false when there is none.
bool KillFeedProcesses(const std::string& what, const std::string& where = "TRUE") {
  const std::string ids = testing::Mariadb(
      "SELECT GROUP_CONCAT(id) FROM information_schema.processlist WHERE user = 'feed' AND id <> CONNECTION_ID()"
      " AND " + where);
  if (ids.find_first_of("0123456789") == std::string::npos) return false;
  std::string kill;
  std::istringstream in(ids);
  for (std::string id; std::getline(in, id, ',');) {
    if (!id.empty() && id.back() == '\n') id.pop_back();
    kill += "KILL " + what + " " + id + ";";
  }
  testing::Mariadb(kill);
  return true;
}

// The command-line render of /yads, with `overrides` in its section, into
// a pipe read slowly: `midway` runs once the first 4 KB are read (the rest
// waits for the pipe), then the rest is read. What came out, ending in
// "exit=N\n".
std::string RenderInterrupted(const std::map<std::string, std::string>& overrides,
                              const std::function<void()>& midway) {
  const std::string cmd = "'" + Env("FEED_TEST_BIN") + "' --config '" + testing::WriteSampleConfig(overrides) +
                          "' render /yads 2>/dev/null; echo \"exit=$?\"";
  FILE* p = popen(cmd.c_str(), "r");
  EXPECT_NE(p, nullptr);
  if (!p) return "";
  std::string out(4096, '\0');
  out.resize(fread(out.data(), 1, out.size(), p));
  midway();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST_F(YadsIntegration, DatabaseLostMidFeedLeavesADocumentThatDoesNotParse) {
  // The database stops while the feed is half written.
  const std::string out =
      RenderInterrupted({{"page_size", "100000"}, {"fetch_rows", "50"}}, [] { testing::StopDatabase(); });
  testing::StartDatabase();
  size_t exit_at = out.rfind("exit=");
  ASSERT_NE(exit_at, std::string::npos);
  EXPECT_EQ(out.substr(exit_at), "exit=1\n") << "a cut feed is a failure for cron";
  std::string body = out.substr(0, exit_at);
  EXPECT_GT(body.size(), 4096u);
  EXPECT_EQ(body.find("</yml_catalog>"), std::string::npos);
  std::string utf8 = Cp1251ToUtf8(body);
  tinyxml2::XMLDocument doc;
  EXPECT_NE(doc.Parse(utf8.c_str(), utf8.size()), tinyxml2::XML_SUCCESS);
}

// The same with the rows streamed (read = stream: one query whose rows
// arrive while the page is written): the end of a cut stream is not the
// end of the rows.
TEST_F(YadsIntegration, DatabaseLostMidStreamIsAFailureNotTheEndOfTheRows) {
  const std::string out =
      RenderInterrupted({{"page_size", "100000"}, {"fetch_rows", "100000"}, {"read", "stream"}},
                        [] { testing::StopDatabase(); });
  testing::StartDatabase();
  size_t exit_at = out.rfind("exit=");
  ASSERT_NE(exit_at, std::string::npos);
  EXPECT_EQ(out.substr(exit_at), "exit=1\n") << "a cut stream is a failure, not the last row";
  EXPECT_EQ(out.substr(0, exit_at).find("</yml_catalog>"), std::string::npos);
}

// A streamed query the server ends with an error part-way (KILL QUERY by
// an operator, max_statement_time) is a failure too, though the connection
// lives on.
TEST_F(YadsIntegration, AStreamedQueryKilledPartWayIsAFailureNotTheEndOfTheRows) {
  const std::string out =
      RenderInterrupted({{"page_size", "100000"}, {"fetch_rows", "100000"}, {"read", "stream"}}, [] {
        // The feed's query is under way (its rows wait for the pipe): end it.
        EXPECT_TRUE(KillFeedProcesses("QUERY", "command = 'Query' AND info LIKE '%FROM%'"))
            << "no query of the feed under way";
      });
  size_t exit_at = out.rfind("exit=");
  ASSERT_NE(exit_at, std::string::npos);
  EXPECT_EQ(out.substr(exit_at), "exit=1\n") << "a killed stream is a failure, not the last row";
  EXPECT_EQ(out.substr(0, exit_at).find("</yml_catalog>"), std::string::npos);
}

TEST_F(YadsIntegration, CommandLineReportsLeftOutIds) {
  std::string config = testing::WriteSampleConfig({{"page_size", "100000"}});
  std::string out_file = config + ".xml", err_file = config + ".err";
  int rc = testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config +
                          "' render /yads date='2026-09-01 00:00:00' -o '" + out_file + "' 2>'" + err_file + "'");
  EXPECT_EQ(rc, 0);
  std::ifstream err(err_file);
  std::string summary((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  std::set<std::string> bad;
  auto expected = ExpectedAds("2026-09-01 00:00:00", &bad);
  EXPECT_NE(
      summary.find(std::to_string(expected.size()) + " rows written, " + std::to_string(bad.size()) + " left out"),
      std::string::npos)
      << summary;
  for (const std::string& ref : bad) {
    EXPECT_NE(summary.find("id='" + ref.substr(0, 64)), std::string::npos) << ref << " not reported in\n" << summary;
  }
  // Usage errors and bad parameters fail clearly.
  EXPECT_EQ(testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config +
                           "' render /yads date=yesterday 2>/dev/null >/dev/null"),
            1);
  EXPECT_EQ(testing::Shell("'" + Env("FEED_TEST_BIN") + "' --help | grep -q render"), 0);
}

TEST_F(YadsIntegration, PlainCgiServesOneRequest) {
  std::string config = testing::WriteSampleConfig({{"page_size", "10"}});
  std::string cmd = "FEED_CONFIG='" + config +
                    "' REQUEST_METHOD=GET PATH_INFO=/yads QUERY_STRING='date=2026-10-01+00:00:00' '" +
                    Env("FEED_TEST_BIN") + "' </dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  EXPECT_EQ(pclose(p), 0);
  EXPECT_EQ(out.rfind("Status: 200 OK\r\nContent-Type: text/xml; charset=windows-1251\r\n", 0), 0u)
      << out.substr(0, 200);
  EXPECT_NE(out.find("<continue>"), std::string::npos);
}

TEST_F(YadsIntegration, AConfigMistakeStopsTheProgramAtStartWithFileAndLine) {
  std::string config = testing::WriteSampleConfig({{"page_size", "lots"}});
  std::string err = config + ".err";
  // As mod_fcgid starts it (no command): it must not serve half-configured.
  int rc = testing::Shell("FEED_CONFIG='" + config + "' '" + Env("FEED_TEST_BIN") + "' </dev/null >/dev/null 2>'" +
                          err + "'");
  EXPECT_NE(rc, 0);
  std::ifstream in(err);
  std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(message.find(config + ":"), std::string::npos) << message;
  EXPECT_NE(message.find("page_size must be a whole number"), std::string::npos) << message;
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << "reported once: " << message;
}

TEST_F(YadsIntegration, MappingErrorsAreFoundAtStart) {
  // A template field the query does not return: `check` says which.
  std::string root = Env("FEED_TEST_ROOT");
  std::string bad_sql = testing::WriteSampleConfig() + ".sql";
  testing::Shell("sed 's/AS town/AS city/' '" + root + "/sql/sample-yads.sql' > '" + bad_sql + "'");
  std::string config = testing::WriteSampleConfig({{"query", bad_sql}});
  App app(LoadConfig(config));
  try {
    app.CheckDatabase();
    FAIL() << "a missing field passed the check";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("yads.xml:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("field 'town' is not a column"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' check 2>/dev/null"), 1);
  EXPECT_EQ(
      testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + testing::WriteSampleConfig() + "' check >/dev/null"),
      0);

  // A syntax error is named by the file's own line, past the comments the
  // file starts with (the server counts from the statement's first word).
  const std::string typo_sql = testing::WriteSampleConfig() + ".sql";
  testing::Shell("awk '{ print } /^SELECT/ && !done { print \"  ,, broken\"; done = 1 }' '" + root +
                 "/sql/sample-yads.sql' > '" + typo_sql + "'");
  int want_line = 0;
  {
    std::ifstream in(typo_sql);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line == "  ,, broken") want_line = n;
    }
  }
  ASSERT_GT(want_line, 5) << "the sample query starts with comment lines";
  try {
    App typo(LoadConfig(testing::WriteSampleConfig({{"query", typo_sql}})));
    typo.CheckDatabase();
    FAIL() << "a syntax error passed the check";
  } catch (const FeedError& e) {
    EXPECT_NE(std::string(e.what()).find(typo_sql + ":" + std::to_string(want_line) + ": the database refuses"),
              std::string::npos)
        << e.what() << " (want line " << want_line << ")";
  }

  // A [site] key the query names but the config lacks: said as such.
  const std::string site_sql = testing::WriteSampleConfig() + ".site.sql";
  testing::Shell("sed 's/:site_url/:site_locale/' '" + root + "/sql/sample-yads.sql' > '" + site_sql + "'");
  try {
    App site(LoadConfig(testing::WriteSampleConfig({{"query", site_sql}})));
    FAIL() << "a missing [site] key passed";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("the config's [site] has no key 'locale'"), std::string::npos) << e.what();
  }
  unlink(site_sql.c_str());
}

// `make install` copies conf/* as it is: none of it may carry a secret, so
// that every site keys its tokens with its own (FEED_SECRET). The configs
// load with one from the environment and refuse to serve paged feeds
// without.
TEST(ShippedConfigs, CarryNoSecret) {
  const std::string conf = Env("FEED_TEST_ROOT") + "/conf";
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(conf)) files.push_back(e.path().filename());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 3u);
  const ConfigEnvironment unkeyed{{{"FEED_DB_NAME", "sample"}}};
  const ConfigEnvironment keyed{{{"FEED_DB_NAME", "sample"}, {"FEED_SECRET", "q3J8+/Zt0aBv9LmW2xYc1RkEo5HfT7sN"}}};
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const std::string path = conf + "/" + name, text = ReadSiteFile(path);
    if (name.size() > 4 && name.substr(name.size() - 4) == ".ini") {
      bool paged = false;
      for (const IniSection& sec : ParseIni(text, path)) {
        for (const auto& [key, v] : sec.entries) {
          EXPECT_NE(key, "secret") << "[" << sec.name << "] line " << v.line;
          paged = paged || key == "continue";
        }
      }
      if (paged) {
        try {
          LoadConfig(path, unkeyed);
          ADD_FAILURE() << "a paged feed loaded without a secret";
        } catch (const FeedError& e) {
          EXPECT_NE(std::string(e.what()).find("has continue but no secret"), std::string::npos) << e.what();
        }
      }
      EXPECT_NO_THROW(LoadConfig(path, keyed));
    } else {
      // Anything else (the Apache snippet) may name FEED_SECRET only with a
      // value the program refuses.
      std::istringstream in(text);
      for (std::string line; std::getline(in, line);) {
        const size_t at = line.find("FEED_SECRET ");
        if (at == std::string::npos) continue;
        std::string value = line.substr(at + 12);
        value.erase(0, value.find_first_not_of(" \t"));
        EXPECT_NE(SecretUnfit(value), "") << line;
      }
    }
  }
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// The server's Connections and Com_stmt_prepare counters, read through one
// client connection (which itself counts as one connection).
std::pair<long, long> ConnectionsAndPrepares() {
  auto rows = Table(
      "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
      " WHERE VARIABLE_NAME IN ('CONNECTIONS', 'COM_STMT_PREPARE') ORDER BY VARIABLE_NAME DESC");
  return {std::stol(rows.at(0).at(0)), std::stol(rows.at(1).at(0))};
}

TEST_F(YadsIntegration, OneConnectionAndOnePrepareServeManyRequests) {
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "200"}, {"fetch_rows", "50"}})));
  ASSERT_EQ(Get(app, "").status, 200);  // connects and prepares
  auto [connections, prepares] = ConnectionsAndPrepares();
  for (int i = 0; i < 5; ++i) {
    Page p = Parse(Get(app, "date=2026-10-01+00:00:00"));
    ASSERT_FALSE(p.continue_token.empty());
    ASSERT_EQ(Get(app, "date=2026-10-01+00:00:00&continue=" + p.continue_token).status, 200);
  }
  auto [connections_after, prepares_after] = ConnectionsAndPrepares();
  EXPECT_EQ(connections_after - connections, 1) << "requests opened connections (1 is the status read itself)";
  EXPECT_EQ(prepares_after - prepares, 0) << "requests prepared statements again";
}

// A query is an ordinary value: the statement prepared for its text serves
// every SqlQuery of that text, a temporary or one made later, whatever its
// address or its parameters' names.
TEST_F(YadsIntegration, APreparedStatementServesEveryQueryOfItsText) {
  Database db(LoadConfig(testing::WriteSampleConfig()).database);
  auto run = [&](const SqlQuery& q, const SqlParams& p) {
    Rows r = db.Run(q, p);
    return r.Next() ? std::string(r.Get(0)) : std::string("no row");
  };
  EXPECT_EQ(run(ParseSqlQuery("SELECT :x + 1", "a.sql"), {{"x", int64_t{1}}}), "2");  // connects and prepares
  const long prepares = ConnectionsAndPrepares().second;
  EXPECT_EQ(run(ParseSqlQuery("SELECT :x + 1", "a.sql"), {{"x", int64_t{2}}}), "3");
  {
    const SqlQuery other = ParseSqlQuery("SELECT :y + 1", "b.sql");
    EXPECT_EQ(run(other, {{"y", int64_t{41}}}), "42");
  }
  EXPECT_EQ(ConnectionsAndPrepares().second - prepares, 0) << "the same text was prepared again";
  EXPECT_EQ(run(ParseSqlQuery("SELECT :x + 2", "c.sql"), {{"x", int64_t{1}}}), "3");
  EXPECT_EQ(ConnectionsAndPrepares().second - prepares, 1) << "a new text is one new statement";
}

TEST_F(YadsIntegration, AConnectionKilledBetweenRequestsIsReopenedWithoutAnError) {
  App app(LoadConfig(testing::WriteSampleConfig()));
  ASSERT_EQ(Get(app, "").status, 200);
  // The server drops every connection of the feed user (a restart or
  // wait_timeout does the same).
  ASSERT_TRUE(KillFeedProcesses("CONNECTION"));
  Reply r = Get(app, "date=2026-10-20+00:00:00");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(Parse(r).ads.empty());
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// The legacy board of ../shared/board (cp1251 tables, the PHP site's own
// schema) served by conf/legacy-board.ini alone. tests/run.sh loads it when
// ../shared is there; the project's own tests do not need it.
TEST(LegacyBoard, YadsFeedFromTheLegacySchemaByConfigurationAlone) {
  std::optional<Config> legacy = testing::LegacyConfig();
  if (!legacy) GTEST_SKIP() << "no legacy board loaded (../shared/board not found)";
  const std::string db = legacy->database.name;
  App app(std::move(*legacy));
  app.CheckDatabase();

  // The tables are cp1251: HEX() of their UTF-8 conversion.
  auto rows =
      Table(std::string("SELECT a.ad_id, HEX(CONVERT(a.title USING utf8mb4)), HEX(CONVERT(a.text USING utf8mb4)),"
                        " HEX(CONVERT(a.author USING utf8mb4)), a.kind, HEX(CONVERT(IFNULL(c.name, '') USING utf8mb4)),"
                        " HEX(a.phone), HEX(a.email), HEX(a.icq), HEX(a.photo), DATE(a.added), a.days"
                        " FROM `") +
            db + "`.ads a LEFT JOIN `" + db +
            "`.city c ON c.city_id = a.city_id"
            " WHERE a.status = 'active' AND a.added >= '2026-10-01 00:00:00'");
  ASSERT_GT(rows.size(), 100u);
  std::map<std::string, ExpectedAd> expected;
  for (const auto& c : rows) {
    expected[c[0]] = FromRow(c, "doska.example/ad/" + c[0] + ".html");
  }
  std::set<std::string> seen;
  size_t pages = 0;
  bool saw_reference = false;
  std::string cont;
  do {
    Reply r = Get(app, "date=2026-10-01+00:00:00" + (cont.empty() ? "" : "&continue=" + cont));
    saw_reference = saw_reference || r.body.find("&#128512;") != std::string::npos;
    for (char ctl : {'\x01', '\x08', '\x0b', '\x1f'}) ASSERT_EQ(r.body.find(ctl), std::string::npos);
    Page p = Parse(r);
    ++pages;
    for (const auto& [id, f] : p.ads) {
      ASSERT_TRUE(seen.insert(id).second) << id;
      auto it = expected.find(id);
      ASSERT_NE(it, expected.end()) << id;
      ExpectAd(id, f, it->second);
    }
    cont = p.continue_token;
  } while (!cont.empty() && pages < 1000);
  EXPECT_EQ(seen.size(), expected.size());
  EXPECT_TRUE(saw_reference) << "typed &#128512; in the cp1251 table should come out as a reference";
}

}  // namespace
}  // namespace feed
