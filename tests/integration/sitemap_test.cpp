// Sitemaps against the real database: static sets split at their limits,
// live parts that stay exact while rows come and go, the atomic swap, and
// the URLs. Parts and indexes are checked against the sitemaps.org XSDs
// (../shared/schemas, the one place the tests read ../shared) with xmllint.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <tinyxml2.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "app.h"
#include "clock.h"
#include "datetime.h"
#include "error.h"
#include "output.h"
#include "state.h"
#include "test_env.h"
#include "gzip_reference.h"

namespace feed {
namespace {

using testing::Env;
using testing::Slurp;

std::string TempDir() { return testing::TempDir("sitemap"); }

// xmllint against the project's copy of a sitemaps.org schema; true when
// valid.
bool ValidAgainst(const std::string& file, const char* xsd) {
  const std::string schema = Env("FEED_TEST_ROOT") + "/schemas/" + xsd;
  return testing::Shell("xmllint --noout --schema '" + schema + "' '" + file + "' 2>/dev/null") == 0;
}

struct Url {
  std::string loc, lastmod;
};

// The <url> (or <sitemap>) entries of a document.
std::vector<Url> Entries(const std::string& xml, const char* entry) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(xml.data(), xml.size()), tinyxml2::XML_SUCCESS) << xml.substr(0, 300);
  std::vector<Url> out;
  if (!doc.RootElement()) return out;
  for (auto* u = doc.RootElement()->FirstChildElement(entry); u; u = u->NextSiblingElement(entry)) {
    Url x;
    if (auto* l = u->FirstChildElement("loc")) x.loc = l->GetText() ? l->GetText() : "";
    if (auto* l = u->FirstChildElement("lastmod")) x.lastmod = l->GetText() ? l->GetText() : "";
    out.push_back(x);
  }
  return out;
}

std::string Name(const std::string& loc) { return loc.substr(loc.rfind('/') + 1); }

// The active ads as the board has them: URL -> their lastmod, the updated
// time (site time, Kiev) as a W3C datetime with the offset in force, read
// by GNU date (testing::KievDates), not by the program's time zone.
std::map<std::string, std::string> ActiveAds() {
  const auto rows = testing::Table(
      "SELECT CONCAT('http://doska.example/ad/', ref, '.html'), updated FROM listing WHERE status = 'active'");
  std::vector<std::string> local;
  for (const auto& r : rows) local.push_back(r[1]);
  const std::vector<std::string> w3c = testing::KievDates(local, "%Y-%m-%dT%H:%M:%S%:z");
  std::map<std::string, std::string> ads;
  for (size_t i = 0; i < rows.size(); ++i) ads[rows[i][0]] = w3c[i];
  return ads;
}

std::string SetConfig(const std::string& ads_extra, const std::string& set_extra = "") {
  return testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = ads\n"
      "publish_url = http://doska.example/maps\n" +
      set_extra +
      "[feed ads]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "state_query = @ROOT@/sql/sample-sitemap-ads-state.sql\nkeyset = id\nlastmod = lastmod\nfetch_rows = 97\n" +
      ads_extra);
}

class SitemapIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 200); }
  void SetUp() override { testing::Mariadb("DELETE FROM feed_part_plan"); }
};

// The files of a static write, checked: every part valid and within its
// limits, the index valid and listing them all; returns URL -> lastmod.
std::map<std::string, std::string> CheckStaticSet(const std::string& dir, size_t max_items, size_t max_bytes,
                                                  std::vector<std::string>* part_names = nullptr) {
  std::map<std::string, std::string> seen;
  const std::string index = Slurp(dir + "/sitemap.xml");
  EXPECT_TRUE(ValidAgainst(dir + "/sitemap.xml", "siteindex.xsd")) << index.substr(0, 500);
  for (const Url& part : Entries(index, "sitemap")) {
    EXPECT_EQ(part.loc.rfind("http://doska.example/maps/sitemap-ads-", 0), 0u) << part.loc;
    const std::string file = dir + "/" + Name(part.loc);
    const std::string xml = Slurp(file);
    EXPECT_LE(xml.size(), max_bytes) << file;
    EXPECT_TRUE(ValidAgainst(file, "sitemap.xsd")) << file;
    std::vector<Url> urls = Entries(xml, "url");
    EXPECT_LE(urls.size(), max_items) << file;
    EXPECT_FALSE(urls.empty()) << file;
    std::string newest;
    for (const Url& u : urls) {
      EXPECT_TRUE(seen.emplace(u.loc, u.lastmod).second) << u.loc << " twice";
      newest = std::max(newest, u.lastmod);  // same offset within these dates: text order is time order
    }
    EXPECT_EQ(part.lastmod, newest) << "the part's lastmod is its newest row's change";
    if (part_names) part_names->push_back(Name(part.loc));
  }
  return seen;
}

