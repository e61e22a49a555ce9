// A live response killed (issue #22, point 4), through Apache and mod_fcgid:
// each test starts an Apache of its own (tests/harness/apache.sh) whose
// feed.fcgi processes get FEED_STOP_AT=POINT@ARM (lib/stop_point.h). The
// test arms the point by creating ARM: the process that reaches the point
// first removes it and SIGKILLs itself there; the processes after it run
// on. Afterwards no robot record moved for the response that was not
// finished (JoobleBot's visit, the run report the status page shows for
// YandexBot's page), and what the killed process left in the spool and
// redirect folders is swept by the next ones, while a live process's file
// is kept.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Slurp;

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

struct Reply {
  int curl = 0;  // curl's exit status: 0 whole, 18 a body cut short
  int status = 0;
  std::string head, body;
};

// The names in `dir` (files only).
// The files of a folder but its .htaccess (the redirect folder's, which the
// program keeps).
std::set<std::string> Files(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename() != ".htaccess") names.insert(e.path().filename().string());
  }
  return names;
}

// The pid in "feed-PID-N" when that process is gone, else 0.
pid_t DeadOwner(const std::string& name) {
  if (name.rfind("feed-", 0) != 0) return 0;
  const pid_t pid = std::atoi(name.c_str() + 5);
  return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH ? pid : 0;
}

// A file's modification time moved `seconds` back: that long has passed
// for the sweeps that go by it.
void Age(const std::string& path, int seconds) {
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0) << path;
  timeval times[2] = {{st.st_atime - seconds, 0}, {st.st_mtime - seconds, 0}};
  ASSERT_EQ(utimes(path.c_str(), times), 0) << path;
}

