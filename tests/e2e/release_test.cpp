// The release for shared hosts (make dist, release/make-dist.sh), as an
// owner uploads it: unpacked into an empty folder that becomes a chroot
// holding nothing else (no C library, no /usr/share/zoneinfo, no /proc, no
// /tmp), it answers every feed of the shipped sample mapping as plain CGI
// and as a FastCGI server byte for byte as the program built on this
// machine answers outside it, reading the test MariaDB over TCP.
//
//   FEED_TEST_RELEASE  the archive deployed as its INSTALL.txt says, with the
//                      sample mapping as feed.ini, reading the test MariaDB
//                      over TCP (tests/harness/deploy_release.sh)
// As root only (chroot); skipped otherwise.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Shell;
using testing::Slurp;

const char kNow[] = "2026-11-20T10:00:00Z";

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The CGI environment of a GET of PATH_INFO `path`, as `env -i` arguments.
std::string CgiEnv(const std::string& path, const std::string& query = "") {
  return "env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET SERVER_PROTOCOL=HTTP/1.1 SERVER_NAME=127.0.0.1 "
         "SERVER_PORT=80 REMOTE_ADDR=127.0.0.1 SCRIPT_NAME=/cgi-bin/feed.fcgi HTTP_USER_AGENT=ReleaseTest/1.0 " +
         std::string("PATH_INFO=") + Quote(path) + " QUERY_STRING=" + Quote(query);
}

class ReleaseE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(400, 60, 5, 40); }

  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "chroot needs root";
    const char* release = std::getenv("FEED_TEST_RELEASE");
    ASSERT_TRUE(release && *release) << "FEED_TEST_RELEASE is not set (tests/run.sh deploys make dist's archive)";
    // A fresh copy of the unpacked archive, and nothing else, per test.
    root_ = testing::TempDir("release-root");
    ASSERT_EQ(chmod(root_.c_str(), 0755), 0);  // the chroot's "/", searched by nobody
    ASSERT_EQ(Shell("cp -a " + Quote(std::string(release)) + "/. " + Quote(root_)), 0);
    ASSERT_EQ(Shell("chown -R nobody " + Quote(root_ + "/feed-files/spool") + " " + Quote(root_ + "/feed.ini")), 0);
  }
  void TearDown() override {
    if (!root_.empty()) Shell("rm -rf " + Quote(root_));
  }

  // The response (CGI output: head and body) inside the chroot.
  std::string Inside(const std::string& path, const std::string& query = "") {
    const std::string out = root_ + ".out";
    Shell(CgiEnv(path, query) + " /usr/sbin/chroot --userspec=nobody " + Quote(root_) + " /feed.fcgi --now " + kNow +
          " </dev/null >" + Quote(out) + " 2>" + Quote(out + ".err"));
    std::string r = Slurp(out);
    EXPECT_FALSE(r.empty()) << path << ": " << Slurp(out + ".err");
    return r;
  }
  // The same request to the program built here, with the same config file.
  std::string Outside(const std::string& path, const std::string& query = "") {
    const std::string out = root_ + ".out";
    Shell(CgiEnv(path, query) + " FEED_CONFIG=" + Quote(root_ + "/feed.ini") + " " + Quote(Env("FEED_TEST_BIN")) +
          " --now " + kNow + " </dev/null >" + Quote(out) + " 2>" + Quote(out + ".err"));
    return Slurp(out);
  }
  // Every path the sample mapping serves: its feeds, and each set's index
  // and the parts that index lists.
  std::vector<std::string> Paths() {
    std::vector<std::string> paths = {"/yads", "/jooble", "/jooble-full", "/rss", "/atom", "/msn",
                                      "/urls-ad-urls-1.txt", "/urls-job-urls-1.txt", "/urls-doc-urls-1.txt"};
    for (const std::string index : {"/sitemap.xml", "/baidu.xml"}) {
      paths.push_back(index);
      const std::string xml = Outside(index);
      std::regex loc(R"(<loc>[^<]*/([^/<]+)</loc>)");
      for (auto it = std::sregex_iterator(xml.begin(), xml.end(), loc); it != std::sregex_iterator(); ++it) {
        paths.push_back("/" + (*it)[1].str());
      }
    }
    return paths;
  }

  std::string root_;
};