TEST_F(SitemapIntegration, StaticSetMatchesTheDatabaseAndSplitsExactlyAtTheCountLimit) {
  const std::map<std::string, std::string> ads = ActiveAds();
  ASSERT_GT(ads.size(), 2500u);
  for (size_t max_items : {ads.size(), ads.size() - 1, size_t{700}}) {
    SCOPED_TRACE(max_items);
    App app(LoadConfig(SetConfig("max_items = " + std::to_string(max_items) + "\n")));
    const std::string dir = TempDir() + "/maps";
    WriteReport r = app.WriteSet("/sitemap.xml", dir);
    std::vector<std::string> parts;
    std::map<std::string, std::string> seen = CheckStaticSet(dir, max_items, kMaxXmlPartBytes, &parts);
    EXPECT_EQ(parts.size(), (ads.size() + max_items - 1) / max_items);
    if (max_items == ads.size() - 1) {
      EXPECT_EQ(Entries(Slurp(dir + "/sitemap-ads-2.xml"), "url").size(), 1u) << "one past the limit: one more part";
    }
    ASSERT_EQ(seen.size(), ads.size());
    for (const auto& [loc, lastmod] : ads) {
      auto it = seen.find(loc);
      ASSERT_NE(it, seen.end()) << loc << " missing";
      EXPECT_EQ(it->second, lastmod) << loc;
    }
    EXPECT_EQ(r.rows, ads.size());
    EXPECT_EQ(r.urls, std::vector<std::string>{"http://doska.example/maps/sitemap.xml"});
    std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  }
}

TEST_F(SitemapIntegration, StaticSetSplitsExactlyAtTheByteLimitAndWritesGzipTwins) {
  App whole(LoadConfig(SetConfig("")));
  std::string dir = TempDir() + "/maps";
  whole.WriteSet("/sitemap.xml", dir);
  const size_t size = Slurp(dir + "/sitemap-ads-1.xml").size();
  ASSERT_GT(size, 100000u);
  for (size_t max_bytes : {size, size - 1}) {
    SCOPED_TRACE(max_bytes);
    App app(LoadConfig(SetConfig("max_bytes = " + std::to_string(max_bytes) + "\ngzip_files = 1\n",
                                 "gzip_files = 1\n")));
    app.WriteSet("/sitemap.xml", dir);
    std::vector<std::string> parts;
    CheckStaticSet(dir, kMaxPartItems, max_bytes, &parts);
    EXPECT_EQ(parts.size(), max_bytes == size ? 1u : 2u);
    if (max_bytes == size) {
      EXPECT_EQ(Slurp(dir + "/sitemap-ads-1.xml").size(), size) << "exactly at the limit";
    }
    for (const std::string& p : parts) {
      EXPECT_EQ(testing::ZlibGunzip(Slurp(dir + "/" + p + ".gz")), Slurp(dir + "/" + p)) << p;
    }
    EXPECT_EQ(testing::ZlibGunzip(Slurp(dir + "/sitemap.xml.gz")), Slurp(dir + "/sitemap.xml"));
  }
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// Every file of a directory opened through one handle: the snapshot a
// crawler reading the folder sees. Empty when the folder went away midway.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return files;
  DIR* d = fdopendir(dup(fd));
  std::vector<std::string> names;
  while (dirent* e = d ? readdir(d) : nullptr) {
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  }
  if (d) closedir(d);
  for (const std::string& n : names) {
    int f = openat(fd, n.c_str(), O_RDONLY);
    if (f < 0) {
      files.clear();
      break;
    }
    std::string data;
    char buf[65536];
    ssize_t got;
    while ((got = read(f, buf, sizeof buf)) > 0) data.append(buf, static_cast<size_t>(got));
    close(f);
    files[n] = data;
  }
  // A directory swapped out while it was read is being emptied: what it
  // showed is a retired set's remains, which a reader by path never sees
  // (its lookups go to the directory in place). Left out, as a failed open.
  struct stat read_from {}, in_place {};
  if (fstat(fd, &read_from) != 0 || stat(dir.c_str(), &in_place) != 0 || read_from.st_ino != in_place.st_ino ||
      read_from.st_nlink == 0) {
    files.clear();
  }
  close(fd);
  return files;
}

// The names in the folder that holds `dir`.
std::set<std::string> Beside(const std::string& dir) {
  std::set<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(std::filesystem::path(dir).parent_path())) {
    names.insert(e.path().filename().string());
  }
  return names;
}

TEST_F(SitemapIntegration, StaticWritesSwapInWholeRemoveStalePartsAndAFailedRunLeavesTheOldSet) {
  const std::string dir = TempDir() + "/maps";
  App small(LoadConfig(SetConfig("max_items = 300\n")));
  App large(LoadConfig(SetConfig("max_items = 2000\n")));
  // Each set's file names, known before the reader starts.
  std::set<std::string> small_names, large_names;
  const std::string probe = TempDir() + "/probe";
  large.WriteSet("/sitemap.xml", probe);
  for (const auto& [n, _] : Snapshot(probe)) large_names.insert(n);
  small.WriteSet("/sitemap.xml", dir);
  for (const auto& [n, _] : Snapshot(dir)) small_names.insert(n);
  ASSERT_GT(small_names.size(), 9u);
  ASSERT_EQ(large_names.size(), 3u);

  // A reader keeps taking snapshots while the sets are written over each
  // other: each is one set or the other, whole.
  std::atomic<bool> stop{false};
  std::atomic<int> snapshots{0}, mixed{0}, cut{0};
  std::thread reader([&] {
    while (!stop) {
      auto files = Snapshot(dir);
      if (files.empty()) continue;
      std::set<std::string> names;
      for (const auto& [n, data] : files) {
        names.insert(n);
        if (data.size() < 12 || data.substr(data.size() - 10) != "</urlset>\n") {
          if (data.find("</sitemapindex>") == std::string::npos) ++cut;
        }
      }
      if (names != small_names && names != large_names) ++mixed;
      ++snapshots;
    }
  });
  for (int i = 0; i < 7; ++i) (i % 2 ? small : large).WriteSet("/sitemap.xml", dir);
  stop = true;
  reader.join();
  EXPECT_GT(snapshots.load(), 0);
  EXPECT_EQ(mixed.load(), 0) << "a reader saw a mix of two sets";
  EXPECT_EQ(cut.load(), 0) << "a reader saw a file cut short";
  std::set<std::string> last;
  for (const auto& [n, _] : Snapshot(dir)) last.insert(n);
  EXPECT_EQ(last, large_names) << "the larger parts' set: stale parts of the smaller one are gone";

  // The database stops while a write is under way: the write fails, the
  // set in place is the one before, and nothing is left beside it.
  const auto before = Snapshot(dir);
  bool stopped = false;
  try {
    small.WriteSet("/sitemap.xml", dir, [&](size_t) {
      if (!stopped) {
        stopped = true;
        testing::StopDatabase();
      }
    });
    ADD_FAILURE() << "the write succeeded with the database stopped";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnavailable) << e.what();
  }
  testing::StartDatabase();
  EXPECT_TRUE(stopped);
  EXPECT_EQ(Snapshot(dir), before);
  EXPECT_EQ(Beside(dir), (std::set<std::string>{"maps", "maps.lock"}))
      << "the unfinished set was removed; only the folder's lock file stays beside it";
  EXPECT_EQ(Slurp(dir + ".lock"), "") << "no run holds it";
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