class KillE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 600); }

  void SetUp() override {
    work_ = testing::TempDir("kill-e2e");
    site_ = work_ + "/site";
    const std::string root = Env("FEED_TEST_ROOT");
    ASSERT_EQ(testing::Shell("mkdir -p '" + site_ + "/cgi-bin' '" + work_ + "/apache/htdocs/out' && cp -r '" + root +
                             "/conf' '" + root + "/templates' '" + root + "/sql' '" + site_ + "/' && cp '" +
                             Env("FEED_TEST_BIN") + "' '" + site_ + "/cgi-bin/feed.fcgi'"),
              0);
    // The web server's user writes the redirect folder and removes the arm.
    ASSERT_EQ(testing::Shell("mkdir '" + work_ + "/arm.d'"), 0);
    if (getuid() == 0) testing::Shell("chown www-data: '" + work_ + "/apache/htdocs/out' '" + work_ + "/arm.d'");
    chmod(work_.c_str(), 0755);
    arm_ = work_ + "/arm.d/arm";
    port_ = FreePort();
    testing::Mariadb(
        "DELETE FROM feed_robot_visit WHERE feed = 'kjooble'; DELETE FROM feed_run_report WHERE feed IN "
        "('kyads', 'kjooble')");
  }
  void TearDown() override {
    testing::Shell("cd '" + Env("FEED_TEST_ROOT") + "' && tests/harness/apache.sh stop '" + work_ +
                   "/apache' >/dev/null 2>&1");
    std::filesystem::remove_all(work_);
  }

  // (Re)starts this test's Apache with `hand_off`, its processes killed at
  // `point` once armed.
  void Start(const std::string& hand_off, const std::string& point, int page_ahead = 0) {
    const std::string ini = site_ + "/kill.ini";
    std::ofstream(ini) << "[database]\nsocket = " << Env("FEED_TEST_SOCKET")
                       << "\nuser = feed\npassword = feed\nname = " << Env("FEED_TEST_DB")
                       << "\n[server]\nspool_dir = " << site_ << "/spool\nspool_memory = 0\n"
                       << "hand_off = " << hand_off << "\nredirect_dir = " << work_ << "/apache/htdocs/out\n"
                       << "redirect_url = /out\nredirect_seconds = 60\n"
                       << "[status]\nenabled = 1\ntoken = kill-test-token-0123456789abcdef\n"
                       << "[site]\ntime_zone = Europe/Kiev\nurl = http://doska.example\ntitle = Доска\n"
                       << "description = Объявления\n"
                       << "[feed kyads]\npath = /kyads\ntemplate = " << site_
                       << "/templates/yads.xml\nquery = " << site_ << "/sql/sample-yads.sql\nstate_query = " << site_
                       << "/sql/sample-yads-state.sql\n"
                       << "encoding = windows-1251\nsince = param date\ncontinue = param continue\npage_size = 1000\n"
                       << "fetch_rows = 1000\nkeyset = added id_key\nsecret = kill-test-secret-0123456789\n"
                       << "settle_seconds = 10\npage_ahead = " << page_ahead << "\n"
                       << "[feed kjooble]\npath = /kjooble\ntemplate = " << site_
                       << "/templates/jooble.xml\nquery = " << site_
                       << "/sql/sample-jooble.sql\nstate_query = " << site_
                       << "/sql/sample-jooble-state.sql\nencoding = UTF-8\nsince = robot JoobleBot\n"
                       << "fetch_rows = 1000\nkeyset = updated id\nsettle_seconds = 10\n";
    const std::string log = work_ + "/apache-start.log";
    ASSERT_EQ(testing::Shell("cd '" + Env("FEED_TEST_ROOT") + "' && FEED_STOP_AT='" + point + "@" + arm_ +
                             "' tests/harness/apache.sh start '" + work_ + "/apache' " + std::to_string(port_) + " '" +
                             site_ + "' '" + ini + "' >'" + log + "' 2>&1"),
              0)
        << Slurp(log);
  }
  void Arm() { std::ofstream(arm_) << "armed\n"; }
  bool Armed() const { return access(arm_.c_str(), F_OK) == 0; }

  Reply Get(const std::string& target, const std::string& agent) {
    const std::string head = work_ + "/head", body = work_ + "/body";
    unlink(head.c_str());
    unlink(body.c_str());
    Reply r;
    r.curl = testing::Shell("curl -s --max-time 60 -A '" + agent + "' -D '" + head + "' -o '" + body +
                            "' 'http://127.0.0.1:" + std::to_string(port_) + target + "'");
    r.head = Slurp(head);
    r.body = Slurp(body);
    if (r.head.size() > 12) r.status = std::atoi(r.head.c_str() + 9);
    return r;
  }
  static std::string Count(const std::string& sql) { return testing::Table(sql)[0][0]; }
  static std::string Reports(const std::string& feed) {
    return Count("SELECT COUNT(*) FROM feed_run_report WHERE feed = '" + feed + "'");
  }

  std::string work_, site_, arm_;
  int port_ = 0;
};

// JoobleBot's visit killed while its body is being sent, then once it is
// sent whole but not yet recorded: no record either time, so the next
// visit sends the jobs again; that one, whole, is recorded.
TEST_F(KillE2e, AJoobleVisitKilledBeforeItsRecordMovesNothing) {
  const std::string visits = "SELECT COUNT(*) FROM feed_robot_visit WHERE robot = 'JoobleBot' AND feed = 'kjooble'";
  for (const char* point : {"send.body", "send.done"}) {
    SCOPED_TRACE(point);
    Start("none", point);
    Arm();
    const Reply killed = Get("/cgi-bin/feed.fcgi/kjooble", "Mozilla/5.0 (compatible; JoobleBot/2.0)");
    EXPECT_FALSE(Armed()) << "a process reached " << point;
    if (std::string(point) == "send.body") {
      EXPECT_TRUE(killed.curl != 0 || killed.status != 200) << "the client sees the body was cut";
    }
    EXPECT_EQ(Count(visits), "0") << "no record for a visit the program did not finish";
    EXPECT_EQ(Reports("kjooble"), "0") << "nor a run report";
  }
  const Reply whole = Get("/cgi-bin/feed.fcgi/kjooble", "Mozilla/5.0 (compatible; JoobleBot/2.0)");
  EXPECT_EQ(whole.curl, 0);
  EXPECT_EQ(whole.status, 200) << whole.head;
  const size_t jobs = std::stoul(Count("SELECT COUNT(*) FROM job WHERE status = 'active'"));
  size_t items = 0;
  for (size_t at = 0; (at = whole.body.find("<job ", at)) != std::string::npos; ++at) ++items;
  EXPECT_GE(items, jobs * 9 / 10) << "the whole feed again (every current job)";
  EXPECT_TRUE(testing::PollUntil([&] { return Count(visits) == "1"; })) << "the whole visit is recorded";
  EXPECT_TRUE(testing::PollUntil([&] { return Reports("kjooble") == "1"; }));
}

