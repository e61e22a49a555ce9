// Every shipped feed keeps its format's rules whatever the deployment: the
// same documents, fetched through each front the harness runs (Apache with
// mod_fcgid handing bodies off by X-Sendfile, nginx buffering them itself,
// the release on a shared host under mod_fcgid handing off by redirect, and
// the release as plain CGI), plain and gzip, every page of a paged feed and
// every part of a set, and the static sets `write` leaves, are each judged
// by tests/support/feed_rules.h.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "feed_rules.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::FeedFaults;
using testing::FeedKind;
using testing::Shell;
using testing::Slurp;

struct Got {
  int status = 0;
  std::string content_type, body;
};

// curl, following redirects (the shared host's hand-off), gunzipping when
// `gzip` (curl's own zlib, not the program's).
Got Get(const std::string& url, bool gzip, const std::string& agent = "conformance-test") {
  const std::string out = testing::TempDir("conformance");
  Shell("curl -s -L " + std::string(gzip ? "--compressed " : "") + "-A '" + agent + "' -o '" + out +
        "/body' -w '%{http_code} %{content_type}' '" + url + "' >'" + out + "/info'");
  Got g;
  const std::string info = Slurp(out + "/info");
  g.status = std::atoi(info.c_str());
  if (info.find(' ') != std::string::npos) g.content_type = info.substr(info.find(' ') + 1);
  g.body = Slurp(out + "/body");
  Shell("rm -rf '" + out + "'");
  return g;
}

// The charset a Content-Type names ("text/xml; charset=windows-1251"),
// lower-cased: charset names are not case-sensitive (Apache sends UTF-8's
// as utf-8).
std::string Charset(const std::string& content_type) {
  const size_t at = content_type.find("charset=");
  std::string cs = at == std::string::npos ? "" : content_type.substr(at + 8);
  for (char& c : cs) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return cs;
}

std::string DeclaredEncoding(const std::string& body) {
  const size_t at = body.find("encoding=\"");
  return Charset(at == std::string::npos || at > 40 ? "" : "charset=" + body.substr(at + 10, body.find('"', at + 10) - at - 10));
}

std::string FaultList(const std::vector<std::string>& faults) {
  std::string s;
  for (const std::string& f : faults) s += "\n  " + f;
  return s;
}

struct Front {
  std::string name, url;  // url: the program's, .../cgi-bin/feed.fcgi
};

std::vector<Front> Fronts() {
  return {{"apache", Env("FEED_TEST_URL")},
          {"nginx", Env("FEED_TEST_NGINX_URL")},
          {"shared-fcgid", Env("FEED_TEST_SHARED_FCGID_URL") + "/cgi-bin/feed.fcgi"},
          {"shared-cgi", Env("FEED_TEST_SHARED_CGI_URL") + "/cgi-bin/feed.fcgi"}};
}

class ConformanceE2e : public ::testing::Test {
 protected:
  // More ads than a page of the sample Yads feed holds (1,000), so that
  // its dump is paged with continue tokens; jobs and documents for the
  // other feeds.
  static void SetUpTestSuite() { testing::LoadSampleBoard(2500, 300, 11, 200); }

  // Fetches one document, checks its HTTP charset against its declaration
  // and its rules, and returns it ("" when it could not be fetched).
  std::string Judge(const Front& front, const std::string& path, FeedKind kind, bool gzip,
                    const std::string& agent = "conformance-test") {
    SCOPED_TRACE(front.name + " " + path + (gzip ? " (gzip)" : ""));
    const Got g = Get(front.url + path, gzip, agent);
    EXPECT_EQ(g.status, 200) << g.body.substr(0, 300);
    if (g.status != 200) return "";
    if (kind != FeedKind::kText) {
      EXPECT_EQ(Charset(g.content_type), DeclaredEncoding(g.body)) << g.content_type;
    }
    const auto faults = FeedFaults(kind, g.body);
    EXPECT_TRUE(faults.empty()) << testing::FeedKindName(kind) << ":" << FaultList(faults);
    ++judged_;
    return g.body;
  }

  // A set's index and each part it lists (fetched by the part's name under
  // the front's own URL: the index names the site's public address).
  void JudgeSet(const Front& front, const std::string& path, FeedKind part_kind, bool gzip) {
    const std::string index = Judge(front, path, FeedKind::kSitemapIndex, gzip);
    const auto locs = testing::IndexLocs(index);
    EXPECT_FALSE(locs.empty()) << front.name << " " << path;
    for (const std::string& loc : locs) Judge(front, loc.substr(loc.rfind('/')), part_kind, gzip);
  }

  // Every page of the dump, following <continue> to the last.
  void JudgeDump(const Front& front, bool gzip) {
    std::string page = Judge(front, "/yads", FeedKind::kYads, gzip);
    for (int n = 1; n < 20; ++n) {
      const std::string token = testing::YadsContinue(page);
      if (token.empty()) return;
      page = Judge(front, "/yads?continue=" + token, FeedKind::kYads, gzip);
    }
    ADD_FAILURE() << front.name << ": the dump did not end in 20 pages";
  }

  int judged_ = 0;
};

