// End to end: the real feed.fcgi under Apache mod_fcgid, over HTTP on
// loopback. Headers, gzip, 304, HEAD, 405, paging to the end, and a table of
// malformed requests that each get their 4xx while the FastCGI process
// stays up.
#include <arpa/inet.h>
#include <dirent.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <tinyxml2.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "output.h"
#include "http_client.h"
#include "test_env.h"
#include "xml_text.h"
#include "gzip_reference.h"

namespace feed {
namespace {

using testing::Env;
using testing::Http;
using testing::HttpReply;

// The pids of the running feed.fcgi processes.
std::set<int> FeedProcesses() {
  std::set<int> pids;
  DIR* d = opendir("/proc");
  while (dirent* e = readdir(d)) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream comm("/proc/" + std::string(e->d_name) + "/comm");
    std::string name;
    if (std::getline(comm, name) && name == "feed.fcgi") pids.insert(pid);
  }
  closedir(d);
  return pids;
}

std::string WithoutCatalogDate(std::string body) {
  size_t at = body.find("date=\"");
  if (at != std::string::npos) body.erase(at, 6 + 19);
  return body;
}

class HttpE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 200, 1, 400); }
};

// The sample board's sitemaps through Apache: the index, each part, the
// .gz parts, gzip negotiation and 304.
TEST_F(HttpE2e, SitemapIndexPartsGzipAnd304) {
  testing::Mariadb("DELETE FROM feed_part_plan");
  HttpReply index = Http("GET", "/sitemap.xml");
  ASSERT_EQ(index.status, 200) << index.body;
  EXPECT_EQ(index.headers["content-type"], "text/xml; charset=UTF-8");
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(index.body.data(), index.body.size()), tinyxml2::XML_SUCCESS);
  EXPECT_STREQ(doc.RootElement()->Name(), "sitemapindex");
  std::vector<std::string> parts;
  for (auto* s = doc.RootElement()->FirstChildElement("sitemap"); s; s = s->NextSiblingElement("sitemap")) {
    std::string loc = s->FirstChildElement("loc")->GetText();
    parts.push_back(loc.substr(loc.rfind('/')));
    ASSERT_NE(s->FirstChildElement("lastmod"), nullptr);
  }
  ASSERT_EQ(parts.size(), 3u) << "the ads, the jobs and the documents (one part each)";
  EXPECT_EQ(parts[0], "/sitemap-ads-1.xml");
  EXPECT_EQ(parts[1], "/sitemap-jobs-1.xml");
  EXPECT_EQ(parts[2], "/sitemap-docs-1.xml");
  size_t active = std::stoul(testing::Mariadb("SELECT COUNT(*) FROM listing WHERE status = 'active'"));
  HttpReply ads = Http("GET", parts[0]);
  ASSERT_EQ(ads.status, 200);
  size_t urls = 0;
  for (size_t at = 0; (at = ads.body.find("<url>", at)) != std::string::npos; ++at) ++urls;
  EXPECT_EQ(urls, active);
  EXPECT_EQ(ads.body.substr(ads.body.size() - 10), "</urlset>\n");
  // The sections' changefreq and priority come from their config values.
  size_t weekly = 0;
  for (size_t at = 0; (at = ads.body.find("</loc>\n<lastmod>", at)) != std::string::npos; ++at) {
    size_t end = ads.body.find("</url>", at);
    if (ads.body.substr(at, end - at).find("<changefreq>weekly</changefreq>") != std::string::npos) ++weekly;
  }
  EXPECT_EQ(weekly, active);
  EXPECT_EQ(ads.body.find("<priority>"), std::string::npos);
  HttpReply jobs = Http("GET", parts[1]);
  EXPECT_NE(jobs.body.find("<priority>0.8</priority>\n</url>"), std::string::npos) << jobs.body.substr(0, 400);
  EXPECT_EQ(jobs.body.find("<changefreq>"), std::string::npos);

  HttpReply gz = Http("GET", parts[0] + ".gz");
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(gz.headers["content-type"], "application/gzip");
  EXPECT_EQ(testing::ZlibGunzip(gz.body), ads.body);
  HttpReply negotiated = Http("GET", parts[0], {"Accept-Encoding: gzip"});
  EXPECT_EQ(negotiated.headers["content-encoding"], "gzip");
  EXPECT_EQ(negotiated.headers["vary"], "Accept-Encoding");
  EXPECT_EQ(testing::ZlibGunzip(negotiated.body), ads.body);
  HttpReply index_gz = Http("GET", "/sitemap.xml.gz");
  EXPECT_EQ(testing::ZlibGunzip(index_gz.body), index.body);

  HttpReply not_modified = Http("GET", parts[0], {"If-None-Match: " + ads.headers["etag"]});
  EXPECT_EQ(not_modified.status, 304);
  EXPECT_TRUE(not_modified.body.empty());
  EXPECT_EQ(Http("GET", "/sitemap.xml", {"If-None-Match: " + index.headers["etag"]}).status, 304);
  EXPECT_EQ(Http("GET", "/sitemap.xml", {"If-Modified-Since: " + index.headers["last-modified"]}).status, 304);
  EXPECT_EQ(Http("GET", "/sitemap-ads-2.xml").status, 404);
  // The text set lists the same pages as the XML set, from the same
  // queries: each section's part line for line the <loc>s of its XML part.
  for (const auto& [xml, txt] : std::vector<std::pair<std::string, std::string>>{
           {parts[0], "/urls-ad-urls-1.txt"}, {parts[1], "/urls-job-urls-1.txt"}, {parts[2], "/urls-doc-urls-1.txt"}}) {
    HttpReply text = Http("GET", txt);
    EXPECT_EQ(text.status, 200) << txt;
    const std::string body = Http("GET", xml).body;
    tinyxml2::XMLDocument part;
    ASSERT_EQ(part.Parse(body.data(), body.size()), tinyxml2::XML_SUCCESS) << xml;
    std::string locs;
    for (auto* u = part.RootElement()->FirstChildElement("url"); u; u = u->NextSiblingElement("url")) {
      locs += std::string(u->FirstChildElement("loc")->GetText()) + "\n";
    }
    EXPECT_FALSE(locs.empty()) << xml;
    EXPECT_EQ(text.body, locs) << txt;
  }
  EXPECT_EQ(Http("GET", "/urls-1.txt").status, 404) << "three sections: each part is named after its own";
}

