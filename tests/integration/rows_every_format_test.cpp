// Rows real boards hold (issue #22, point 7) and dates in the future (point
// 5), through every feed the sample mapping ships (conf/sample-board.ini),
// on the real MariaDB: in each of the board's tables, a row with NULL in
// every column a query selects, one with zero dates stored under a
// permissive sql_mode, one dated 2087, one with a 64 KiB title and a 16 MiB
// text, and one with markup and control characters. Each feed answers 200
// with a document that keeps its format's rules as the tests state them
// (tests/support/feed_rules.h), writes no date of 2087 (a lastmod, pubDate
// or modified date is never in the future), and renders each such row that
// its query selects or names it in its report.
//
// And every shipped feed, and every written set, from an empty board
// (issue #24, point 6).
#include <gtest/gtest.h>

#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "app.h"
#include "clock.h"
#include "feed_rules.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::FeedFaults;
using testing::FeedKind;
using testing::Mariadb;

// The dirty rows, ids 900001.. in each table; refs DIRTY900001...
// 900001 NULL in every column that may hold one; 900002 zero dates; 900003
// dated 2087; 900004 a 64 KiB title and a 16 MiB text; 900005 markup,
// control characters and entities.
void AddDirtyRows() {
  Mariadb(
      "ALTER TABLE listing MODIFY ref VARCHAR(64) NULL, MODIFY title MEDIUMTEXT NULL, MODIFY body LONGTEXT NULL, "
      "MODIFY author VARCHAR(100) NULL, MODIFY region_id SMALLINT UNSIGNED NULL, MODIFY phone VARCHAR(64) NULL, "
      "MODIFY email VARCHAR(100) NULL, MODIFY icq VARCHAR(20) NULL, MODIFY photo VARCHAR(255) NULL, "
      "MODIFY added DATETIME NULL, MODIFY days SMALLINT NULL, MODIFY updated DATETIME NULL, "
      "MODIFY kind ENUM('offer','demand') NULL");
  Mariadb(
      "ALTER TABLE job MODIFY title MEDIUMTEXT NULL, MODIFY regions VARCHAR(255) NULL, MODIFY salary VARCHAR(64) NULL, "
      "MODIFY company VARCHAR(255) NULL, MODIFY company_info TEXT NULL, MODIFY description LONGTEXT NULL, "
      "MODIFY contacts TEXT NULL, MODIFY created DATETIME NULL, MODIFY updated DATETIME NULL, "
      "MODIFY is_resume TINYINT NULL");
  Mariadb(
      "ALTER TABLE document MODIFY category VARCHAR(255) NULL, MODIFY title MEDIUMTEXT NULL, "
      "MODIFY summary LONGTEXT NULL, MODIFY genre VARCHAR(32) NULL, MODIFY ext VARCHAR(10) NULL, "
      "MODIFY size_bytes BIGINT UNSIGNED NULL, MODIFY coins INT UNSIGNED NULL, MODIFY member_id INT UNSIGNED NULL, "
      "MODIFY stored TINYINT NULL, MODIFY mirrors VARCHAR(1024) NULL, MODIFY uploaded DATETIME NULL, "
      "MODIFY updated DATETIME NULL, MODIFY downloads INT UNSIGNED NULL, MODIFY favorites INT UNSIGNED NULL, "
      "MODIFY likes INT UNSIGNED NULL, MODIFY shares INT UNSIGNED NULL, MODIFY rating_sum INT UNSIGNED NULL, "
      "MODIFY rating_count INT UNSIGNED NULL, MODIFY tags VARCHAR(255) NULL");
  Mariadb(
      "ALTER TABLE document_comment MODIFY body TEXT NULL, MODIFY created DATETIME NULL, "
      "MODIFY member_id INT UNSIGNED NULL");
  const std::string now = "NOW() - INTERVAL 1 HOUR";
  const std::string big_title = "REPEAT('Т', 32768)", big_text = "REPEAT('Я', 8388608)";
  const std::string markup = "'<b>Заголовок</b> &amp; \\0\\Z &#1; ]]> \"кавычки\" <script>x</script>'";
  Mariadb(
      "SET SESSION sql_mode = ''; "
      "INSERT INTO listing (id, ref, title, body, author, region_id, phone, email, icq, photo, added, days, updated, "
      "kind, status) VALUES "
      "(900001, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'active'), "
      "(900002, 'DIRTY900002', 'Ноль', 'текст', 'Автор', 1, '', '', '', '', '0000-00-00 00:00:00', 30, "
      "'0000-00-00 00:00:00', 'offer', 'active'), "
      "(900003, 'DIRTY900003', 'Будущее', 'текст', 'Автор', 1, '', '', '', '', '2087-06-01 12:00:00', 30, "
      "'2087-06-01 12:00:00', 'offer', 'active'), "
      "(900004, 'DIRTY900004', " +
      big_title + ", " + big_text + ", 'Автор', 1, '', '', '', '', " + now + ", 30, " + now +
      ", 'offer', 'active'), "
      "(900005, 'DIRTY900005', " +
      markup + ", " + markup + ", " + markup + ", 1, " + markup + ", '', '', '', " + now + ", 30, " + now +
      ", 'offer', 'active')");
  Mariadb(
      "SET SESSION sql_mode = ''; "
      "INSERT INTO job (id, is_resume, title, regions, salary, company, company_info, description, contacts, expires, "
      "created, updated, status) VALUES "
      "(900001, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'active'), "
      "(900002, 0, 'Ноль', 'Київ', '', 'Фирма', '', 'текст', 'тел', '0000-00-00', '0000-00-00 00:00:00', "
      "'0000-00-00 00:00:00', 'active'), "
      "(900003, 0, 'Будущее', 'Київ', '', 'Фирма', '', 'текст', 'тел', '2088-01-01', '2087-06-01 12:00:00', "
      "'2087-06-01 12:00:00', 'active'), "
      "(900004, 0, " +
      big_title + ", 'Київ', '', 'Фирма', '', " + big_text + ", 'тел', NULL, " + now + ", " + now +
      ", 'active'), "
      "(900005, 0, " +
      markup + ", " + markup + ", " + markup + ", " + markup + ", " + markup + ", " + markup + ", " + markup +
      ", NULL, " + now + ", " + now + ", 'active')");
  Mariadb(
      "SET SESSION sql_mode = ''; "
      "INSERT INTO document (id, category, title, summary, genre, ext, size_bytes, coins, member_id, stored, mirrors, "
      "uploaded, updated, downloads, favorites, likes, shares, rating_sum, rating_count, tags, status) VALUES "
      "(900001, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
      "NULL, NULL, 'active'), "
      "(900002, '资料 > 教育', '零', '文本', '', 'pdf', 1000, 0, 1, 1, '', '0000-00-00 00:00:00', "
      "'0000-00-00 00:00:00', 0, 0, 0, 0, 0, 0, '', 'active'), "
      "(900003, '资料 > 教育', '未来', '文本', '', 'pdf', 1000, 0, 1, 1, '', '2087-06-01 12:00:00', "
      "'2087-06-01 12:00:00', 0, 0, 0, 0, 0, 0, '', 'active'), "
      "(900004, '资料 > 教育', " +
      big_title + ", " + big_text + ", '', 'pdf', 1000, 0, 1, 1, '', " + now + ", " + now +
      ", 0, 0, 0, 0, 0, 0, '', 'active'), "
      "(900005, " +
      markup + ", " + markup + ", " + markup + ", " + markup + ", 'pdf', 1000, 0, 1, 1, " + markup + ", " + now + ", " +
      now + ", 0, 0, 0, 0, 0, 0, " + markup + ", 'active')");
  Mariadb(
      "SET SESSION sql_mode = ''; "
      "INSERT INTO document_comment (document_id, member_id, body, created) VALUES "
      "(900002, NULL, NULL, NULL), (900002, 1, 'ok', '0000-00-00 00:00:00'), (900003, 1, " +
      markup + ", '2087-06-01 12:00:00'), (900004, 1, " + big_text + ", " + now + ")");
}

