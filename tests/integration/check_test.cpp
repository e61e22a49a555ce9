// `feed.fcgi check` against the real database: each mistake a site owner
// plausibly makes in a mapping, made on purpose in a copy of the sample
// board's Yads query, gives its finding (and exit 1); the shipped mapping
// gives none.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Slurp;

struct CheckRun {
  int status;
  std::string out;
};

CheckRun Check(const std::string& config, const std::string& flags) {
  const std::string out = config + ".out";
  const int rc = testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' check " + flags + " >'" +
                                out + "' 2>&1");
  CheckRun r{rc, Slurp(out)};
  unlink(out.c_str());
  return r;
}

// A copy of the file at `path` (under FEED_TEST_ROOT) with `from`
// replaced by `to`, written beside a temp file; returns its path.
std::string Edited(const std::string& path, const std::string& from, const std::string& to, const std::string& ext) {
  const std::string out = testing::WriteSampleConfig() + ext;
  std::string text = Slurp(Env("FEED_TEST_ROOT") + "/" + path);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  std::ofstream(out) << text;
  return out;
}

// The sample Yads query with `from` replaced by `to` (a sed expression's
// two sides), as a config of its own, with `more` keys for [feed yads].
std::string BrokenYads(const std::string& from, const std::string& to, std::map<std::string, std::string> more = {}) {
  more["query"] = Edited("sql/sample-yads.sql", from, to, ".sql");
  return testing::WriteSampleConfig(more);
}

// The findings of a check's output that are errors.
std::vector<std::string> Errors(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.find(": [feed ") != std::string::npos || line.find(": [set ") != std::string::npos) {
      if (line.find(": warning: ") == std::string::npos) lines.push_back(line);
    }
  }
  return lines;
}

// The line of `file` (under FEED_TEST_ROOT) where `text` first stands.
int LineOf(const std::string& file, const std::string& text) {
  const std::string s = Slurp(Env("FEED_TEST_ROOT") + "/" + file);
  const size_t at = s.find(text);
  EXPECT_NE(at, std::string::npos) << text;
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(s.begin(), s.begin() + at, '\n'));
}

class CheckIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::LoadSampleBoard(1500, 100);
    // Ads that share their `added` moment, so that chunk edges fall
    // between rows of one moment.
    testing::Mariadb("UPDATE listing SET added = '2026-10-20 10:00:00' WHERE id % 7 = 0");
  }
};

