// Rows real boards hold (issue #22, point 7), in the sample board's tables
// on the real MariaDB: a description of 16 MB and a title of 64 KB,
// windows-1251 bytes in a latin1 column (read through CONVERT(BINARY col
// USING cp1251) in the mapping, and without it), bytes that are not UTF-8
// at all, zero dates under a permissive sql_mode, and NULL in the columns a
// query selects. Each gives a document that parses (the sitemaps: valid
// against the sitemaps.org XSD) with the row rendered or left out and
// reported.
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "app.h"
#include "clock.h"
#include "datetime.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Mariadb;

// The sample board's ads as a sitemap set of one section, from its shipped
// query.
std::string SitemapConfig() {
  return testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
      "publish_url = http://doska.example/maps\n"
      "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "keyset = id\nlastmod = lastmod\nmax_items = 50000\n");
}

class RowsIntegration : public ::testing::Test {
 protected:
  void SetUp() override { testing::LoadSampleBoard(200, 100); }
};

// A Yads walk of every active ad (no date), parsed: ad id -> field -> text.
struct YadsDoc {
  std::map<std::string, std::map<std::string, std::string>> ads;
  std::vector<std::string> left_out;  // the reports' rows left out
  std::vector<std::string> notes;     // the reports' notes (rows written all the same)
};

YadsDoc FollowYads(App& app) {
  YadsDoc out;
  std::string cont;
  for (int n = 0; n < 100; ++n) {
    Request req;
    req.path_info = "/yads";
    req.query_string = cont.empty() ? "" : "continue=" + cont;
    testing::Reply r = testing::Fetch(app, req);
    EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
    if (r.status != 200) return out;
    for (const std::string& s : r.report.skipped_items) out.left_out.push_back(s);
    for (const std::string& s : r.report.noted_items) out.notes.push_back(s);
    const std::string utf8 = testing::Cp1251ToUtf8(r.body);
    tinyxml2::XMLDocument doc;
    if (doc.Parse(utf8.data(), utf8.size()) != tinyxml2::XML_SUCCESS) {
      ADD_FAILURE() << "a page does not parse: " << doc.ErrorStr();
      return out;
    }
    for (auto* ad = doc.RootElement()->FirstChildElement("ads")->FirstChildElement("ad"); ad;
         ad = ad->NextSiblingElement("ad")) {
      std::map<std::string, std::string> f;
      for (auto* e = ad->FirstChildElement(); e; e = e->NextSiblingElement()) f[e->Name()] = e->GetText() ? e->GetText() : "";
      out.ads[f["id"]] = f;
    }
    auto* c = doc.RootElement()->FirstChildElement("continue");
    cont = c && c->GetText() ? c->GetText() : "";
    if (cont.empty()) break;
  }
  return out;
}

bool Reported(const YadsDoc& d, const std::string& prefix) {
  for (const std::string& s : d.left_out) {
    if (s.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

size_t Chars(const std::string& utf8) {
  size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

// 16 MiB of description (8 Mi Cyrillic letters, two bytes each) and 64 KiB
// of title in one ad, the columns widened as a board that holds them has
// them. The test server's max_allowed_packet is the stock 64 MiB of
// MariaDB 10.11's Debian package; the row comes whole. The title is written
// whole; the description is cut at 8 MiB of UTF-8 (4 Mi letters: libxml2,
// which many robots parse with, refuses more than 10,000,000 bytes of text
// in one element) and the cut noted with the ad's id.
TEST_F(RowsIntegration, ADescriptionOf16MBIsCutAt8MiBAndNotedATitleOf64KBRenderedWhole) {
  Mariadb("ALTER TABLE listing MODIFY body LONGTEXT NOT NULL, MODIFY title MEDIUMTEXT NOT NULL");
  Mariadb("INSERT INTO listing (ref, title, body, author, region_id, added, updated) VALUES "
          "('BIG1', REPEAT('Т', 32768), REPEAT('Я', 8388608), 'Автор', 1, '2026-10-22 12:00:00', "
          "'2026-10-22 12:00:00')");
  ASSERT_EQ(Mariadb("SELECT LENGTH(body), LENGTH(title) FROM listing WHERE ref = 'BIG1'"), "16777216\t65536\n");
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "100"}})));
  const YadsDoc d = FollowYads(app);
  ASSERT_TRUE(d.ads.count("BIG1")) << "the big ad is neither rendered nor reported";
  const auto& f = d.ads.at("BIG1");
  EXPECT_EQ(Chars(f.at("body")), 4194304u);
  EXPECT_EQ(f.at("body").find_first_not_of("Я"), std::string::npos);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].rfind("item BIG1: body='ЯЯЯ", 0), 0u) << d.notes[0];
  EXPECT_NE(d.notes[0].find("maxbytes=8388608"), std::string::npos) << d.notes[0];
  EXPECT_EQ(Chars(f.at("title")), 32768u);
  EXPECT_GT(d.ads.size(), 100u);
}

