// The release deployed on an Apache set up as a shared host is
// (tests/harness/shared_host.sh): a user's public_html with AllowOverride
// All, no mod_xsendfile, nothing of the project in the server config. The
// archive went into public_html/cgi-bin as its INSTALL.txt says, with its
// .htaccess; the host runs it under mod_fcgid in one Apache and as plain
// CGI in the other (no mod_fcgid loaded).
//
//   FEED_TEST_SHARED_FCGID_URL, FEED_TEST_SHARED_CGI_URL   http://127.0.0.1:PORT
//   FEED_TEST_SHARED_FCGID_HOME, FEED_TEST_SHARED_CGI_HOME the user's home
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Shell;
using testing::Slurp;

struct Got {
  int status = 0;
  std::string body;
};

Got Get(const std::string& url) {
  const std::string out = testing::TempDir("shared-get");
  Shell("curl -s -L -o '" + out + "/body' -w '%{http_code}' '" + url + "' >'" + out + "/code'");
  Got g;
  g.status = std::atoi(Slurp(out + "/code").c_str());
  g.body = Slurp(out + "/body");
  Shell("rm -rf '" + out + "'");
  return g;
}

// A feed process of that home's release is running, as the web user (the
// bracket keeps the pattern from matching the shell that runs pgrep).
bool FeedProcessRunning(const std::string& home) {
  return Shell("pgrep -u www-data -f '" + home + "/public_html/cgi-bin/[f]eed-files/lib/feed' >/dev/null") == 0;
}

class SharedHostE2e : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(400, 60, 5, 40); }
  std::string Url() { return Env(("FEED_TEST_SHARED_" + GetParam() + "_URL").c_str()); }
  std::string Home() { return Env(("FEED_TEST_SHARED_" + GetParam() + "_HOME").c_str()); }
};

TEST_P(SharedHostE2e, EveryFeedAnswersFromPublicHtml) {
  const std::string base = Url() + "/cgi-bin/feed.fcgi";
  const std::vector<std::pair<std::string, std::string>> feeds = {
      {"/rss", "<rss"},     {"/atom", "<feed"},           {"/yads", "<yml_catalog"},
      {"/jooble", "<jobs"}, {"/sitemap.xml", "<sitemapindex"}, {"/baidu.xml", "<sitemapindex"},
      {"/msn", "<rss"}};
  for (const auto& [path, root] : feeds) {
    const Got g = Get(base + path);
    EXPECT_EQ(g.status, 200) << path << ": " << g.body.substr(0, 300);
    EXPECT_NE(g.body.find(root), std::string::npos) << path << ": " << g.body.substr(0, 300);
  }
  EXPECT_EQ(Get(base + "/no-such-feed").status, 404);
  // mod_fcgid keeps the process for the next request; plain CGI ends it
  // with the response.
  if (GetParam() == "FCGID") {
    EXPECT_TRUE(FeedProcessRunning(Home()));
  } else {
    EXPECT_TRUE(testing::PollUntil([&] { return !FeedProcessRunning(Home()); }, 10000));
  }
}

TEST_P(SharedHostE2e, NothingButTheProgramIsServed) {
  const std::string cgi = Url() + "/cgi-bin";
  const std::vector<std::string> hidden = {
      "/feed.ini",
      "/.htaccess",
      "/INSTALL.txt",
      "/",
      "/feed-files/",
      "/feed-files/lib/feed",
      "/feed-files/lib/zones",
      "/feed-files/lib/libc.so.6",
      "/feed-files/lib/plugin/client_ed25519.so",
      "/feed-files/conf/sample-board.ini",
      "/feed-files/sql/sample-yads.sql",
      "/feed-files/sql/state.sql",
      "/feed-files/templates/yads.xml",
      "/feed-files/spool/",
      "/feed-files/htaccess-sitemaps",
      "/feed-out/",
      "/feed-out/.htaccess",
      "/feed.fcgi.bak",
      "/feed.ini~",
  };
  const std::string password_line = "password = feed", secret = "release-test-secret-8d41c2e7f0";
  for (const std::string& path : hidden) {
    const Got g = Get(cgi + path);
    EXPECT_TRUE(g.status == 403 || g.status == 404) << path << " answered " << g.status;
    EXPECT_EQ(g.body.find(password_line), std::string::npos) << path;
    EXPECT_EQ(g.body.find(secret), std::string::npos) << path;
    EXPECT_EQ(g.body.find("SELECT"), std::string::npos) << path;
  }
  // A spooled body, while it exists, is not served either.
  std::ofstream(Home() + "/public_html/cgi-bin/feed-files/spool/body-test") << "spooled";
  EXPECT_EQ(Get(cgi + "/feed-files/spool/body-test").status, 403);
  std::remove((Home() + "/public_html/cgi-bin/feed-files/spool/body-test").c_str());
}