TEST_F(CheckIntegration, TheShippedMappingHasNoError) {
  CheckRun r = Check(testing::WriteSampleConfig(), "--deep");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find(": error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 0 errors"), std::string::npos) << r.out;
  // The sample board holds ids the Yads rules leave out: warnings, by rule,
  // with the first ids.
  EXPECT_NE(r.out.find("warning: [feed yads]: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("break id:alnum and are left out ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("break id:maxlen=32 and are left out ("), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("would arrive as '?'"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("its sample"), std::string::npos) << r.out;
}

// db_charset = cp1251 copied from the example config onto the sample
// board's utf8mb4 tables (Cyrillic and CJK text): every text column the
// query returns is named, at its line, with the setting to change; numbers
// and dates are not.
TEST_F(CheckIntegration, ANarrowConnectionCharsetIsNamedWithTheColumnAndTheSetting) {
  testing::Mariadb("UPDATE listing SET title = 'Квартира 東京 ☃' WHERE id = 1");
  CheckRun r = Check(testing::WriteSampleConfig({{"db_charset", "cp1251"}}), "");
  EXPECT_EQ(r.status, 1) << r.out;
  // The text columns of sql/sample-yads.sql (listing and region are utf8mb4).
  const std::set<std::string> text_columns = {"id",    "title", "body", "author", "town",
                                              "phone", "email", "icq",  "photo",  "url"};
  std::set<std::string> named;
  for (const std::string& line : Errors(r.out)) {
    const size_t at = line.find("]: column ");
    ASSERT_NE(at, std::string::npos) << "only charset findings: " << line;
    const std::string column = line.substr(at + 10, line.find(' ', at + 10) - at - 10);
    named.insert(column);
    EXPECT_NE(line.find(" is utf8mb4 but the connection is cp1251: characters cp1251 lacks would arrive as '?'; "
                        "set db_charset = utf8mb4 in [feed yads]"),
              std::string::npos)
        << line;
  }
  EXPECT_EQ(named, text_columns) << r.out;
  EXPECT_NE(r.out.find(".sql:" + std::to_string(LineOf("sql/sample-yads.sql", "l.title")) +
                       ": [feed yads]: column title (listing.title) is utf8mb4"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": [feed yads]: column town (region.name) is utf8mb4"), std::string::npos) << r.out;
  // The same tables through utf8mb4 (the shipped mapping): nothing.
  CheckRun fine = Check(testing::WriteSampleConfig(), "");
  EXPECT_EQ(fine.status, 0) << fine.out;
  EXPECT_EQ(fine.out.find("would arrive as '?'"), std::string::npos) << fine.out;
}

// A Cyrillic LIKE whose literal carries the connection's cp1251 collation
// against the utf8mb4 tables: the server refuses the query ("Illegal mix
// of collations ... for operation 'like'"), which check shows at the line
// of the LIKE. (MariaDB converts a plain cp1251 literal to utf8mb4; the
// clash comes with the cp1251 collation the old cp1251 query named.)
TEST_F(CheckIntegration, ACollationClashIsAFindingAtTheLineOfItsOperation) {
  const std::string config =
      BrokenYads(" WHERE l.status = 'active'\n",
                 " WHERE l.status = 'active'\n   AND l.title NOT LIKE '%Москва%' COLLATE cp1251_general_ci\n",
                 {{"db_charset", "cp1251"}});
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  const int like = LineOf("sql/sample-yads.sql", " WHERE l.status = 'active'") + 1;
  EXPECT_NE(r.out.find(".sql:" + std::to_string(like) + ": the database refuses the query: Illegal mix of collations"),
            std::string::npos)
      << like << "\n"
      << r.out;
}

// value.changefreq and value.priority outside what sitemaps.org allows: the
// rendered sample fails sitemap.xsd, a finding at the template's line.
TEST_F(CheckIntegration, AnInvalidSitemapIsAFindingAtTheTemplatesLine) {
  const std::string config = testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
      "publish_url = http://doska.example/feeds\n"
      "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "keyset = id\nlastmod = lastmod\nvalue.changefreq = sometimes\nvalue.priority = 2.0\n");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  const std::string tmpl = Env("FEED_TEST_ROOT") + "/templates/sitemap.xml";
  EXPECT_NE(r.out.find(tmpl + ":" + std::to_string(LineOf("templates/sitemap.xml", "<changefreq")) +
                       ": [feed ads]: its sample (50 rows rendered) breaks its format's rules: not valid against the "
                       "sitemaps.org sitemap.xsd: Element 'changefreq': [facet 'enumeration'] The value 'sometimes'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("; write one of always, hourly, daily, weekly, monthly, yearly or never in <changefreq>"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(tmpl + ":" + std::to_string(LineOf("templates/sitemap.xml", "<priority")) +
                       ": [feed ads]: its sample (50 rows rendered) breaks its format's rules: not valid against the "
                       "sitemaps.org sitemap.xsd: Element 'priority': "),
            std::string::npos)
      << r.out;
  // The valid values: no finding, and the index is valid too.
  CheckRun fine =
      Check(testing::WriteConfig("[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\n"
                                 "sections = ads\npublish_url = http://doska.example/feeds\n"
                                 "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\n"
                                 "query = @ROOT@/sql/sample-sitemap-ads.sql\nkeyset = id\nlastmod = lastmod\n"
                                 "value.changefreq = weekly\nvalue.priority = 1.0\n"),
            "");
  EXPECT_EQ(fine.status, 0) << fine.out;
  EXPECT_EQ(Errors(fine.out).size(), 0u) << fine.out;
}

// A lastmod the query gives as text in another form: a malformed date.
TEST_F(CheckIntegration, AMalformedLastmodIsAFinding) {
  const std::string sql = Edited("sql/sample-sitemap-ads.sql", "LEAST(l.updated, :now)                    AS lastmod",
                                 "DATE_FORMAT(l.updated, '%d.%m.%Y') AS lastmod", ".sql");
  const std::string tmpl = Edited("templates/sitemap.xml", "<lastmod feed:if=\"lastmod|rfc3339\">{lastmod|rfc3339}",
                                  "<lastmod feed:if=\"lastmod\">{lastmod}", ".xml");
  CheckRun r = Check(testing::WriteConfig("[set sitemap]\npath = /sitemap.xml\ntemplate = "
                                          "@ROOT@/templates/sitemap-index.xml\nsections = ads\n"
                                          "publish_url = http://doska.example/feeds\n[feed ads]\ntemplate = " +
                                          tmpl + "\nquery = " + sql + "\nkeyset = id\n"),
                     "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("Element 'lastmod': '"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; write <lastmod> as a W3C date"), std::string::npos) << r.out;
}

// An RSS template that uses the atom: prefix without declaring it: the
// output is not well-formed XML with namespaces.
TEST_F(CheckIntegration, OutputThatIsNotWellFormedIsAFinding) {
  const std::string tmpl = Edited("templates/rss.xml", "xmlns:atom=\"http://www.w3.org/2005/Atom\"", "", ".xml");
  CheckRun r =
      Check(testing::WriteConfig("[feed rss]\npath = /rss\ntemplate = " + tmpl +
                                 "\nquery = @ROOT@/sql/sample-recent-ads.sql\norder = desc\n"
                                 "keyset = published id_key\nmax_items = 50\nvalue.self = http://x.example/rss\n"),
            "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(tmpl + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[feed rss]: its sample (50 rows rendered) breaks its format's rules: not well-formed XML: "
                       "Namespace prefix atom on link is not defined"),
            std::string::npos)
      << r.out;
}

// A missing [site] key, a missing table: findings at the file's own line,
// in the same form as the others (the first stops the program at start).
TEST_F(CheckIntegration, AMissingSiteKeyAndAMissingTableAreFindingsAtTheirLine) {
  const std::string config = BrokenYads("CONCAT(:site_url, '/ad/'", "CONCAT(:site_home, '/ad/'");
  const int line = LineOf("sql/sample-yads.sql", "CONCAT(:site_url, '/ad/'");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(".sql:" + std::to_string(line) + ": the config's [site] has no key 'home' (the query uses "
                       ":site_home; add home = ... to [site]); fix it"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(": 0 feeds, 0 rows read: 1 errors, 0 warnings"), std::string::npos) << r.out;
  CheckRun json = Check(config, "--json");
  EXPECT_EQ(json.status, 1) << json.out;
  EXPECT_EQ(json.out.rfind("{\"feeds\": 0, \"rows\": 0, \"errors\": 1, \"findings\": [{\"severity\": \"error\"", 0), 0u)
      << json.out;

  const std::string table = BrokenYads("LEFT JOIN region r", "LEFT JOIN regions r");
  CheckRun t = Check(table, "");
  EXPECT_EQ(t.status, 1) << t.out;
  EXPECT_NE(t.out.find(".sql:" + std::to_string(LineOf("sql/sample-yads.sql", "LEFT JOIN region r")) +
                       ": the database refuses the query: Table '" + Env("FEED_TEST_DB") + ".regions' doesn't exist"),
            std::string::npos)
      << t.out;
}

// The rows each template rule leaves out: counted by rule, with the first
// ids in keyset order, as warnings. Here the sitemap's loc is no URL for
// the ads whose id is 1 modulo 97 (the test's own statement of which).
TEST_F(CheckIntegration, RowsATemplateRuleLeavesOutAreCountedWithTheirFirstIds) {
  const std::string sql = Edited("sql/sample-sitemap-ads.sql", "CONCAT(:site_url, '/ad/', l.ref, '.html') AS loc",
                                 "IF(l.id % 97 = 1, 'no url', CONCAT(:site_url, '/ad/', l.ref, '.html')) AS loc",
                                 ".sql");
  CheckRun r = Check(testing::WriteConfig("[set sitemap]\npath = /sitemap.xml\ntemplate = "
                                          "@ROOT@/templates/sitemap-index.xml\nsections = ads\n"
                                          "publish_url = http://doska.example/feeds\n[feed ads]\n"
                                          "template = @ROOT@/templates/sitemap.xml\nquery = " +
                                          sql + "\nkeyset = id\nlastmod = lastmod\n"),
                     "");
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string rows = testing::Mariadb("SELECT COUNT(*) FROM listing WHERE status = 'active'");
  const std::string ids = testing::Mariadb(
      "SELECT COUNT(*), GROUP_CONCAT(id ORDER BY id SEPARATOR ', ') FROM "
      "(SELECT id FROM listing WHERE status = 'active' AND id % 97 = 1 ORDER BY id) t");
  // "N\tid, id, ..." : the count, then every id; the finding shows the first 5.
  const size_t tab = ids.find('\t');
  ASSERT_NE(tab, std::string::npos) << ids;
  const int n = std::stoi(ids.substr(0, tab));
  ASSERT_GT(n, 5) << ids;
  std::string first;
  std::istringstream list(ids.substr(tab + 1));
  for (int i = 0; i < 5; ++i) {
    std::string id;
    std::getline(list, id, ',');
    first += (i ? ", " : "") + id.substr(id.find_first_not_of(' '));
  }
  const std::string want = "warning: [feed ads]: " + std::to_string(n) + " of " + rows.substr(0, rows.find('\n')) +
                           " rows read break loc:url and are left out (" + first + " and " + std::to_string(n - 5) +
                           " more)";
  EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

// The index of a set is rendered too: an index template that writes the
// parts' lastmod as the database gives it ("2026-11-28 10:00:00") breaks
// siteindex.xsd.
TEST_F(CheckIntegration, AnInvalidSitemapIndexIsAFinding) {
  const std::string tmpl = Edited("templates/sitemap-index.xml", "{lastmod|rfc3339}", "{lastmod}", ".xml");
  CheckRun r =
      Check(testing::WriteConfig("[set sitemap]\npath = /sitemap.xml\ntemplate = " + tmpl +
                                 "\nsections = ads\npublish_url = http://doska.example/feeds\n"
                                 "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\n"
                                 "query = @ROOT@/sql/sample-sitemap-ads.sql\nkeyset = id\nlastmod = lastmod\n"),
            "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(tmpl + ":" + std::to_string(LineOf("templates/sitemap-index.xml", "<lastmod")) +
                       ": [set sitemap] index: its sample (1 rows rendered) breaks its format's rules: not valid "
                       "against the sitemaps.org siteindex.xsd: Element 'lastmod': "),
            std::string::npos)
      << r.out;
}

// An MSN feed is rendered as if its first items were new, and its item
// state is left alone: a template that uses dcterms: without declaring it
// is a finding, and no item was recorded.
TEST_F(CheckIntegration, AnMsnFeedsSampleIsCheckedWithoutTouchingItsItemState) {
  const std::string kItemState =
      "SELECT (SELECT CONCAT(COUNT(*), ' ', COALESCE(SUM(item_id + modified), 0)) FROM feed_item_state), "
      "(SELECT CONCAT(COUNT(*), ' ', COALESCE(SUM(synced), 0)) FROM feed_item_sync)";
  const std::string tmpl = Edited("templates/msn.xml", " xmlns:dcterms=\"http://purl.org/dc/terms/\"", "", ".xml");
  const std::string before = testing::Mariadb(kItemState);
  const std::string msn =
      "[feed msn]\npath = /msn\nquery = @ROOT@/sql/sample-msn.sql\nlifecycle = msn\nkeyset = id\n"
      "guid_prefix = ad-\nvalue.self = http://x.example/msn\ntemplate = ";
  CheckRun r = Check(testing::WriteConfig(msn + tmpl + "\n"), "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("[feed msn]: its sample (50 rows rendered) breaks its format's rules: not well-formed XML: "
                       "Namespace prefix dcterms on modified is not defined"),
            std::string::npos)
      << r.out;
  CheckRun fine = Check(testing::WriteConfig(msn + "@ROOT@/templates/msn.xml\n"), "");
  EXPECT_EQ(fine.status, 0) << fine.out;
  EXPECT_EQ(testing::Mariadb(kItemState), before);
}