Request Get(const std::string& path) {
  Request r;
  r.path_info = path;
  return r;
}

TEST_F(SitemapIntegration, LivePartsStayExactWhileRowsAreAddedAndDeleted) {
  FixedClock clock(testing::Kiev().ToUnix({2026, 11, 30, 12, 0, 0}));
  App app(LoadConfig(SetConfig("max_items = 400\n", "refresh_seconds = 600\n")), &clock);
  testing::Reply index = testing::Fetch(app, Get("/sitemap.xml"));
  ASSERT_EQ(index.status, 200) << index.body;
  std::vector<Url> parts = Entries(index.body, "sitemap");
  ASSERT_GE(parts.size(), 8u);
  const std::map<std::string, std::string> at_index = ActiveAds();

  // Between the index and the parts: new ads, soft and hard deletes, and a
  // hidden ad shown again.
  testing::Mariadb(
      "INSERT INTO listing (ref, title, body, added, updated, status) "
      "SELECT CONCAT('NEW', id), 'Новое', '', '2026-11-30 12:30:00', '2026-11-30 12:30:00', 'active' "
      "FROM listing ORDER BY id LIMIT 150;"
      "UPDATE listing SET status = 'deleted', updated = '2026-11-30 12:31:00' WHERE id % 17 = 0;"
      "DELETE FROM listing WHERE id % 23 = 0;"
      "UPDATE listing SET status = 'active' WHERE status = 'hidden' AND id % 2 = 0;");
  clock.Advance(3600);  // an hour later, past refresh_seconds: parts still come from the same ranges
  const std::map<std::string, std::string> now = ActiveAds();
  std::map<std::string, std::string> seen;
  for (const Url& p : parts) {
    testing::Reply part = testing::Fetch(app, Get("/" + Name(p.loc)));
    ASSERT_EQ(part.status, 200) << p.loc << part.body;
    EXPECT_LE(part.body.size(), static_cast<size_t>(kMaxXmlPartBytes));
    std::vector<Url> urls = Entries(part.body, "url");
    EXPECT_LE(urls.size(), 400u) << p.loc;
    for (const Url& u : urls) EXPECT_TRUE(seen.emplace(u.loc, u.lastmod).second) << u.loc << " in two parts";
  }
  for (const auto& [loc, _] : at_index) {
    if (now.count(loc)) {
      EXPECT_TRUE(seen.count(loc)) << loc << " qualified at the index and is in no part";
    }
  }
  for (const auto& [loc, _] : seen) EXPECT_TRUE(now.count(loc)) << loc << " is listed but not active";

  // The next index (made after refresh_seconds) lists every active ad.
  testing::Reply again = testing::Fetch(app, Get("/sitemap.xml"));
  std::set<std::string> all;
  for (const Url& p : Entries(again.body, "sitemap")) {
    for (const Url& u : Entries(testing::Fetch(app, Get("/" + Name(p.loc))).body, "url")) all.insert(u.loc);
  }
  EXPECT_EQ(all.size(), now.size());
  for (const Url& p : parts) {
    bool listed = false;
    for (const Url& q : Entries(again.body, "sitemap")) listed = listed || q.loc == p.loc;
    EXPECT_TRUE(listed) << p.loc << ": a part's URL never goes away while it has rows";
  }
}