// Old boards stored windows-1251 in latin1 columns without SET NAMES. The
// mapping says so with CONVERT(BINARY col USING cp1251) and the feed shows
// the Russian text; without it the column reads as latin1 (every byte is a
// latin1 character): the feed stays valid, the text shown as latin1 letters.
TEST_F(RowsIntegration, Windows1251BytesInALatin1Column) {
  Mariadb("ALTER TABLE listing ADD old_title VARCHAR(255) CHARACTER SET latin1 NOT NULL DEFAULT ''");
  // "Продам велосипед" in windows-1251, stored byte for byte.
  Mariadb("INSERT INTO listing (ref, title, body, author, region_id, added, updated, old_title) VALUES "
          "('OLD1', '', 'текст', 'Автор', 1, '2026-10-22 12:00:00', '2026-10-22 12:00:00', "
          "CONVERT(0xCFF0EEE4E0EC20E2E5EBEEF1E8EFE5E4 USING latin1))");
  ASSERT_EQ(Mariadb("SELECT HEX(old_title) FROM listing WHERE ref = 'OLD1'"), "CFF0EEE4E0EC20E2E5EBEEF1E8EFE5E4\n");
  std::string sql = testing::Slurp(Env("FEED_TEST_ROOT") + "/sql/sample-yads.sql");
  const std::string title = "l.title                       AS title,";
  ASSERT_NE(sql.find(title), std::string::npos);
  auto with = [&](const std::string& expr, const std::string& file) {
    std::string s = sql;
    s.replace(s.find(title), title.size(), expr + " AS title,");
    std::ofstream(file) << s;
    return file;
  };
  const std::string dir = testing::TempDir("rows");
  {
    App app(LoadConfig(testing::WriteSampleConfig(
        {{"page_size", "1000"}, {"query", with("CONVERT(BINARY l.old_title USING cp1251)", dir + "/convert.sql")}})));
    const YadsDoc d = FollowYads(app);
    ASSERT_TRUE(d.ads.count("OLD1"));
    EXPECT_EQ(d.ads.at("OLD1").at("title"), "Продам велосипед");
  }
  {
    App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "1000"}, {"query", with("l.old_title", dir + "/raw.sql")}})));
    const YadsDoc d = FollowYads(app);
    ASSERT_TRUE(d.ads.count("OLD1"));
    EXPECT_EQ(d.ads.at("OLD1").at("title"), "Ïðîäàì âåëîñèïåä");
  }
  testing::Shell("rm -rf '" + dir + "'");
}

// Bytes valid in no charset the column could claim (a binary string of
// broken UTF-8: a lone continuation byte, a cut sequence, 0xFF): the feed
// stays well-formed windows-1251 XML and the row is rendered, each broken
// byte dropped.
TEST_F(RowsIntegration, BytesThatAreNotUtf8StayAValidDocument) {
  Mariadb("INSERT INTO listing (ref, title, body, author, region_id, added, updated) VALUES "
          "('BAD1', 'x', 'y', 'Автор', 1, '2026-10-22 12:00:00', '2026-10-22 12:00:00')");
  std::string sql = testing::Slurp(Env("FEED_TEST_ROOT") + "/sql/sample-yads.sql");
  const std::string title = "l.title                       AS title,";
  ASSERT_NE(sql.find(title), std::string::npos);
  sql.replace(sql.find(title), title.size(), "IF(l.ref = 'BAD1', UNHEX('41808243D0FF44'), l.title) AS title,");
  const std::string dir = testing::TempDir("rows");
  std::ofstream(dir + "/bad.sql") << sql;
  App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "1000"}, {"query", dir + "/bad.sql"}})));
  const YadsDoc d = FollowYads(app);
  ASSERT_TRUE(d.ads.count("BAD1") || Reported(d, "item BAD1")) << "neither rendered nor reported";
  // The rule (xml_text.h, FEEDS.md): each invalid byte is dropped.
  if (d.ads.count("BAD1")) {
    EXPECT_EQ(d.ads.at("BAD1").at("title"), "ACD");
  }
  testing::Shell("rm -rf '" + dir + "'");
}