// A date of 2087 in any form the formats write (2087-06-01, 01.06.2087,
// "01 Jun 2087") but where a date is meant to be ahead: when an MSN item
// expires (dcterms:valid, mi:expirationDate; a Jooble <expire> of 2088).
bool WritesTheFuture(const std::string& body) {
  static const std::regex ahead("<dcterms:valid>[^<]*</dcterms:valid>|<mi:expirationDate>[^<]*</mi:expirationDate>");
  static const std::regex future("2087-|\\.2087\\b| 2087 ");
  return std::regex_search(std::regex_replace(body, ahead, ""), future);
}

struct Shipped {
  const char* path;   // the document's path (a set's index)
  FeedKind kind;      // its kind (for a set: of its parts)
  bool set = false;   // a set: its index lists parts
  const char* table;  // the board's table it lists every current row of, or nullptr (a selection)
  const char* agent = "rows-test";
};

const std::vector<Shipped>& ShippedFeeds() {
  static const std::vector<Shipped> feeds = {
      {"/yads", FeedKind::kYads, false, "listing"},
      {"/yads?date=2000-01-01+00:00:00", FeedKind::kYads, false, nullptr},
      // A visit sends what changed since the last one: a row of no change
      // date, or of one still to come, is not in it (but in /jooble-full).
      {"/jooble", FeedKind::kJooble, false, nullptr, "Mozilla/5.0 (compatible; JoobleBot/2.0)"},
      {"/jooble-full", FeedKind::kJooble, false, "job"},
      {"/sitemap.xml", FeedKind::kSitemap, true, "listing"},
      {"/baidu.xml", FeedKind::kBaidu, true, "document"},
      {"/urls-ad-urls-1.txt", FeedKind::kText, false, "listing"},
      {"/urls-job-urls-1.txt", FeedKind::kText, false, "job"},
      {"/urls-doc-urls-1.txt", FeedKind::kText, false, "document"},
      {"/rss", FeedKind::kRss, false, nullptr},
      {"/atom", FeedKind::kAtom, false, nullptr},
      {"/msn", FeedKind::kMsn, false, nullptr},
      {"/indeed", FeedKind::kIndeed, false, "job"},
      {"/careerjet", FeedKind::kCareerjet, false, "job"},
  };
  return feeds;
}