TEST_F(ReleaseE2e, ItIsSmallAndItsLauncherNeedsNoLoader) {
  size_t files = 0;
  uintmax_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root_)) {
    ++files;
    if (e.is_regular_file()) bytes += e.file_size();
  }
  // "A few MB, a few dozen files" (a naive bundle was 89 MB in 1,648).
  EXPECT_LT(files, 140u);
  EXPECT_LT(bytes, 24u << 20);
  // No PT_INTERP: the kernel runs it without any loader of the host's.
  EXPECT_NE(Shell("readelf -l " + Quote(root_ + "/feed.fcgi") + " | grep -q 'Requesting program interpreter'"), 0);
  // Nothing shipped is named so that mod_mime would run it: no other
  // .fcgi, .cgi, .php or .pl anywhere in the tree.
  for (const auto& e : std::filesystem::recursive_directory_iterator(root_)) {
    const std::string name = e.path().filename().string();
    if (e.path() == std::filesystem::path(root_) / "feed.fcgi") continue;
    for (const std::string ext : {".fcgi", ".cgi", ".php", ".pl", ".py", ".sh"}) {
      EXPECT_EQ(("." + name + ".").find(ext + "."), std::string::npos) << e.path();
    }
  }
}

TEST_F(ReleaseE2e, EveryShippedFeedAnswersInAnEmptyChrootAsCgiAsItDoesOutside) {
  size_t compared = 0;
  for (const std::string& path : Paths()) {
    const std::string inside = Inside(path), outside = Outside(path);
    EXPECT_EQ(inside.substr(0, 15), "Status: 200 OK\r") << path;
    EXPECT_EQ(inside.size(), outside.size()) << path;
    EXPECT_TRUE(inside == outside) << path << " differs: inside begins " << inside.substr(0, 300);
    ++compared;
  }
  EXPECT_GE(compared, 13u);
  // Paging keys its tokens with the file's [server] secret: the next page
  // of a run begun inside is served inside, and outside alike.
  const std::string first = Inside("/yads", "date=2020-01-01%2000:00:00");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(first, m, std::regex("<continue>([0-9A-Za-z_.]+)</continue>"))) << first.substr(0, 400);
  const std::string next = Inside("/yads", "date=2020-01-01%2000:00:00&continue=" + m[1].str());
  EXPECT_EQ(next.substr(0, 15), "Status: 200 OK\r");
  EXPECT_TRUE(next == Outside("/yads", "date=2020-01-01%2000:00:00&continue=" + m[1].str()));
}

TEST_F(ReleaseE2e, ItServesFastCgiInsideTheChroot) {
  const std::string port = std::to_string(40000 + getpid() % 20000);
  const std::string pidfile = root_ + ".spawn.pid";
  ASSERT_EQ(Shell("spawn-fcgi -c " + Quote(root_) + " -u nobody -g nogroup -a 127.0.0.1 -p " + port + " -P " +
                  Quote(pidfile) + " -- /feed.fcgi --now " + kNow + " >/dev/null 2>&1"),
            0);
  for (const std::string path : {"/rss", "/yads", "/sitemap.xml", "/nothing-here"}) {
    const std::string out = root_ + ".fcgi.out";
    // One request through the FastCGI protocol (libfcgi's cgi-fcgi client).
    Shell(CgiEnv(path) + " /usr/bin/cgi-fcgi -bind -connect 127.0.0.1:" + port + " </dev/null >" + Quote(out) + " 2>&1");
    const std::string reply = Slurp(out), outside = Outside(path);
    EXPECT_TRUE(reply == outside) << path << ": " << reply.substr(0, 300);
  }
  Shell("kill $(cat " + Quote(pidfile) + ") 2>/dev/null; rm -f " + Quote(pidfile));
}