TEST_F(SitemapIntegration, LivePartsAnswer304AndGzipAndUnknownPartsAre404) {
  testing::Mariadb("DELETE FROM feed_state_seen");
  App app(LoadConfig(SetConfig("max_items = 1000\n")));
  testing::Reply index = testing::Fetch(app, Get("/sitemap.xml"));
  ASSERT_EQ(index.status, 200);
  Request again = Get("/sitemap.xml");
  again.if_none_match = index.headers["ETag"];
  EXPECT_EQ(testing::Fetch(app, again).status, 304);

  testing::Reply part = testing::Fetch(app, Get("/sitemap-ads-2.xml"));
  ASSERT_EQ(part.status, 200);
  ASSERT_FALSE(part.headers["ETag"].empty());
  ASSERT_FALSE(part.headers["Last-Modified"].empty());
  Request cond = Get("/sitemap-ads-2.xml");
  cond.if_none_match = part.headers["ETag"];
  EXPECT_EQ(testing::Fetch(app, cond).status, 304);
  Request since = Get("/sitemap-ads-2.xml");
  since.if_modified_since = part.headers["Last-Modified"];
  EXPECT_EQ(testing::Fetch(app, since).status, 304);
  // A change in that part's range changes its tag; the other parts keep theirs.
  testing::Reply part3 = testing::Fetch(app, Get("/sitemap-ads-3.xml"));
  std::vector<Url> urls = Entries(part.body, "url");
  ASSERT_FALSE(urls.empty());
  const std::string ref = Name(urls[0].loc).substr(0, Name(urls[0].loc).size() - 5);
  testing::Mariadb("DELETE FROM listing WHERE ref = '" + ref + "'");
  EXPECT_EQ(testing::Fetch(app, cond).status, 200);
  // The part's newest change may stay where it was; its Last-Modified
  // moves all the same (or is held back within the same second).
  EXPECT_EQ(testing::Fetch(app, since).status, 200);
  Request cond3 = Get("/sitemap-ads-3.xml");
  cond3.if_none_match = part3.headers["ETag"];
  EXPECT_EQ(testing::Fetch(app, cond3).status, 304);

  testing::Reply gz = testing::Fetch(app, Get("/sitemap-ads-2.xml.gz"));
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(gz.headers["Content-Type"], "application/gzip");
  EXPECT_EQ(gz.headers.count("Content-Encoding"), 0u);
  EXPECT_EQ(Entries(testing::ZlibGunzip(gz.body), "url").size(), urls.size() - 1);
  Request accepts = Get("/sitemap-ads-2.xml");
  accepts.accept_encoding = "gzip";
  testing::Reply negotiated = testing::Fetch(app, accepts);
  EXPECT_EQ(negotiated.headers["Content-Encoding"], "gzip");
  EXPECT_EQ(testing::ZlibGunzip(negotiated.body), testing::ZlibGunzip(gz.body));

  EXPECT_EQ(testing::Fetch(app, Get("/sitemap-ads-99.xml")).status, 404);
  EXPECT_EQ(testing::Fetch(app, Get("/sitemap-jobs-1.xml")).status, 404);
}

TEST_F(SitemapIntegration, UrlsArePercentEncodedEscapedOnceAndOverLongOnesLeftOut) {
  // A mapping whose URLs carry the title: Cyrillic, Chinese, spaces, '&'.
  const std::string sql = "/tmp/feed-sitemap-titles.sql";
  std::ofstream(sql) << "SELECT l.id AS id, CONCAT(:site_url, '/ad/', l.title) AS loc, l.updated AS lastmod,\n"
                        "       NULL AS changefreq, NULL AS priority\n"
                        "  FROM listing l WHERE l.ref LIKE 'URL%' AND l.id > :after_id AND l.id <= :until_id\n"
                        " ORDER BY l.id LIMIT :limit;\n";
  testing::Mariadb(
      "DELETE FROM listing WHERE ref LIKE 'URL%';"
      "INSERT INTO listing (ref, title, body, added, updated) VALUES "
      "('URL1', 'объявление 1', '', '2026-11-01 10:00:00', '2026-11-01 10:00:00'),"
      "('URL2', '中文 a&b', '', '2026-11-01 10:00:00', '2026-11-01 10:00:00'),"
      "('URL3', REPEAT('中', 230), '', '2026-11-01 10:00:00', '2026-11-01 10:00:00');");
  App app(LoadConfig(testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = t\n"
      "publish_url = http://doska.example/maps\n"
      "[feed t]\ntemplate = @ROOT@/templates/sitemap.xml\nquery = " + sql + "\nkeyset = id\nlastmod = lastmod\n")));
  const std::string dir = TempDir() + "/maps";
  WriteReport r = app.WriteSet("/sitemap.xml", dir);
  const std::string xml = Slurp(dir + "/sitemap-t-1.xml");
  EXPECT_NE(xml.find("<loc>http://doska.example/ad/%D0%BE%D0%B1%D1%8A%D1%8F%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5%201</loc>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<loc>http://doska.example/ad/%E4%B8%AD%E6%96%87%20a&amp;b</loc>"), std::string::npos) << xml;
  std::vector<Url> urls = Entries(xml, "url");
  ASSERT_EQ(urls.size(), 2u);
  EXPECT_EQ(urls[1].loc, "http://doska.example/ad/%E4%B8%AD%E6%96%87%20a&b") << "escaped once";
  ASSERT_EQ(r.left_out.skipped, 1u);
  const std::string id3 = testing::Table("SELECT id FROM listing WHERE ref = 'URL3'")[0][0];
  EXPECT_NE(r.left_out.skipped_items[0].find("item " + id3 + ":"), std::string::npos) << r.left_out.skipped_items[0];
  EXPECT_NE(r.left_out.skipped_items[0].find("breaks url"), std::string::npos) << r.left_out.skipped_items[0];
  EXPECT_TRUE(ValidAgainst(dir + "/sitemap-t-1.xml", "sitemap.xsd"));
  testing::Mariadb("DELETE FROM listing WHERE ref LIKE 'URL%'");
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  unlink(sql.c_str());
}