// gtest names a failing case by its path.
void PrintTo(const Shipped& f, std::ostream* os) { *os << f.path; }
// A case's name: its path, letters and digits kept ("/yads?date=..." ->
// "_yads_date_...").
std::string CaseName(const ::testing::TestParamInfo<Shipped>& i) {
  std::string n;
  for (char c : std::string(i.param.path)) n += isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return n;
}

class RowsEveryFormat : public ::testing::TestWithParam<Shipped> {
 protected:
  static void SetUpTestSuite() {
    testing::LoadSampleBoard(300, 200, 3, 100);
    AddDirtyRows();
  }
};

struct Walk {
  std::string bodies;                 // every document of the feed, one after another
  std::vector<std::string> reported;  // rows left out, as the reports name them
};

Walk Follow(App& app, const Shipped& f) {
  Walk w;
  std::vector<std::string> paths = {f.path};
  for (size_t i = 0; i < paths.size() && i < 200; ++i) {
    SCOPED_TRACE(paths[i]);
    Request req;
    const size_t q = paths[i].find('?');
    req.path_info = paths[i].substr(0, q);
    req.query_string = q == std::string::npos ? "" : paths[i].substr(q + 1);
    req.user_agent = f.agent;
    const testing::Reply r = testing::Fetch(app, req);
    EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
    if (r.status != 200) continue;
    const bool index = f.set && i == 0;
    const FeedKind kind = index ? FeedKind::kSitemapIndex : f.kind;
    const auto faults = FeedFaults(kind, r.body);
    std::string list;
    for (const std::string& s : faults) list += "\n  " + s;
    EXPECT_TRUE(faults.empty()) << testing::FeedKindName(kind) << ":" << list;
    EXPECT_FALSE(WritesTheFuture(r.body)) << "a date in 2087 written";
    for (const std::string& s : r.report.skipped_items) w.reported.push_back(s);
    if (index) {
      for (const std::string& loc : testing::IndexLocs(r.body)) paths.push_back(loc.substr(loc.rfind('/')));
      continue;
    }
    w.bodies += f.kind == FeedKind::kYads ? testing::Cp1251ToUtf8(r.body) : r.body;
    if (f.kind == FeedKind::kYads) {
      const std::string token = testing::YadsContinue(r.body);
      if (!token.empty()) paths.push_back("/yads?continue=" + token);
    }
  }
  return w;
}