// The sitemap set written from the host's cron (an absolute path and no
// environment, as the web user), served by Apache itself; a set being
// written is not, once the owner added htaccess-sitemaps to public_html.
TEST_P(SharedHostE2e, AStaticSetWrittenByCronIsServedAndOneBeingWrittenIsNot) {
  const std::string html = Home() + "/public_html";
  ASSERT_EQ(Shell("cp '" + html + "/cgi-bin/feed-files/htaccess-sitemaps' '" + html + "/.htaccess'"), 0);
  const std::string cron = "cd / && env -i /usr/sbin/runuser -u www-data -- '" + html +
                           "/cgi-bin/feed.fcgi' write /sitemap.xml '" + html + "/sitemaps' >/dev/null";
  ASSERT_EQ(Shell(cron), 0);
  const Got index = Get(Url() + "/sitemaps/sitemap.xml");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("<sitemapindex"), std::string::npos) << index.body.substr(0, 300);
  ASSERT_EQ(Shell("mkdir -p '" + html + "/sitemaps.new-4242' && cp '" + html + "/sitemaps/sitemap.xml' '" + html +
                  "/sitemaps.new-4242/'"),
            0);
  EXPECT_EQ(Get(Url() + "/sitemaps.new-4242/sitemap.xml").status, 404);
  EXPECT_EQ(Get(Url() + "/sitemaps.new-4242/").status, 404);
  // The lock beside the set (two cron runs never write at once) is not
  // served either.
  EXPECT_TRUE(std::filesystem::exists(html + "/sitemaps.lock"));
  EXPECT_EQ(Get(Url() + "/sitemaps.lock").status, 404);
  Shell("rm -rf '" + html + "/sitemaps.new-4242' '" + html + "/sitemaps' '" + html + "/sitemaps.lock' '" + html +
        "/.htaccess'");
}

// A socket to the host's Apache with `request` sent.
int Send(const std::string& base, const std::string& target) {
  const int port = std::stoi(base.substr(base.rfind(':') + 1));
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ADD_FAILURE() << "cannot connect to " << base;
    if (fd >= 0) close(fd);
    return -1;
  }
  // A small receive buffer, as a slow robot far away has in effect.
  const int small = 4096;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  const std::string req = "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  if (send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size())) ADD_FAILURE() << "send";
  return fd;
}

// The head of the answer on `fd` (up to the blank line), read as it comes.
std::string Head(int fd) {
  std::string head;
  char c;
  while (head.find("\r\n\r\n") == std::string::npos && recv(fd, &c, 1, 0) == 1) head += c;
  return head;
}

// Four times as many slow readers as the host's FastCGI processes (4), each
// reading nothing of a large feed: with hand_off = redirect (the release's
// feed.ini) they are sent to a published copy, which Apache serves at
// their pace, so a small request still gets its answer. Without it each
// would hold a FastCGI process while its 20 MB sat unread. The time small
// requests take meanwhile is printed (a measure, not a condition).
TEST_P(SharedHostE2e, SlowReadersOfLargeFeedsHoldNoFastCgiProcess) {
  testing::LoadSampleBoard(60000, 100, 9);
  const std::string base = Url();
  std::vector<int> readers;
  for (int i = 0; i < 16; ++i) {
    const int fd = Send(base, "/cgi-bin/feed.fcgi/yads");
    ASSERT_GE(fd, 0);
    const std::string head = Head(fd);
    close(fd);
    ASSERT_EQ(head.substr(0, 12), "HTTP/1.1 302") << head;
    const size_t at = head.find("Location: ");
    ASSERT_NE(at, std::string::npos) << head;
    std::string location = head.substr(at + 10, head.find("\r\n", at) - at - 10);
    if (location.rfind("http://", 0) == 0) location = location.substr(location.find('/', 7));
    // The published copy: a 32-hex-digit name in feed-out/ that says its
    // type, sent by Apache with the Content-Type the program would send.
    ASSERT_TRUE(std::regex_match(location, std::regex("/cgi-bin/feed-out/[0-9a-f]{32}\\.text_xml\\.windows-1251")))
        << location;
    const int slow = Send(base, location);
    ASSERT_GE(slow, 0);
    const std::string copy = Head(slow);
    EXPECT_EQ(copy.substr(0, 12), "HTTP/1.1 200");
    EXPECT_NE(copy.find("\r\nContent-Type: text/xml; charset=windows-1251\r\n"), std::string::npos) << copy;
    readers.push_back(slow);  // and read no further
  }
  std::vector<double> took;
  for (int i = 0; i < 20; ++i) {
    const auto began = std::chrono::steady_clock::now();
    const std::string out = testing::TempDir("shared-small");
    const int rc = Shell("curl -s --max-time 30 -o /dev/null -w '%{http_code}' '" + base +
                         "/cgi-bin/feed.fcgi/no-such-feed' >'" + out + "/code'");
    const std::string code = Slurp(out + "/code");
    Shell("rm -rf '" + out + "'");
    took.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    ASSERT_EQ(rc, 0) << "a small request got no answer while 16 slow readers held large feeds";
    EXPECT_EQ(code, "404");
  }
  std::sort(took.begin(), took.end());
  std::printf("   %s: 20 small requests beside 16 slow readers: median %.0f ms, slowest %.0f ms\n",
              GetParam().c_str(), took[took.size() / 2] * 1000, took.back() * 1000);
  for (int fd : readers) close(fd);
  // Published copies are whole documents.
  const std::string out = Home() + "/public_html/cgi-bin/feed-out";
  size_t dumps = 0;
  for (const auto& e : std::filesystem::directory_iterator(out)) {
    if (e.path().filename().string()[0] == '.') continue;
    // Each ends with the closing tag of its root (other tests' large
    // bodies are published here too).
    const std::string doc = Slurp(e.path().string());
    std::smatch root;
    ASSERT_TRUE(std::regex_search(doc, root, std::regex("<([a-z_]+)[ >]"))) << e.path();
    const std::string end = "</" + root[1].str() + ">\n";
    ASSERT_GE(doc.size(), end.size()) << e.path();
    EXPECT_EQ(doc.substr(doc.size() - end.size()), end) << e.path();
    if (root[1] == "yml_catalog") ++dumps;
  }
  EXPECT_GE(dumps, 16u);
  testing::LoadSampleBoard(400, 60, 5, 40);
}

INSTANTIATE_TEST_SUITE_P(ModFcgidAndPlainCgi, SharedHostE2e, ::testing::Values("FCGID", "CGI"));

}  // namespace
}  // namespace feed