// The by-id templates put the URL together from [site] url, the section's
// value.before_id (percent-encoded) and the row's id; an id that is not
// letters and digits, or longer than 20, is left out and reported.
TEST_F(SitemapIntegration, ByIdTemplatesBuildEachUrlFromTheIdAndLeaveOutUnfitIds) {
  const std::string sql = "/tmp/feed-sitemap-by-id.sql";
  std::ofstream(sql) << "SELECT l.id AS n, l.ref AS id, l.updated AS lastmod\n"
                        "  FROM listing l WHERE l.ref LIKE 'PID%' AND l.id > :after_n AND l.id <= :until_n\n"
                        " ORDER BY l.id LIMIT :limit;\n";
  testing::Mariadb(
      "DELETE FROM listing WHERE ref LIKE 'PID%';"
      "INSERT INTO listing (ref, title, body, added, updated) VALUES "
      "('PID1', '', '', '2026-11-01 10:00:00', '2026-11-01 10:00:00'),"
      "('PID/2', '', '', '2026-11-01 10:00:00', '2026-11-01 10:00:00'),"
      "('PID3', '', '', '2026-11-01 10:00:00', '2026-07-01 10:00:00'),"
      "('PID456789012345678901', '', '', '2026-11-01 10:00:00', '2026-11-01 10:00:00');");
  App app(LoadConfig(testing::WriteConfig(
      "[set sitemap]\npath = /sitemap.xml\ntemplate = @ROOT@/templates/sitemap-index.xml\nsections = t\n"
      "publish_url = http://doska.example/maps\n"
      "[feed t]\ntemplate = @ROOT@/templates/sitemap-by-id.xml\nquery = " + sql + "\nkeyset = n\nlastmod = lastmod\n"
      "value.before_id = /объявление/\nvalue.after_id = .html?a=1&b\n"
      "[set urls]\npath = /urls.txt\nsections = u\npublish_url = http://doska.example/maps\n"
      "[feed u]\ntemplate = @ROOT@/templates/sitemap-text-by-id.xml\nquery = " + sql + "\nformat = text\n"
      "keyset = n\nvalue.before_id = /ad/\nvalue.after_id = .html\n")));
  const std::string dir = TempDir() + "/maps";
  WriteReport r = app.WriteSet("/sitemap.xml", dir);
  const std::string xml = Slurp(dir + "/sitemap-t-1.xml");
  const std::string base = "http://doska.example/%D0%BE%D0%B1%D1%8A%D1%8F%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5/";
  EXPECT_NE(xml.find("<loc>" + base + "PID1.html?a=1&amp;b</loc>\n<lastmod>2026-11-01T10:00:00+02:00</lastmod>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<loc>" + base + "PID3.html?a=1&amp;b</loc>\n<lastmod>2026-07-01T10:00:00+03:00</lastmod>"),
            std::string::npos)
      << xml;
  std::vector<Url> urls = Entries(xml, "url");
  ASSERT_EQ(urls.size(), 2u) << xml;
  EXPECT_EQ(urls[0].loc, base + "PID1.html?a=1&b") << "escaped once";
  EXPECT_TRUE(ValidAgainst(dir + "/sitemap-t-1.xml", "sitemap.xsd"));
  ASSERT_EQ(r.left_out.skipped, 2u);
  EXPECT_NE(r.left_out.skipped_items[0].find("item PID/2: id='PID/2' breaks alnum"), std::string::npos)
      << r.left_out.skipped_items[0];
  EXPECT_NE(r.left_out.skipped_items[1].find("item PID456789012345678901: id='PID456789012345678901' breaks maxlen=20"),
            std::string::npos)
      << r.left_out.skipped_items[1];

  WriteReport text = app.WriteSet("/urls.txt", dir);
  EXPECT_EQ(Slurp(dir + "/urls-1.txt"), "http://doska.example/ad/PID1.html\nhttp://doska.example/ad/PID3.html\n");
  EXPECT_EQ(text.left_out.skipped, 2u);
  testing::Mariadb("DELETE FROM listing WHERE ref LIKE 'PID%'");
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  unlink(sql.c_str());
}