TEST_P(RowsEveryFormat, EachDirtyRowIsRenderedOrReportedAndTheDocumentKeepsItsRules) {
  const Shipped& f = GetParam();
  FixedClock clock(Now());
  App app(testing::ShippedConfig("sample-board.ini", testing::Env("FEED_TEST_DB")), &clock);
  if (f.kind == FeedKind::kMsn) app.SyncItems("/msn");
  const Walk w = Follow(app, f);
  if (!f.table) return;
  // Each dirty row the feed's query selects: the board's current rows
  // (active; for jobs, not ended and, for the job aggregators, no resume).
  std::string where = "status = 'active' AND id >= 900001";
  if (std::string(f.table) == "job") {
    where += " AND (expires IS NULL OR expires >= CURDATE())";
    if (f.kind == FeedKind::kIndeed || f.kind == FeedKind::kCareerjet) where += " AND is_resume = 0";
  }
  for (const auto& row :
       testing::Table(std::string("SELECT id, IFNULL(") + (std::string(f.table) == "listing" ? "ref" : "id") +
                      ", '') FROM " + f.table + " WHERE " + where)) {
    const std::string& id = row[0];
    const std::string& ref = row[1];
    bool reported = false;
    for (const std::string& s : w.reported) reported = reported || s.find(id) != std::string::npos;
    const bool rendered = !ref.empty() && w.bodies.find(ref) != std::string::npos;
    EXPECT_TRUE(rendered || reported) << f.table << " row " << id << " is neither in " << f.path << " nor reported ("
                                      << w.reported.size() << " reported)";
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, RowsEveryFormat, ::testing::ValuesIn(ShippedFeeds()),
                         CaseName);

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// Every shipped feed from a board with no listing, job or document at all
// (issue #24, point 6: an empty job feed that was not valid XML made Indeed
// drop a board): 200 and a document that keeps its format's rules; a set's
// index lists parts that are valid too.
void LoadEmptyBoard() {
  testing::LoadSampleBoard(0, 0, 1, 0);
  Mariadb("DELETE FROM document_comment; DELETE FROM document; DELETE FROM job; DELETE FROM listing");
}

class EmptyBoard : public ::testing::TestWithParam<Shipped> {
 protected:
  static void SetUpTestSuite() { LoadEmptyBoard(); }
};

class EmptyBoardWrite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { LoadEmptyBoard(); }
};

TEST_P(EmptyBoard, EveryShippedFeedIsAValidDocument) {
  const Shipped& f = GetParam();
  App app(testing::ShippedConfig("sample-board.ini", testing::Env("FEED_TEST_DB")));
  if (f.kind == FeedKind::kMsn) app.SyncItems("/msn");
  const Walk w = Follow(app, f);
  EXPECT_TRUE(w.reported.empty());
}

// `write` of each set from the empty board: an index of one part, and that
// part valid (a sitemap's lists the home page); nothing reported.
TEST_F(EmptyBoardWrite, EveryWrittenSetIsAnIndexOfOneValidPart) {
  for (const Shipped& f : ShippedFeeds()) {
    if (!f.set) continue;
    SCOPED_TRACE(f.path);
    App app(testing::ShippedConfig("sample-board.ini", testing::Env("FEED_TEST_DB")));
    const std::string dir = testing::TempDir("empty");
    const WriteReport w = app.WriteSet(f.path, dir);
    EXPECT_EQ(w.rows, 0u);
    ASSERT_EQ(w.files.size(), 2u) << "an index and one part";
    for (const WrittenFile& file : w.files) {
      SCOPED_TRACE(file.name);
      const bool index = &file == &w.files.back();
      const auto faults = FeedFaults(index ? FeedKind::kSitemapIndex : f.kind, testing::Slurp(dir + "/" + file.name));
      std::string list;
      for (const std::string& s : faults) list += "\n  " + s;
      EXPECT_TRUE(faults.empty()) << list;
    }
    if (f.kind == FeedKind::kSitemap) {
      EXPECT_NE(testing::Slurp(dir + "/" + w.files[0].name).find("<loc>http://doska.example/</loc>"),
                std::string::npos);
    }
    testing::Shell("rm -rf '" + dir + "'");
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, EmptyBoard, ::testing::ValuesIn(ShippedFeeds()),
                         CaseName);

}  // namespace
}  // namespace feed