// YandexBot's page killed while it is spooled, then once it is whole but
// not yet named to Apache (hand_off = x-sendfile): a 5xx, never a short
// 200; no run report; the killed process's file stays in the spool until a
// later process sweeps it (a dead owner, a minute old), while a file of a
// live process is kept.
TEST_F(KillE2e, APageKilledWhileSpooledIsNotReportedAndItsFileIsSwept) {
  const std::string spool = site_ + "/spool";
  int reported = 0;
  for (const char* point : {"spool.file", "handoff.named"}) {
    SCOPED_TRACE(point);
    Start("x-sendfile", point);
    // No process runs yet (mod_fcgid starts them on demand): what an
    // earlier round left goes.
    for (const std::string& n : Files(spool)) unlink((spool + "/" + n).c_str());
    Arm();
    const Reply killed = Get("/cgi-bin/feed.fcgi/kyads", "Mozilla/5.0 (compatible; YandexBot/3.0)");
    EXPECT_FALSE(Armed());
    EXPECT_GE(killed.status, 500) << killed.head;
    EXPECT_EQ(Reports("kyads"), std::to_string(reported));
    // Once mod_fcgid has reaped the killed process (a zombie still holds
    // its pid).
    std::set<std::string> dead;
    const bool left = testing::PollUntil([&] {
      for (const std::string& n : Files(spool)) {
        if (DeadOwner(n)) dead.insert(n);
      }
      return !dead.empty();
    });
    std::string names;
    for (const std::string& n : Files(spool)) names += " " + n;
    ASSERT_TRUE(left) << "the killed process's body is left in " << spool << ":" << names;
    for (const std::string& n : dead) Age(spool + "/" + n, 120);
    // A file of a process that lives (this test's), as old.
    const std::string live = spool + "/feed-" + std::to_string(getpid()) + "-1";
    std::ofstream(live) << "x";
    Age(live, 120);

    const Reply next = Get("/cgi-bin/feed.fcgi/kyads", "Mozilla/5.0 (compatible; YandexBot/3.0)");
    EXPECT_EQ(next.curl, 0);
    ASSERT_EQ(next.status, 200) << next.head;
    EXPECT_NE(next.body.find("</yml_catalog>"), std::string::npos) << "the page whole";
    for (const std::string& n : dead) EXPECT_FALSE(std::filesystem::exists(spool + "/" + n)) << n << " swept";
    EXPECT_TRUE(std::filesystem::exists(live)) << "a live process's file is kept";
    ++reported;
    EXPECT_TRUE(testing::PollUntil([&] { return Reports("kyads") == std::to_string(reported); }))
        << "the whole page is reported";
    unlink(live.c_str());
  }
}