// Zero dates, stored under a permissive sql_mode. Yads (the full walk by
// id, as conf/sample-board.ini has it): the ad whose `added` is
// 0000-00-00 00:00:00 is left out and reported (the format needs its date); the sitemap: the ad whose `updated` is zero is listed without
// a lastmod, and the part is valid against sitemap.xsd.
TEST_F(RowsIntegration, ZeroDatesAreLeftOutOfTheDocument) {
  Mariadb("SET SESSION sql_mode = ''; "
          "INSERT INTO listing (ref, title, body, author, region_id, added, updated) VALUES "
          "('ZERO1', 'Ноль', 'текст', 'Автор', 1, '0000-00-00 00:00:00', '2026-10-22 12:00:00'), "
          "('ZERO2', 'Ноль', 'текст', 'Автор', 1, '2026-10-22 12:00:00', '0000-00-00 00:00:00')");
  ASSERT_EQ(Mariadb("SELECT COUNT(*) FROM listing WHERE added = '0000-00-00 00:00:00' OR updated = 0"), "2\n");
  {
    App app(LoadConfig(testing::WriteSampleConfig(
        {{"page_size", "1000"},
         {"query_full", Env("FEED_TEST_ROOT") + "/sql/sample-yads-full.sql"},
         {"state_query_full", Env("FEED_TEST_ROOT") + "/sql/sample-yads-state-full.sql"},
         {"keyset_full", "id_key"}})));
    const YadsDoc d = FollowYads(app);
    EXPECT_FALSE(d.ads.count("ZERO1"));
    EXPECT_TRUE(Reported(d, "item ZERO1: added='0000-00-00 00:00:00' breaks date")) << d.left_out.size();
    ASSERT_TRUE(d.ads.count("ZERO2"));
    EXPECT_EQ(d.ads.at("ZERO2").at("date"), "2026-10-22");
  }
  const std::string id = Mariadb("SELECT id FROM listing WHERE ref = 'ZERO2'");
  App app(LoadConfig(SitemapConfig()));
  const std::string dir = testing::TempDir("rows");
  app.WriteSet("/sitemap.xml", dir);
  const std::string xml = testing::Slurp(dir + "/sitemap-ads-1.xml");
  EXPECT_EQ(testing::Shell("xmllint --noout --schema '" + Env("FEED_TEST_ROOT") + "/schemas/sitemap.xsd' '" + dir +
                           "/sitemap-ads-1.xml'"),
            0);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(xml.data(), xml.size()), tinyxml2::XML_SUCCESS);
  bool found = false;
  for (auto* u = doc.RootElement()->FirstChildElement("url"); u; u = u->NextSiblingElement("url")) {
    if (std::string(u->FirstChildElement("loc")->GetText()) != "http://doska.example/ad/ZERO2.html") continue;
    found = true;
    EXPECT_EQ(u->FirstChildElement("lastmod"), nullptr) << "a zero date written as a lastmod";
  }
  EXPECT_TRUE(found) << "ad " << id;
  testing::Shell("rm -rf '" + dir + "'");
}

// NULL in every column the Yads query selects but its keyset: the ad is
// left out and reported (its id is required), the rest of the feed whole;
// the sitemap's query gives NULL for loc and lastmod: the row is left out
// and reported, the part valid.
TEST_F(RowsIntegration, NullInEverySelectedColumnLeavesTheRowOutReported) {
  Mariadb("ALTER TABLE listing MODIFY ref VARCHAR(64) NULL, MODIFY title VARCHAR(255) NULL, MODIFY body TEXT NULL, "
          "MODIFY author VARCHAR(100) NULL, MODIFY phone VARCHAR(64) NULL, MODIFY email VARCHAR(100) NULL, "
          "MODIFY icq VARCHAR(20) NULL, MODIFY photo VARCHAR(255) NULL, MODIFY days SMALLINT NULL, "
          "MODIFY updated DATETIME NULL, MODIFY kind ENUM('offer','demand') NULL");
  Mariadb("INSERT INTO listing (id, ref, title, body, author, region_id, phone, email, icq, photo, added, days, "
          "updated, kind) VALUES (900001, NULL, NULL, NULL, NULL, 999, NULL, NULL, NULL, NULL, '2026-10-22 12:00:00', "
          "NULL, NULL, NULL)");
  {
    App app(LoadConfig(testing::WriteSampleConfig({{"page_size", "1000"}})));
    const YadsDoc d = FollowYads(app);
    EXPECT_GT(d.ads.size(), 100u);
    bool reported = false;
    for (const std::string& s : d.left_out) reported = reported || s.find("breaks required") != std::string::npos;
    EXPECT_TRUE(reported) << d.left_out.size();
  }
  App app(LoadConfig(SitemapConfig()));
  const std::string dir = testing::TempDir("rows");
  WriteReport w = app.WriteSet("/sitemap.xml", dir);
  bool reported = false;
  for (const std::string& s : w.left_out.skipped_items) reported = reported || s.rfind("ads: item 900001: ", 0) == 0;
  EXPECT_TRUE(reported) << w.left_out.skipped;
  EXPECT_EQ(testing::Shell("xmllint --noout --schema '" + Env("FEED_TEST_ROOT") + "/schemas/sitemap.xsd' '" + dir +
                           "/sitemap-ads-1.xml'"),
            0);
  testing::Shell("rm -rf '" + dir + "'");
}

}  // namespace
}  // namespace feed