// A text sitemap whose query gives paths, not URLs, and whose template
// does not require a URL.
TEST_F(CheckIntegration, ATextSitemapLineThatIsNotAnAbsoluteUrlIsAFinding) {
  const std::string sql = Edited("sql/sample-sitemap-ads.sql", "CONCAT(:site_url, '/ad/', l.ref, '.html')",
                                 "CONCAT('/ad/', l.ref, '.html')", ".sql");
  const std::string tmpl = Edited("templates/sitemap-text.xml", " feed:require=\"loc:url\"", "", ".xml");
  CheckRun r = Check(testing::WriteConfig("[set urls]\npath = /urls.txt\nsections = ad-urls\n"
                                          "publish_url = http://doska.example/feeds\n[feed ad-urls]\ntemplate = " +
                                          tmpl + "\nquery = " + sql + "\nformat = text\nkeyset = id\n"),
                     "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("[feed ad-urls]: its sample (50 rows rendered) breaks the text sitemap rules: '/ad/"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("' is not an absolute http(s) URL of at most 2,048 characters, percent-encoded (line 1 of the "
                       "sample); write one absolute http(s) URL per line"),
            std::string::npos)
      << r.out;
}

// Every feed of the shipped sample config (Yads, Jooble, sitemaps, text,
// RSS, Atom, Baidu with its child rows, MSN with its engine fields).
TEST_F(CheckIntegration, TheShippedSampleConfigHasNoError) {
  const std::string out = testing::WriteSampleConfig() + ".check";
  const int rc = testing::Shell("FEED_DB_SOCKET='" + Env("FEED_TEST_SOCKET") + "' FEED_DB_NAME='" + Env("FEED_TEST_DB") +
                                "' FEED_DB_USER=feed FEED_DB_PASSWORD=feed FEED_SECRET=check-test-secret-0123456789abcdef "
                                "'" + Env("FEED_TEST_BIN") + "' --config '" + Env("FEED_TEST_ROOT") +
                                "/conf/sample-board.ini' check >'" + out + "' 2>&1");
  const std::string text = Slurp(out);
  unlink(out.c_str());
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find(": 0 errors"), std::string::npos) << text;
  size_t feeds = 0;
  std::istringstream conf(Slurp(Env("FEED_TEST_ROOT") + "/conf/sample-board.ini"));
  // A feed's full-dump walk (query_full) is checked as a feed of its own.
  for (std::string line; std::getline(conf, line);) {
    feeds += line.rfind("[feed ", 0) == 0 || line.rfind("query_full ", 0) == 0;
  }
  EXPECT_NE(text.find(": " + std::to_string(feeds) + " feeds, "), std::string::npos) << feeds << " feeds?\n" << text;
}