// hand_off = redirect: killed once the body is in redirect_dir, before the
// 302: a 5xx, no run report; the published file goes when its lifetime has
// passed, at the next publication, and the next page is sent whole.
TEST_F(KillE2e, APageKilledBeforeItsRedirectIsNotReportedAndItsFileGoes) {
  Start("redirect", "handoff.moved");
  Arm();
  const Reply killed = Get("/cgi-bin/feed.fcgi/kyads", "Mozilla/5.0 (compatible; YandexBot/3.0)");
  EXPECT_FALSE(Armed());
  EXPECT_GE(killed.status, 500) << killed.head;
  EXPECT_EQ(Reports("kyads"), "0");
  const std::string out = work_ + "/apache/htdocs/out";
  const std::set<std::string> left = Files(out);
  ASSERT_EQ(left.size(), 1u) << "the body moved there before the kill";
  Age(out + "/" + *left.begin(), 120);

  const Reply moved = Get("/cgi-bin/feed.fcgi/kyads", "Mozilla/5.0 (compatible; YandexBot/3.0)");
  ASSERT_EQ(moved.status, 302) << moved.head;
  EXPECT_FALSE(std::filesystem::exists(out + "/" + *left.begin())) << "past its lifetime: removed";
  const size_t at = moved.head.find("Location: ");
  ASSERT_NE(at, std::string::npos);
  const std::string location = moved.head.substr(at + 10, moved.head.find('\r', at) - at - 10);
  const Reply page = Get(location, "Mozilla/5.0 (compatible; YandexBot/3.0)");
  EXPECT_EQ(page.status, 200) << location;
  EXPECT_NE(page.body.find("</yml_catalog>"), std::string::npos);
  EXPECT_TRUE(testing::PollUntil([&] { return Reports("kyads") == "1"; }));
}

// The refs of a Yads page, and its continue token ("" on the last page).
std::vector<std::string> Refs(const std::string& body, std::string* token) {
  std::vector<std::string> refs;
  for (size_t at = 0; (at = body.find("<id>", at)) != std::string::npos;) {
    const size_t end = body.find("</id>", at);
    refs.push_back(body.substr(at + 4, end - at - 4));
    at = end;
  }
  const size_t c = body.find("<continue>");
  *token = c == std::string::npos ? "" : body.substr(c + 10, body.find("</continue>", c) - c - 10);
  return refs;
}

// YandexBot's run (page_ahead = 2): the process that sent page 1 is killed
// while it makes page 2 ahead. Page 2's request, on another process, finds
// the making ended without a page and reads the page itself; the run goes
// on to its end and gives every ad once, as a run nobody killed gives
// them; the killed making's files (its lock, its body) are swept.
TEST_F(KillE2e, APageMadeAheadKilledIsReadByItsRequestAndTheRunLosesNothing) {
  Start("x-sendfile", "ahead.made", 2);
  const std::string spool = site_ + "/spool", bot = "Mozilla/5.0 (compatible; YandexBot/3.0)";
  auto walk = [&](const std::function<void()>& after_first) {
    std::vector<std::string> refs;
    std::string token;
    for (int page = 0; page == 0 || !token.empty(); ++page) {
      const Reply r = Get("/cgi-bin/feed.fcgi/kyads" + (token.empty() ? "" : "?continue=" + token), bot);
      EXPECT_EQ(r.status, 200) << r.head;
      EXPECT_NE(r.body.find("</yml_catalog>"), std::string::npos) << "page " << page + 1 << " whole";
      if (r.status != 200 || page > 20) break;
      const std::vector<std::string> got = Refs(r.body, &token);
      refs.insert(refs.end(), got.begin(), got.end());
      if (page == 0 && after_first) after_first();
    }
    return refs;
  };
  Arm();
  std::set<std::string> dead;
  const std::vector<std::string> killed_run = walk([&] {
    // Page 1 is sent; its process dies making page 2 (and mod_fcgid reaps
    // it). Then a minute passes for its files.
    ASSERT_TRUE(testing::PollUntil([&] {
      dead.clear();
      for (const std::string& n : Files(spool)) {
        if (DeadOwner(n)) dead.insert(n);
      }
      return !Armed() && !dead.empty();
    }));
    for (const std::string& n : Files(spool)) {
      if (dead.count(n) || n.rfind("ahead-", 0) == 0) Age(spool + "/" + n, 120);
    }
  });
  for (const std::string& n : dead) EXPECT_FALSE(std::filesystem::exists(spool + "/" + n)) << n << " swept";
  const std::vector<std::string> whole_run = walk(nullptr);
  EXPECT_GT(whole_run.size(), 2000u) << "several pages";
  EXPECT_EQ(killed_run, whole_run) << "the same ads, each once, in the same order";
  EXPECT_EQ(std::set<std::string>(whole_run.begin(), whole_run.end()).size(), whole_run.size());
}

}  // namespace
}  // namespace feed