// Baidu's document sitemap through Apache: the index, its part (plain,
// .gz, negotiated), every listable document once, 304, and a new comment
// changing the part's tag.
TEST_F(HttpE2e, BaiduIndexPartsGzipAnd304) {
  testing::Mariadb("DELETE FROM feed_part_plan");
  HttpReply index = Http("GET", "/baidu.xml");
  ASSERT_EQ(index.status, 200) << index.body;
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(index.body.data(), index.body.size()), tinyxml2::XML_SUCCESS);
  EXPECT_STREQ(doc.RootElement()->Name(), "sitemapindex");
  auto* s = doc.RootElement()->FirstChildElement("sitemap");
  ASSERT_NE(s, nullptr);
  const std::string loc = s->FirstChildElement("loc")->GetText();
  EXPECT_EQ(s->NextSiblingElement("sitemap"), nullptr) << "400 documents: one part";
  const std::string part = loc.substr(loc.rfind('/'));
  EXPECT_EQ(part, "/baidu-documents-1.xml");
  HttpReply docs = Http("GET", part);
  ASSERT_EQ(docs.status, 200);
  EXPECT_EQ(docs.headers["content-type"], "text/xml; charset=UTF-8");
  tinyxml2::XMLDocument parsed;
  ASSERT_EQ(parsed.Parse(docs.body.data(), docs.body.size()), tinyxml2::XML_SUCCESS);
  std::set<std::string> locs;
  for (auto* u = parsed.RootElement()->FirstChildElement("url"); u; u = u->NextSiblingElement("url")) {
    EXPECT_TRUE(locs.insert(u->FirstChildElement("loc")->GetText()).second);
    ASSERT_NE(u->FirstChildElement("data"), nullptr);
    auto* display = u->FirstChildElement("data")->FirstChildElement("display");
    ASSERT_NE(display, nullptr);
    for (const char* required : {"breadcrumb", "name", "filetype", "fileSize", "downloadUrl"}) {
      EXPECT_NE(display->FirstChildElement(required), nullptr) << required;
    }
  }
  // Listable: active, with a breadcrumb and a download (its own or a mirror).
  const size_t listable = std::stoul(testing::Mariadb(
      "SELECT COUNT(*) FROM document WHERE status = 'active' AND TRIM(category) <> '' AND (stored = 1 OR mirrors <> '')"));
  EXPECT_EQ(locs.size(), listable);
  EXPECT_EQ(testing::ZlibGunzip(Http("GET", part + ".gz").body), docs.body);
  HttpReply negotiated = Http("GET", part, {"Accept-Encoding: gzip"});
  EXPECT_EQ(negotiated.headers["content-encoding"], "gzip");
  EXPECT_EQ(testing::ZlibGunzip(negotiated.body), docs.body);
  EXPECT_EQ(Http("GET", part, {"If-None-Match: " + docs.headers["etag"]}).status, 304);
  // A new comment is a change of its document's part.
  testing::Mariadb("INSERT INTO document_comment (document_id, member_id, body, created) "
                   "SELECT MIN(id), 1, '新评论', '2026-11-30 12:00:00' FROM document WHERE status = 'active' "
                   "AND TRIM(category) <> '' AND stored = 1");
  HttpReply after = Http("GET", part, {"If-None-Match: " + docs.headers["etag"]});
  EXPECT_EQ(after.status, 200);
  EXPECT_NE(after.body.find("<commentText>新评论</commentText>"), std::string::npos);
  EXPECT_EQ(Http("GET", "/baidu-documents-2.xml").status, 404);
}