TEST_F(ReleaseE2e, ItFindsItsConfigOneAndTwoFoldersUpAndSaysWhereItLooked) {
  // ../feed.ini (the folder above the program's): the same answers.
  const std::string below = root_ + "/cgi-bin";
  ASSERT_EQ(Shell("mkdir " + Quote(below) + " && cd " + Quote(root_) + " && mv feed.fcgi .htaccess feed-files " +
                  Quote(below) + "/"),
            0);
  std::string ini = Slurp(root_ + "/feed.ini");
  ini = std::regex_replace(ini, std::regex("feed-files/"), "cgi-bin/feed-files/");
  std::ofstream(root_ + "/feed.ini") << ini;
  const std::string out = root_ + ".out";
  Shell(CgiEnv("/rss") + " /usr/sbin/chroot --userspec=nobody " + Quote(root_) + " /cgi-bin/feed.fcgi --now " + kNow +
        " </dev/null >" + Quote(out) + " 2>&1");
  EXPECT_EQ(Slurp(out).substr(0, 15), "Status: 200 OK\r") << Slurp(out).substr(0, 300);
  // None anywhere: the message names the three places.
  ASSERT_EQ(Shell("rm " + Quote(root_ + "/feed.ini")), 0);
  const int rc = Shell("/usr/sbin/chroot " + Quote(root_) + " /cgi-bin/feed.fcgi check >" + Quote(out) + " 2>&1");
  EXPECT_EQ(rc, 2);
  EXPECT_NE(Slurp(out).find("/cgi-bin/feed.ini, /feed.ini"), std::string::npos) << Slurp(out);
}

// The authentication plugins travel with the release and are found without
// the host's folders: an ed25519 account (MariaDB's auth_ed25519) logs in
// from the empty chroot; every plugin the release carries, MySQL 8's
// caching_sha2_password and sha256_password among them, loads with the
// release's own loader and libraries alone (no MySQL 8 server here to log
// in to).
TEST_F(ReleaseE2e, ItsAuthenticationPluginsAreFoundInsideIt) {
  if (testing::AdminSql("SELECT COUNT(*) FROM information_schema.PLUGINS WHERE PLUGIN_NAME = 'ed25519'")
          .find('1') == std::string::npos) {
    testing::AdminSql("INSTALL SONAME 'auth_ed25519'");
  }
  testing::AdminSql(
      "DROP USER IF EXISTS 'release_ed'@'127.0.0.1';"
      "CREATE USER 'release_ed'@'127.0.0.1' IDENTIFIED VIA ed25519 USING PASSWORD('Ed-Release-Pa55');"
      "GRANT ALL ON `" + Env("FEED_TEST_DB") + "`.* TO 'release_ed'@'127.0.0.1';");
  ASSERT_EQ(Shell("sed -i -e 's/^user = feed$/user = release_ed/' -e 's/^password = feed$/password = Ed-Release-Pa55/' " +
                  Quote(root_ + "/feed.ini")),
            0);
  ASSERT_NE(Slurp(root_ + "/feed.ini").find("user = release_ed"), std::string::npos);
  const std::string rss = Inside("/rss");
  EXPECT_EQ(rss.substr(0, 15), "Status: 200 OK\r") << rss.substr(0, 300);
  EXPECT_NE(rss.find("<rss"), std::string::npos);
  for (const std::string plugin :
       {"caching_sha2_password", "sha256_password", "client_ed25519", "mysql_clear_password", "dialog"}) {
    const std::string out = root_ + ".ldd";
    const int rc = Shell("/usr/sbin/chroot " + Quote(root_) +
                         " /feed-files/lib/ld-linux-x86-64.so.2 --library-path /feed-files/lib --list /feed-files/lib/plugin/" +
                         plugin + ".so >" + Quote(out) + " 2>&1");
    const std::string list = Slurp(out);
    EXPECT_EQ(rc, 0) << plugin << ": " << list;
    EXPECT_EQ(list.find("not found"), std::string::npos) << plugin << ": " << list;
    EXPECT_NE(list.find("=> /feed-files/lib/libc.so.6"), std::string::npos) << plugin << ": " << list;
  }
  testing::AdminSql("DROP USER IF EXISTS 'release_ed'@'127.0.0.1'");
}