// What check cannot see, it says: hand_off = x-sendfile works only where
// the web server takes X-Sendfile (issue #21: on a shared host without
// mod_xsendfile every large feed is a 200 with an empty body), and
// database timeouts that let a request outwait mod_fcgid's 40 s. Both are
// warnings: the config is not wrong, only perhaps wrong for this host.
TEST_F(CheckIntegration, HandOffXSendfileAndLongTimeoutsAreWarnedAbout) {
  const std::string feed =
      "[feed y]\npath = /y\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "keyset = id\nlastmod = lastmod\nmax_items = 10\n";
  const std::string spool = testing::TempDir("check-spool");
  CheckRun none = Check(testing::WriteConfig("[server]\nhand_off = none\nspool_dir = " + spool + "\n" + feed), "");
  EXPECT_EQ(none.status, 0) << none.out;
  EXPECT_EQ(none.out.find("hand_off"), std::string::npos) << none.out;
  EXPECT_EQ(none.out.find("FcgidIOTimeout"), std::string::npos) << none.out;
  EXPECT_NE(none.out.find(": 0 errors, 0 warnings"), std::string::npos) << none.out;

  std::string text = Slurp(testing::WriteConfig("[server]\nhand_off = x-sendfile\nspool_dir = " + spool + "\n" + feed));
  text.replace(text.find("[database]\n"), 11, "[database]\nconnect_timeout = 5\nread_timeout = 15\n");
  const std::string config = testing::WriteConfig("") + ".ini";
  std::ofstream(config) << text;
  CheckRun x = Check(config, "");
  unlink(config.c_str());
  EXPECT_EQ(x.status, 0) << "warnings only: " << x.out;
  EXPECT_NE(x.out.find("[server] hand_off: warning: hand_off = x-sendfile names every body over spool_memory to the web "
                       "server in an X-Sendfile header instead of sending it: that needs Apache's mod_xsendfile "
                       "(XSendFile On, XSendFilePath covering spool_dir " +
                       spool + "; nginx takes X-Accel-Redirect, not X-Sendfile); without it every large feed is a "
                               "200 with an empty body; keep hand_off = none unless"),
            std::string::npos)
      << x.out;
  // 2 x (5 + 15) + 5 s of lock wait.
  EXPECT_NE(x.out.find("[database]: warning: a request may wait 45 s on the database"), std::string::npos) << x.out;
  EXPECT_NE(x.out.find("FcgidIOTimeout (40 s by default) answers 500 first"), std::string::npos) << x.out;
  EXPECT_NE(x.out.find(": 0 errors, 2 warnings"), std::string::npos) << x.out;
  std::filesystem::remove_all(spool);
}