// RSS and Atom through Apache: the newest ads, dates in their forms.
TEST_F(HttpE2e, RssAndAtomListTheNewestAds) {
  for (const char* path : {"/rss", "/atom"}) {
    SCOPED_TRACE(path);
    HttpReply r = Http("GET", path);
    ASSERT_EQ(r.status, 200) << r.body;
    tinyxml2::XMLDocument doc;
    ASSERT_EQ(doc.Parse(r.body.data(), r.body.size()), tinyxml2::XML_SUCCESS);
    const bool rss = std::string(path) == "/rss";
    const tinyxml2::XMLElement* root = rss ? doc.RootElement()->FirstChildElement("channel") : doc.RootElement();
    int items = 0;
    for (auto* i = root->FirstChildElement(rss ? "item" : "entry"); i; i = i->NextSiblingElement(rss ? "item" : "entry")) {
      ++items;
    }
    EXPECT_EQ(items, 50);
    EXPECT_FALSE(r.headers["etag"].empty());
    EXPECT_EQ(Http("GET", path, {"If-None-Match: " + r.headers["etag"]}).status, 304);
  }
}

// The MSN feed through Apache, as shipped in conf/sample-board.ini: the
// first fetch syncs the item state (feed_item_state, written by the
// process Apache started), later ones within settle_seconds reuse it.
TEST_F(HttpE2e, MsnFeedThroughApache) {
  testing::Mariadb("TRUNCATE feed_item_state; TRUNCATE feed_item_sync;");
  HttpReply r = Http("GET", "/msn");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["content-type"], "application/rss+xml; charset=UTF-8");
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(r.body.data(), r.body.size()), tinyxml2::XML_SUCCESS);
  const tinyxml2::XMLElement* channel = doc.RootElement()->FirstChildElement("channel");
  ASSERT_NE(channel, nullptr);
  int items = 0;
  for (auto* i = channel->FirstChildElement("item"); i; i = i->NextSiblingElement("item"), ++items) {
    const char* guid = i->FirstChildElement("guid")->GetText();
    ASSERT_NE(guid, nullptr);
    EXPECT_EQ(std::string(guid).rfind("ad-", 0), 0u);
    EXPECT_NE(i->FirstChildElement("dcterms:modified"), nullptr);
  }
  const int records = std::stoi(testing::Mariadb("SELECT COUNT(*) FROM feed_item_state WHERE feed = 'msn'"));
  EXPECT_EQ(items, std::min(records, 1000)) << "the first fetch lists every item it recorded, capped";
  EXPECT_EQ(Http("GET", "/msn", {"If-None-Match: " + r.headers["etag"]}).status, 304);
  EXPECT_EQ(Http("HEAD", "/msn").status, 200);
}

TEST_F(HttpE2e, GetAnswersWithTheFeedAndItsHeaders) {
  HttpReply r = Http("GET", "/yads?date=2026-10-25+00:00:00");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["content-type"], "text/xml; charset=windows-1251");
  EXPECT_EQ(r.headers["vary"], "Accept-Encoding");
  EXPECT_EQ(r.headers.count("content-encoding"), 0u);
  EXPECT_EQ(r.headers["etag"].rfind("W/\"", 0), 0u) << "weak: each body holds its run's moment";
  EXPECT_NE(r.headers["last-modified"].find(" GMT"), std::string::npos);
  EXPECT_EQ(r.body.rfind("<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<yml_catalog date=\"", 0), 0u);
  std::string utf8 = testing::Cp1251ToUtf8(r.body);
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.Parse(utf8.c_str(), utf8.size()), tinyxml2::XML_SUCCESS);
}