TEST_F(SitemapIntegration, CommandLineWritePrintsEachFileTheSummaryAndRobotsLines) {
  const std::string config = SetConfig("max_items = 1000\n");
  const std::string dir = TempDir() + "/maps", out = dir + ".out";
  const std::string bin = "'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' ";
  ASSERT_EQ(testing::Shell(bin + "write --robots /sitemap.xml '" + dir + "' >'" + out + "' 2>&1"), 0) << Slurp(out);
  const std::string text = Slurp(out);
  const size_t ads = ActiveAds().size();
  for (int n = 1; n <= static_cast<int>((ads + 999) / 1000); ++n) {
    const std::string name = "sitemap-ads-" + std::to_string(n) + ".xml";
    const size_t urls = n * 1000 <= static_cast<int>(ads) ? 1000 : ads % 1000;
    EXPECT_NE(text.find(name + "\t" + std::to_string(urls) + " URLs\t" +
                        std::to_string(Slurp(dir + "/" + name).size()) + " bytes\n"),
              std::string::npos)
        << name << " in:\n" << text;
  }
  EXPECT_NE(text.find(", " + std::to_string(ads) + " URLs, "), std::string::npos) << text;
  EXPECT_NE(text.find("Sitemap: http://doska.example/maps/sitemap.xml\n"), std::string::npos) << text;
  // A path that is no set, and a folder that cannot be made: exit 1, a reason.
  EXPECT_EQ(testing::Shell(bin + "write /yads '" + dir + "' 2>/dev/null >/dev/null"), 1);
  EXPECT_EQ(testing::Shell(bin + "write /sitemap.xml /nonexistent/folder/maps 2>'" + out + "' >/dev/null"), 1);
  EXPECT_NE(Slurp(out).find("cannot create"), std::string::npos) << Slurp(out);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// ---- Runs from cron (issue #21) ---------------------------------------------

// Cron starts a write while the last one still works: the second run finds
// the folder's lock, says so in one line on stderr and exits 0 having
// touched nothing; the first, held here midway (after its second part),
// completes, and the set is whole.
TEST_F(SitemapIntegration, AWriteThatFindsAnotherUnderWayDoesNothingAndExitsZero) {
  const std::string config = SetConfig("max_items = 300\n");
  const std::string dir = TempDir() + "/maps", err = TempDir() + "/second.err";
  const std::string second = "'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' write /sitemap.xml '" + dir +
                             "' >/dev/null 2>'" + err + "'";
  App first(LoadConfig(config));
  int parts = 0, second_rc = -1;
  std::set<std::string> beside_during;
  WriteReport r = first.WriteSet("/sitemap.xml", dir, [&](size_t) {
    if (++parts != 2) return;
    second_rc = testing::Shell(second);
    beside_during = Beside(dir);
  });
  EXPECT_EQ(second_rc, 0);
  EXPECT_EQ(Slurp(err), "feed.fcgi: write /sitemap.xml: another run is writing " + dir + " (pid " +
                            std::to_string(getpid()) + "), nothing done\n");
  EXPECT_EQ(beside_during, (std::set<std::string>{"maps.lock", "maps.new-" + std::to_string(getpid())}))
      << "the second run made nothing; the set is not there yet";
  const size_t ads = ActiveAds().size();
  EXPECT_EQ(r.rows, ads);
  EXPECT_EQ(CheckStaticSet(dir, 300, 52428800).size(), ads) << "the first run's set, whole";
  EXPECT_EQ(Beside(dir), (std::set<std::string>{"maps", "maps.lock"}));
  // With no run under way, the next one writes.
  const auto before = Snapshot(dir);
  EXPECT_EQ(testing::Shell(second), 0) << Slurp(err);
  EXPECT_EQ(Slurp(err), "");
  EXPECT_EQ(Snapshot(dir), before) << "the same board, the same set";
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  std::filesystem::remove_all(std::filesystem::path(err).parent_path());
}

// A write killed with SIGKILL (cron's run killed by the host, the machine
// rebooted...) leaves its lock file and its unfinished folder: neither
// blocks or stays after the next run. The killed run is held while it
// reads the board: its query waits for a lock this test holds.
TEST_F(SitemapIntegration, AWriteKilledMidwayBlocksNoLaterRun) {
  const std::string dir = TempDir() + "/maps", err = dir + ".err", pid_file = dir + ".pid";
  const std::string plain = SetConfig("max_items = 300\n");
  const std::string bin = "'" + Env("FEED_TEST_BIN") + "' --config '";
  ASSERT_EQ(testing::Shell(bin + plain + "' write /sitemap.xml '" + dir + "' >/dev/null 2>'" + err + "'"), 0)
      << Slurp(err);
  const auto old_set = Snapshot(dir);
  // The same set, its query waiting on the lock 'feed-test-hold'.
  std::string sql = Slurp(Env("FEED_TEST_ROOT") + "/sql/sample-sitemap-ads.sql");
  const size_t where = sql.find("   AND l.id > :after_id");
  ASSERT_NE(where, std::string::npos);
  sql.insert(where, "   AND GET_LOCK('feed-test-hold', 9) IS NOT NULL\n");
  const std::string held_sql = dir + ".sql";
  std::ofstream(held_sql) << sql;
  std::string held = Slurp(plain);
  const std::string query_line = "query = " + Env("FEED_TEST_ROOT") + "/sql/sample-sitemap-ads.sql\n";
  ASSERT_NE(held.find(query_line), std::string::npos);
  held.replace(held.find(query_line), query_line.size(), "query = " + held_sql + "\n");
  const std::string held_config = dir + ".ini";
  std::ofstream(held_config) << held;

  App app(LoadConfig(plain));
  auto hold = std::make_unique<NamedLock>(app.database(), "feed-test-hold", 0);
  ASSERT_TRUE(hold->acquired());
  ASSERT_EQ(testing::Shell(bin + held_config + "' write /sitemap.xml '" + dir + "' >/dev/null 2>'" + err + "' & echo $! >'" +
                           pid_file + "'"),
            0);
  const std::string pid = Slurp(pid_file).substr(0, Slurp(pid_file).find('\n'));
  ASSERT_FALSE(pid.empty());
  // Under way: it holds the folder's lock and its query waits for ours.
  const bool waiting = testing::PollUntil([&] {
    return Slurp(dir + ".lock") == pid + "\n" &&
           testing::Table("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%feed-test-hold%' "
                          "AND ID <> CONNECTION_ID()")[0][0] != "0";
  });
  ASSERT_TRUE(waiting) << Slurp(err);
  const std::string busy = bin + plain + "' write /sitemap.xml '" + dir + "' >/dev/null 2>'" + err + "'";
  EXPECT_EQ(testing::Shell(busy), 0);
  EXPECT_EQ(Slurp(err), "feed.fcgi: write /sitemap.xml: another run is writing " + dir + " (pid " + pid +
                            "), nothing done\n");
  EXPECT_TRUE(Beside(dir).count("maps.new-" + pid)) << "the killed run has begun its new set";
  ASSERT_EQ(kill(std::stoi(pid), SIGKILL), 0);
  // Gone (or a zombie nobody reaps): its files are closed, its lock gone.
  EXPECT_TRUE(testing::PollUntil([&] {
    std::ifstream stat("/proc/" + pid + "/stat");
    std::string id, comm, state;
    return !(stat >> id >> comm >> state) || state == "Z";
  }));
  EXPECT_EQ(Snapshot(dir), old_set) << "the killed run left the set in place as it was";
  EXPECT_EQ(Slurp(dir + ".lock"), pid + "\n") << "its lock file stays, with its pid, unlocked";
  hold.reset();
  // The next run is not blocked, and clears what the killed one left.
  EXPECT_EQ(testing::Shell(busy), 0);
  EXPECT_EQ(Slurp(err), "");
  EXPECT_EQ(Beside(dir), (std::set<std::string>{"maps", "maps.err", "maps.ini", "maps.lock", "maps.pid", "maps.sql"}));
  EXPECT_EQ(CheckStaticSet(dir, 300, 52428800).size(), ActiveAds().size());
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// Cron's environment: env -i (no HOME, no TZ, no LANG, PATH /usr/bin:/bin),
// absolute paths on the command line, started in the owner's home, a
// config whose paths are relative to its own folder. The set is written
// as from a shell, and the same whatever TZ the process has.
TEST_F(SitemapIntegration, AWriteFromCronsEmptyEnvironmentInAnotherFolderWritesTheSameSet) {
  const std::string site = TempDir(), root = Env("FEED_TEST_ROOT");
  ASSERT_EQ(testing::Shell("mkdir '" + site + "/home' '" + site + "/conf' && ln -s '" + root + "/templates' '" + site +
                           "/templates' && ln -s '" + root + "/sql' '" + site + "/sql'"),
            0);
  std::ofstream(site + "/conf/feed.ini")
      << "[database]\nsocket = " << Env("FEED_TEST_SOCKET") << "\nuser = feed\npassword = feed\nname = "
      << Env("FEED_TEST_DB")
      << "\n[server]\nspool_dir = ../spool\n[site]\ntime_zone = Europe/Kiev\nurl = http://doska.example\n"
         "[set sitemap]\npath = /sitemap.xml\ntemplate = ../templates/sitemap-index.xml\nsections = ads\n"
         "publish_url = http://doska.example/maps\n"
         "[feed ads]\ntemplate = ../templates/sitemap.xml\nquery = ../sql/sample-sitemap-ads.sql\n"
         "keyset = id\nlastmod = lastmod\nmax_items = 1000\n";
  const std::string cron = "cd '" + site + "/home' && env -i PATH=/usr/bin:/bin '" + Env("FEED_TEST_BIN") +
                           "' --config '" + site + "/conf/feed.ini' write /sitemap.xml ";
  ASSERT_EQ(testing::Shell(cron + "'" + site + "/maps' >'" + site + "/out' 2>&1"), 0) << Slurp(site + "/out");
  const std::map<std::string, std::string> urls = CheckStaticSet(site + "/maps", 1000, 52428800);
  EXPECT_EQ(urls.size(), ActiveAds().size());
  for (const auto& [loc, lastmod] : ActiveAds()) {
    ASSERT_TRUE(urls.count(loc)) << loc;
    EXPECT_EQ(urls.at(loc), lastmod) << "lastmod in the site's zone, not the process's";
  }
  ASSERT_EQ(testing::Shell("cd / && TZ=America/New_York LANG=C " + cron.substr(cron.find("env -i ") + 7) + "'" + site +
                           "/maps2' >'" + site + "/out' 2>&1"),
            0)
      << Slurp(site + "/out");
  EXPECT_EQ(Snapshot(site + "/maps2"), Snapshot(site + "/maps"));
  std::filesystem::remove_all(site);
}

TEST_F(SitemapIntegration, TextSetHasOneUrlALineAndSplitsAtItsLimits) {
  App app(LoadConfig(testing::WriteConfig(
      "[set urls]\npath = /urls.txt\nsections = u\npublish_url = http://doska.example/maps\n"
      "[feed u]\ntemplate = @ROOT@/templates/sitemap-text.xml\nquery = @ROOT@/sql/sample-sitemap-ads.sql\n"
      "format = text\nkeyset = id\nmax_items = 1000\n")));
  const std::string dir = TempDir() + "/maps";
  WriteReport r = app.WriteSet("/urls.txt", dir);
  const std::map<std::string, std::string> ads = ActiveAds();
  std::set<std::string> seen;
  size_t files = 0;
  for (int n = 1; access((dir + "/urls-" + std::to_string(n) + ".txt").c_str(), R_OK) == 0; ++n) {
    ++files;
    std::istringstream in(Slurp(dir + "/urls-" + std::to_string(n) + ".txt"));
    std::string line;
    size_t lines = 0;
    while (std::getline(in, line)) {
      ++lines;
      EXPECT_TRUE(ads.count(line)) << line;
      EXPECT_TRUE(seen.insert(line).second) << line;
    }
    EXPECT_LE(lines, 1000u);
  }
  EXPECT_EQ(files, (ads.size() + 999) / 1000);
  EXPECT_EQ(seen.size(), ads.size());
  EXPECT_EQ(r.urls.size(), files) << "each text part is given to search engines";
  EXPECT_EQ(r.urls[0], "http://doska.example/maps/urls-1.txt");
  testing::Reply live = testing::Fetch(app, Get("/urls-1.txt"));
  EXPECT_EQ(live.status, 200);
  EXPECT_EQ(live.headers["Content-Type"], "text/plain; charset=UTF-8");
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}


// The legacy board of ../shared/board served by conf/legacy-board.ini
// alone: its sitemap set (ads, jobs, documents), its text set, RSS and
// Atom. tests/run.sh loads it when ../shared is there.
TEST(LegacyBoard, SitemapsRssAndAtomFromTheLegacySchemaByConfigurationAlone) {
  std::optional<Config> legacy = testing::LegacyConfig();
  if (!legacy) GTEST_SKIP() << "no legacy board loaded (../shared/board not found)";
  const std::string db = legacy->database.name;
  App app(std::move(*legacy));
  app.CheckDatabase();
  auto count = [&](const std::string& sql) {
    return std::stoul(testing::Table("USE " + std::string(db) + "; " + sql)[0][0]);
  };
  const std::string today = FormatDate(testing::Kiev().FromUnix(Now()));
  const size_t ads = count("SELECT COUNT(*) FROM ads WHERE status = 'active'");
  const size_t jobs = count("SELECT COUNT(*) FROM vacancy WHERE status = 'active' AND (valid_till IS NULL OR "
                            "valid_till >= '" + today + "')");
  const size_t files = count("SELECT COUNT(*) FROM files WHERE status = 'active'");
  ASSERT_GT(ads, 1000u);
  ASSERT_GT(jobs, 100u);
  ASSERT_GT(files, 0u);

  const std::string dir = TempDir() + "/maps";
  WriteReport r = app.WriteSet("/sitemap.xml", dir);
  std::map<std::string, size_t> by_section;
  const std::string index = Slurp(dir + "/sitemap.xml");
  EXPECT_TRUE(ValidAgainst(dir + "/sitemap.xml", "siteindex.xsd"));
  // Every page the board shows, by the URL the board gives it.
  std::set<std::string> want, got;
  for (const auto& row : testing::Table(
           "USE " + db + "; SELECT CONCAT('http://doska.example/ad/', ad_id, '.html') FROM ads WHERE status = "
           "'active' UNION ALL SELECT CONCAT('http://doska.example/vacancy/', vac_id, '.html') FROM vacancy WHERE "
           "status = 'active' AND (valid_till IS NULL OR valid_till >= '" + today + "') UNION ALL SELECT "
           "CONCAT('http://doska.example/file/', file_id, '.html') FROM files WHERE status = 'active'")) {
    want.insert(row[0]);
  }
  for (const Url& part : Entries(index, "sitemap")) {
    EXPECT_EQ(part.loc.rfind("http://doska.example/feeds/sitemap-", 0), 0u) << part.loc;
    const std::string file = dir + "/" + Name(part.loc);
    EXPECT_TRUE(ValidAgainst(file, "sitemap.xsd")) << file;
    EXPECT_EQ(testing::ZlibGunzip(Slurp(file + ".gz")), Slurp(file));
    for (const Url& u : Entries(Slurp(file), "url")) {
      const std::string kind = u.loc.substr(21, u.loc.find('/', 21) - 21);  // after "http://doska.example/"
      ++by_section[kind];
      EXPECT_TRUE(got.insert(u.loc).second) << u.loc;
    }
  }
  EXPECT_EQ(by_section["ad"], ads);
  EXPECT_EQ(by_section["vacancy"], jobs);
  EXPECT_EQ(by_section["file"], files);
  EXPECT_EQ(r.rows, ads + jobs + files);
  EXPECT_TRUE(got == want) << got.size() << " URLs written, " << want.size() << " pages on the board";

  // The text set lists the same pages as the XML set: an owner who
  // submits it loses no job or file page.
  WriteReport text = app.WriteSet("/urls.txt", dir);
  EXPECT_EQ(text.rows, ads + jobs + files);
  ASSERT_EQ(text.urls.size(), 3u);
  EXPECT_EQ(text.urls[0], "http://doska.example/feeds/urls-ad-urls-1.txt");
  EXPECT_EQ(text.urls[1], "http://doska.example/feeds/urls-job-urls-1.txt");
  EXPECT_EQ(text.urls[2], "http://doska.example/feeds/urls-file-urls-1.txt");
  std::set<std::string> lines;
  for (const std::string& url : text.urls) {
    std::istringstream in(Slurp(dir + "/" + Name(url)));
    for (std::string line; std::getline(in, line);) EXPECT_TRUE(lines.insert(line).second) << line;
  }
  EXPECT_TRUE(lines == want) << lines.size() << " lines in the text set, " << want.size() << " pages on the board";

  for (const char* path : {"/rss", "/atom"}) {
    Request req;
    req.path_info = path;
    testing::Reply feed = testing::Fetch(app, req);
    ASSERT_EQ(feed.status, 200) << path << feed.body;
    tinyxml2::XMLDocument doc;
    ASSERT_EQ(doc.Parse(feed.body.data(), feed.body.size()), tinyxml2::XML_SUCCESS) << path;
    size_t items = 0;
    for (size_t at = 0; (at = feed.body.find(path == std::string("/rss") ? "<item>" : "<entry>", at)) !=
                        std::string::npos;
         ++at) {
      ++items;
    }
    EXPECT_EQ(items, 50u) << path;
    // Cyrillic from the cp1251 table arrives as UTF-8 text.
    EXPECT_NE(feed.body.find("\xD0"), std::string::npos) << path;
  }
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

}  // namespace
}  // namespace feed