TEST_F(CheckIntegration, AJoinThatRepeatsRowsIsNamedWithItsKeys) {
  const std::string config = BrokenYads("LEFT JOIN region r ON r.region_id = l.region_id",
                                        "LEFT JOIN region r ON r.region_id = l.region_id "
                                        "JOIN (SELECT 'ru' AS lang UNION ALL SELECT 'en') langs");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("rows repeat the keyset of the row before (added, id_key = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a join repeats rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".sql: "), std::string::npos) << "the finding names the query file: " << r.out;
}

TEST_F(CheckIntegration, AWrongTieBreakLosesRowsAtChunkEdgesAndDeepFindsThem) {
  const std::string config =
      BrokenYads("AND (l.added > :after_added OR l.id > :after_id_key)", "AND l.id > :after_id_key");
  CheckRun quick = Check(config, "");
  EXPECT_EQ(quick.status, 0) << "a sample read cannot see it: " << quick.out;
  CheckRun deep = Check(config, "--deep");
  EXPECT_EQ(deep.status, 1) << deep.out;
  EXPECT_NE(deep.out.find("rows are never sent (added, id_key = "), std::string::npos) << deep.out;
  EXPECT_NE(deep.out.find("(a > :after_a OR (a = :after_a AND b > :after_b))"), std::string::npos) << deep.out;
}

TEST_F(CheckIntegration, RowsOutOfOrderAreNamed) {
  const std::string config = BrokenYads("ORDER BY l.added, l.id", "ORDER BY l.id");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("rows come before the row before"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ORDER BY the keyset fields (added, id_key)"), std::string::npos) << r.out;
}

TEST_F(CheckIntegration, ASyntaxErrorIsAFindingAtItsLineAndJsonSaysTheSame) {
  const std::string config = BrokenYads("  FROM listing l", "  FORM listing l");
  CheckRun r = Check(config, "--json");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.rfind("{\"feeds\": ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"severity\": \"error\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the database refuses the query"), std::string::npos) << r.out;
  CheckRun text = Check(config, "");
  EXPECT_NE(text.out.find(".sql:20: the database refuses the query"), std::string::npos) << text.out;
  EXPECT_EQ(Check(config, "--loud").status, 2);
}

}  // namespace
}  // namespace feed