TEST_F(HttpE2e, GzipWhenAcceptedSameDocument) {
  HttpReply plain = Http("GET", "/yads?date=2026-10-25+00:00:00");
  HttpReply gz = Http("GET", "/yads?date=2026-10-25+00:00:00", {"Accept-Encoding: gzip, deflate"});
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(gz.headers["content-encoding"], "gzip");
  EXPECT_EQ(gz.headers["vary"], "Accept-Encoding");
  EXPECT_NE(gz.headers["etag"], plain.headers["etag"]) << "two encodings, two entity tags";
  std::string unzipped = testing::ZlibGunzip(gz.body);
  EXPECT_EQ(WithoutCatalogDate(unzipped), WithoutCatalogDate(plain.body));
  EXPECT_EQ(
      Http("GET", "/yads?date=2026-10-25+00:00:00", {"Accept-Encoding: gzip;q=0"}).headers.count("content-encoding"),
      0u);
}

TEST_F(HttpE2e, ConditionalGetAnswers304WithoutBody) {
  HttpReply r = Http("GET", "/yads?date=2026-10-25+00:00:00");
  ASSERT_EQ(r.status, 200);
  HttpReply a = Http("GET", "/yads?date=2026-10-25+00:00:00", {"If-None-Match: " + r.headers["etag"]});
  EXPECT_EQ(a.status, 304);
  EXPECT_EQ(a.body, "");
  EXPECT_EQ(a.headers["etag"], r.headers["etag"]);
  HttpReply b = Http("GET", "/yads?date=2026-10-25+00:00:00", {"If-Modified-Since: " + r.headers["last-modified"]});
  EXPECT_EQ(b.status, 304);
  EXPECT_EQ(b.body, "");
  // If-None-Match is checked first: a stale tag wins over a fresh date.
  EXPECT_EQ(Http("GET", "/yads?date=2026-10-25+00:00:00",
                 {"If-None-Match: \"stale\"", "If-Modified-Since: " + r.headers["last-modified"]})
                .status,
            200);
  EXPECT_EQ(Http("GET", "/yads?date=2026-10-25+00:00:00", {"If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT"}).status,
            200);
}

TEST_F(HttpE2e, HeadHasTheHeadersAndNoBody) {
  HttpReply get = Http("GET", "/yads?date=2026-10-25+00:00:00");
  HttpReply head = Http("HEAD", "/yads?date=2026-10-25+00:00:00");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.headers["content-type"], get.headers["content-type"]);
  EXPECT_EQ(head.headers["etag"], get.headers["etag"]);
  EXPECT_EQ(head.headers["last-modified"], get.headers["last-modified"]);
}

TEST_F(HttpE2e, OtherMethodsGet405WithAllow) {
  for (const char* m : {"POST", "PUT", "DELETE", "PATCH"}) {
    HttpReply r = Http(m, "/yads");
    EXPECT_EQ(r.status, 405) << m;
    EXPECT_EQ(r.headers["allow"], "GET, HEAD, OPTIONS") << m;
  }
}

TEST_F(HttpE2e, ARobotPagesToTheEndAndGetsEveryAd) {
  std::string count =
      testing::Mariadb("SELECT COUNT(*) FROM listing WHERE status = 'active' AND ref REGEXP '^[A-Za-z0-9]{1,32}$'");
  size_t expected = std::stoul(count);
  size_t ads = 0, pages = 0;
  std::string cont;
  do {
    HttpReply r = Http("GET", "/yads?date=2026-01-01+00:00:00" + (cont.empty() ? "" : "&continue=" + cont),
                       {"Accept-Encoding: gzip"});
    ASSERT_EQ(r.status, 200) << r.body;
    std::string body = testing::ZlibGunzip(r.body);
    ++pages;
    for (size_t at = body.find("<ad>"); at != std::string::npos; at = body.find("<ad>", at + 1)) ++ads;
    size_t c = body.find("<continue>");
    cont = c == std::string::npos ? "" : body.substr(c + 10, body.find("</continue>") - c - 10);
    ASSERT_LT(pages, 100u);
  } while (!cont.empty());
  EXPECT_EQ(ads, expected);
  EXPECT_EQ(pages, 3u) << "1000 a page";
}