// A small shared host's limits, as CloudLinux's LVE sets them: 1 GiB of
// address space, 20 processes, 64 open files. A full Yads dump and a
// sitemap write of a board of 30,000 ads and 6,000 vacancies still come out
// whole; what they took is printed (docs/deploy.md, "Fitting a small host").
TEST_F(ReleaseE2e, AFullDumpAndASitemapWriteFitASmallHostsLimits) {
  testing::LoadSampleBoard(30000, 6000, 7, 300);
  ASSERT_EQ(Shell("mkdir -p " + Quote(root_ + "/out") + " && chown nobody " + Quote(root_ + "/out")), 0);
  // Pages of 50,000 ads, as the legacy mapping has them: the dump is one.
  ASSERT_EQ(Shell("sed -i 's/^page_size = 150$/page_size = 50000/' " + Quote(root_ + "/feed.ini")), 0);
  struct Run {
    std::string what;
    std::vector<std::string> args;
    std::string output;  // what must end the document (or the report)
  };
  const std::vector<Run> runs = {
      {"full Yads dump", {"render", "/yads", "-o", "/out/yads.xml"}, "</yml_catalog>\n"},
      {"sitemap write", {"write", "/sitemap.xml", "/out/sitemaps"}, ""},
  };
  for (const Run& r : runs) {
    std::vector<std::string> argv = {"/usr/bin/prlimit", "--as=1073741824", "--nproc=20", "--nofile=64",
                                     "/usr/sbin/chroot", "--userspec=nobody", root_, "/feed.fcgi",
                                     "--now", kNow};
    argv.insert(argv.end(), r.args.begin(), r.args.end());
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::fflush(stdout);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      freopen("/dev/null", "w", stdout);
      freopen("/dev/null", "w", stderr);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
    // The process keeps its pid through prlimit, chroot, the launcher and
    // the loader (each execs the next): its rusage is the program's. Open
    // files are sampled while it runs (a measure, not a condition).
    size_t most_files = 0;
    int status = 0;
    rusage use{};
    while (wait4(pid, &status, WNOHANG, &use) == 0) {
      size_t n = 0;
      std::error_code ec;
      for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
           !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        ++n;
      }
      most_files = std::max(most_files, n);
      usleep(2000);
    }
    ASSERT_TRUE(WIFEXITED(status)) << r.what;
    EXPECT_EQ(WEXITSTATUS(status), 0) << r.what;
    std::printf("   %s under 1 GiB / 20 processes / 64 files: peak RSS %ld KiB, at most %zu open files\n",
                r.what.c_str(), use.ru_maxrss, most_files);
    ::testing::Test::RecordProperty(r.what + " peak RSS KiB", static_cast<int>(use.ru_maxrss));
  }
  const std::string dump = Slurp(root_ + "/out/yads.xml");
  ASSERT_GT(dump.size(), 1000000u);
  EXPECT_EQ(dump.substr(dump.size() - 15), "</yml_catalog>\n");
  EXPECT_EQ(std::count(dump.begin(), dump.end(), '\n') > 30000, true);
  EXPECT_NE(Slurp(root_ + "/out/sitemaps/sitemap.xml").find("</sitemapindex>"), std::string::npos);
}

}  // namespace
}  // namespace feed