TEST_F(ConformanceE2e, EveryFeedThroughEveryFrontKeepsItsFormatsRules) {
  for (const Front& front : Fronts()) {
    for (bool gzip : {false, true}) {
      JudgeDump(front, gzip);
      Judge(front, "/yads?date=2000-01-01+00:00:00", FeedKind::kYads, gzip);
      Judge(front, "/jooble", FeedKind::kJooble, gzip, "Mozilla/5.0 (compatible; JoobleBot/2.0)");
      Judge(front, "/jooble-full", FeedKind::kJooble, gzip);
      JudgeSet(front, "/sitemap.xml", FeedKind::kSitemap, gzip);
      JudgeSet(front, "/baidu.xml", FeedKind::kBaidu, gzip);
      for (const char* part : {"/urls-ad-urls-1.txt", "/urls-job-urls-1.txt", "/urls-doc-urls-1.txt"}) {
        Judge(front, part, FeedKind::kText, gzip);
      }
      Judge(front, "/rss", FeedKind::kRss, gzip);
      Judge(front, "/atom", FeedKind::kAtom, gzip);
      Judge(front, "/msn", FeedKind::kMsn, gzip);
      Judge(front, "/indeed", FeedKind::kIndeed, gzip);
      Judge(front, "/careerjet", FeedKind::kCareerjet, gzip);
    }
  }
  // Plain and gzip, 17 documents besides the dump on each front, and the
  // dump in 3 pages of 1,000 ads on the test site (Apache, nginx), in one
  // of 50,000 on the shared host's release.
  EXPECT_EQ(judged_, 2 * (2 * (17 + 3) + 2 * (17 + 1)));
}

// The static sets `write` leaves (what Apache serves as files on a host
// whose cron writes them), each file and its .gz twin.
TEST_F(ConformanceE2e, EveryFileOfAWrittenSetKeepsItsFormatsRules) {
  const std::string dir = testing::TempDir("conformance-write");
  const std::string program = "FEED_DB_SOCKET='" + Env("FEED_TEST_SOCKET") + "' FEED_DB_NAME='" + Env("FEED_TEST_DB") +
                              "' FEED_DB_USER=feed FEED_DB_PASSWORD=feed FEED_SECRET=conformance-test-secret-5f0a2c '" +
                              Env("FEED_TEST_BIN") + "' --config '" + Env("FEED_TEST_ROOT") + "/conf/sample-board.ini'";
  struct Set {
    std::string path, folder;
    FeedKind kind;
  };
  for (const Set& set : {Set{"/sitemap.xml", "sitemaps", FeedKind::kSitemap}, Set{"/baidu.xml", "baidu", FeedKind::kBaidu},
                         Set{"/urls.txt", "urls", FeedKind::kText}}) {
    SCOPED_TRACE(set.path);
    const std::string out = dir + "/" + set.folder;
    ASSERT_EQ(Shell(program + " write " + set.path + " '" + out + "' >/dev/null"), 0);
    int files = 0;
    const std::string list = dir + "/list";
    Shell("ls '" + out + "' >'" + list + "'");
    std::string names = Slurp(list);
    for (size_t at = 0; at < names.size();) {
      const size_t end = names.find('\n', at);
      const std::string name = names.substr(at, end - at);
      at = end == std::string::npos ? names.size() : end + 1;
      if (name.empty()) continue;
      std::string body;
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) {
        ASSERT_EQ(Shell("gzip -dc '" + out + "/" + name + "' >'" + dir + "/gunzipped'"), 0) << name;
        body = Slurp(dir + "/gunzipped");
      } else {
        body = Slurp(out + "/" + name);
      }
      const bool index = body.find("<sitemapindex") != std::string::npos;
      const FeedKind kind = index ? FeedKind::kSitemapIndex : set.kind;
      const auto faults = FeedFaults(kind, body);
      EXPECT_TRUE(faults.empty()) << name << ": " << testing::FeedKindName(kind) << FaultList(faults);
      ++files;
    }
    EXPECT_GE(files, set.kind == FeedKind::kText ? 3 : 2) << "an index and a part at least";
  }
  Shell("rm -rf '" + dir + "'");
}

// The database restarted (an upgrade, a crash, wait_timeout on a shared
// host closing idle connections): every long-lived process of every front
// finds its connections dead, and still answers each feed whole, on a new
// connection, instead of a 503 per process and connection.
TEST_F(ConformanceE2e, EveryProcessAnswersOnANewConnectionAfterTheDatabaseRestarted) {
  const std::vector<std::string> paths = {"/msn", "/sitemap.xml", "/yads", "/jooble-full", "/baidu.xml", "/rss", "/atom"};
  std::vector<Front> fronts = Fronts();
  fronts.pop_back();  // plain CGI: a new process each request
  for (const Front& front : fronts) {
    for (const std::string& path : paths) EXPECT_EQ(Get(front.url + path, false).status, 200) << front.name << path;
  }
  testing::StopDatabase();
  testing::StartDatabase();
  for (const Front& front : fronts) {
    for (int round = 0; round < 3; ++round) {
      for (const std::string& path : paths) {
        const Got g = Get(front.url + path, false);
        EXPECT_EQ(g.status, 200) << front.name << " " << path << " round " << round << ": " << g.body.substr(0, 200);
      }
    }
  }
}

}  // namespace
}  // namespace feed