TEST_F(HttpE2e, MalformedRequestsGetTheirFourHundredAndTheProcessStaysUp) {
  ASSERT_EQ(Http("GET", "/yads").status, 200);
  std::set<int> before = FeedProcesses();
  ASSERT_FALSE(before.empty());
  // A real token, to misuse.
  HttpReply first = Http("GET", "/yads?date=2026-01-01+00:00:00");
  size_t c = first.body.find("<continue>");
  ASSERT_NE(c, std::string::npos);
  std::string token = first.body.substr(c + 10, first.body.find("</continue>") - c - 10);
  std::string flipped = token;
  flipped[3] = flipped[3] == 'z' ? 'y' : 'z';

  struct Case {
    std::string method, target;
    int status;
  };
  const std::vector<Case> cases = {
      // Dates.
      {"GET", "/yads?date=yesterday", 400},
      {"GET", "/yads?date=", 400},
      {"GET", "/yads?date=2026-13-01+00:00:00", 400},
      {"GET", "/yads?date=2026-02-30+00:00:00", 400},
      {"GET", "/yads?date=2026-02-29+00:00:00", 400},
      {"GET", "/yads?date=2026-01-01+24:00:00", 400},
      {"GET", "/yads?date=2026-01-01+00:60:00", 400},
      {"GET", "/yads?date=2026-01-01+00:00:60", 400},
      {"GET", "/yads?date=2026-01-01T00:00:00", 400},
      {"GET", "/yads?date=2026-01-01", 400},
      {"GET", "/yads?date=26-01-01+00:00:00", 400},
      {"GET", "/yads?date=2026-1-1+0:0:0", 400},
      {"GET", "/yads?date=%2B2026-01-01+00:00:00", 400},
      {"GET", "/yads?date=-2026-01-01+00:00:00", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00+", 400},
      {"GET", "/yads?date=+2026-01-01+00:00:00", 400},
      {"GET", "/yads?date=2026-01-01++00:00:00", 400},
      {"GET", "/yads?date=0000-01-01+00:00:00", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00.5", 400},
      {"GET", "/yads?date=%D0%B2%D1%87%D0%B5%D1%80%D0%B0", 400},
      {"GET", "/yads?date=%EF%BC%92026-01-01+00:00:00", 400},
      // NUL, control characters and invalid UTF-8 in the query.
      {"GET", "/yads?date=2026-01-01+00:00:00%00", 400},
      {"GET", "/yads?date%00=2026-01-01+00:00:00", 400},
      {"GET", "/yads?date=2026-01-01%0A00:00:00", 400},
      {"GET", "/yads?date=%FF%FE", 400},
      {"GET", "/yads?date=%C0%AF", 400},
      {"GET", "/yads?date=%ED%A0%80", 400},
      {"GET", "/yads?x=%E2%82", 400},
      {"GET", "/yads?date=%", 400},
      {"GET", "/yads?date=%G1", 400},
      // Repeated and huge parameters.
      {"GET", "/yads?date=2026-01-01+00:00:00&date=2026-01-01+00:00:00", 400},
      {"GET", "/yads?continue=" + token + "&continue=" + token, 400},
      {"GET", "/yads?date=" + std::string(3000, '1'), 400},
      {"GET", "/yads?junk=" + std::string(2100, 'x'), 400},
      {"GET",
       "/yads?" +
           [] {
             std::string s;
             for (int i = 0; i < 20; ++i) s += "p" + std::to_string(i) + "=1&";
             return s;
           }(),
       400},
      {"GET", "/yads?date=" + std::string(9000, '2'), 414},
      // Forged, altered and misused continue tokens.
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=AAAA", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=" + flipped, 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=" + token + "A", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=" + token.substr(1), 400},
      {"GET", "/yads?date=2026-01-01+00:00:01&continue=" + token, 400},
      {"GET", "/yads?continue=" + token, 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=" + std::string(33, 'a'), 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=12345", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=-1", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=%F0%9F%98%80", 400},
      // SQL text.
      {"GET", "/yads?date=2026-01-01+00:00:00'+OR+'1'='1", 400},
      {"GET", "/yads?date=1;DROP+TABLE+listing;--", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=1+OR+1=1", 400},
      {"GET", "/yads?date=2026-01-01+00:00:00&continue=0)+UNION+SELECT+1--", 400},
      {"GET", "/yads?date=2026-01-01%27%20UNION%20SELECT%20*%20FROM%20mysql.user--%20", 400},
      // Paths.
      {"GET", "/nosuch", 404},
      {"GET", "/", 404},
      {"GET", "", 404},
      {"GET", "/YADS", 404},
      {"GET", "/yads/", 404},
      {"GET", "/yads.xml", 404},
      {"GET", "/yads/extra?date=2026-01-01+00:00:00", 404},
      {"GET", "/%2e%2e/%2e%2e/etc/passwd", 404},
      {"GET", "/..%2f..%2fconf%2fsample-board.ini", 404},
      {"GET", "/yads%00", 404},
      {"GET", "/%D1%8F%D0%B4%D1%81", 404},
      // Methods.
      {"POST", "/yads?date=2026-01-01+00:00:00", 405},
      {"PUT", "/yads", 405},
      {"DELETE", "/yads", 405},
      {"TRACE", "/yads", 405},
  };
  ASSERT_GE(cases.size(), 50u);
  for (const Case& k : cases) {
    HttpReply r = Http(k.method, k.target);
    EXPECT_EQ(r.status, k.status) << k.method << " " << k.target.substr(0, 120) << "\n  " << r.body.substr(0, 200);
    if (k.status == 400) {
      EXPECT_EQ(r.headers["content-type"], "text/plain; charset=utf-8") << k.target.substr(0, 120);
      EXPECT_EQ(std::count(r.body.begin(), r.body.end(), '\n'), 1) << "one line: " << r.body;
      EXPECT_GT(r.body.size(), 10u);
    }
  }
  // Nothing crashed or was restarted, and the feed still answers.
  std::set<int> after = FeedProcesses();
  for (int pid : before) EXPECT_TRUE(after.count(pid)) << "feed.fcgi pid " << pid << " is gone";
  EXPECT_EQ(Http("GET", "/yads?date=2026-10-25+00:00:00").status, 200);
  // Unknown parameters are ignored, as robots add their own.
  EXPECT_EQ(Http("GET", "/yads?date=2026-10-25+00:00:00&utm_source=robot").status, 200);
}

TEST_F(HttpE2e, LeftOutIdsReachTheServerLog) {
  ASSERT_EQ(Http("GET", "/yads?date=2026-01-01+00:00:00").status, 200);
  auto bad = testing::Table(
      "SELECT HEX(ref) FROM listing WHERE status = 'active' AND CHAR_LENGTH(ref) > 32 ORDER BY added, id LIMIT 1");
  ASSERT_FALSE(bad.empty());
  std::ifstream log(Env("FEED_TEST_APACHE_LOG"));
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("id='" + testing::Unhex(bad[0][0]) + "' breaks maxlen=32"), std::string::npos);
}

TEST_F(HttpE2e, JoobleBotGetsItsFeedThen304AndItsVisitIsRecorded) {
  testing::Mariadb("TRUNCATE feed_robot_visit");
  const std::string bot = "User-Agent: Mozilla/5.0 (compatible; JoobleBot/2.0)";
  HttpReply r = Http("GET", "/jooble", {bot, "Accept-Encoding: gzip"});
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 200);
  EXPECT_EQ(r.headers["content-type"], "text/xml; charset=UTF-8");
  EXPECT_EQ(r.headers["content-encoding"], "gzip");
  std::string body = testing::ZlibGunzip(r.body);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(body.c_str(), body.size()), tinyxml2::XML_SUCCESS);
  EXPECT_GT(std::count(body.begin(), body.end(), '\n'), 1000);
  EXPECT_EQ(testing::Table("SELECT COUNT(*) FROM feed_robot_visit WHERE robot = 'JoobleBot' AND feed = 'jooble'")[0][0],
            "1");
  HttpReply again = Http("GET", "/jooble", {bot, "If-Modified-Since: " + r.headers["last-modified"]});
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  // The full feed, in windows-1251 with contacts hidden.
  HttpReply full = Http("GET", "/jooble-full", {bot});
  ASSERT_EQ(full.status, 200);
  EXPECT_EQ(full.headers["content-type"], "text/xml; charset=windows-1251");
  EXPECT_NE(full.body.find("<jobs hide_contacts=\"1\">"), std::string::npos);
}

}  // namespace
}  // namespace feed
