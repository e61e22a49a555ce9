// End to end, as a hostile or unlucky client meets the feeds through the
// real Apache (the shipped snippet, conf/apache-feed.conf) and mod_fcgid:
// slow readers, visits cut where the program cannot see it, a frozen
// database, request bodies, OPTIONS, look-alike parameters, hang-ups.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "datetime.h"
#include "output.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using Clock = std::chrono::steady_clock;

// The Apache the harness started: its port and the program's URL path.
int Port() {
  std::string url = Env("FEED_TEST_URL");  // http://127.0.0.1:PORT/cgi-bin/feed.fcgi
  return std::stoi(url.substr(url.rfind(':') + 1));
}
std::string Path(const std::string& target) {
  std::string url = Env("FEED_TEST_URL");
  return url.substr(url.find('/', url.find("//") + 2)) + target;
}

// One client connection, read as slowly or as partly as a test wants.
class Conn {
 public:
  // Sends `request` (method, target under the program, headers, body).
  // `rcvbuf` > 0 shrinks the socket's receive buffer first (a slow reader).
  Conn(const std::string& method, const std::string& target, const std::vector<std::string>& headers = {},
       const std::string& body = "", int rcvbuf = 0) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    if (rcvbuf > 0) setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(Port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ADD_FAILURE() << "cannot connect";
      return;
    }
    // HTTP/1.0, but a chunked body exists in HTTP/1.1 only (nginx refuses
    // it in 1.0 with a 400 before anything else).
    const bool chunked = std::any_of(headers.begin(), headers.end(),
                                     [](const std::string& h) { return h.rfind("Transfer-Encoding:", 0) == 0; });
    std::string req = method + " " + Path(target) + (chunked ? " HTTP/1.1\r\nConnection: close" : " HTTP/1.0") +
                      "\r\nHost: 127.0.0.1\r\n";
    for (const std::string& h : headers) req += h + "\r\n";
    req += "\r\n" + body;
    for (size_t sent = 0; sent < req.size();) {
      ssize_t n = send(fd_, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;  // the server may refuse a body before taking it all
      sent += static_cast<size_t>(n);
    }
  }
  ~Conn() { Close(); }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  // Reads until `bytes` have come (head included), the end, or the
  // deadline; false on the deadline.
  bool ReadAtLeast(size_t bytes, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    char buf[65536];
    while (raw.size() < bytes && !ended) {
      int left =
          static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, left) <= 0) return false;
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        ended = true;
        break;
      }
      raw.append(buf, static_cast<size_t>(n));
    }
    return true;
  }
  bool ReadAll(int timeout_ms) { return ReadAtLeast(SIZE_MAX, timeout_ms) && ended; }

  int status() const { return raw.size() > 12 ? std::stoi(raw.substr(9, 3)) : 0; }
  std::string Header(const std::string& name) const {
    size_t end = raw.find("\r\n\r\n");
    std::string head = raw.substr(0, end);
    std::string want = "\r\n" + name + ":";
    auto it = std::search(head.begin(), head.end(), want.begin(), want.end(),
                          [](char a, char b) { return std::tolower(a) == std::tolower(b); });
    if (it == head.end()) return "";
    size_t at = static_cast<size_t>(it - head.begin()) + want.size();
    size_t eol = head.find("\r\n", at);
    std::string v = head.substr(at, eol == std::string::npos ? std::string::npos : eol - at);
    return v.substr(v.find_first_not_of(' '));
  }
  std::string Body() const {
    size_t end = raw.find("\r\n\r\n");
    return end == std::string::npos ? "" : raw.substr(end + 4);
  }
  // The transfer came whole: the body is as long as Content-Length says
  // (every response of the feeds to HTTP/1.0 carries one, or ends with
  // the connection when Apache compresses it).
  bool Whole() const {
    std::string cl = Header("Content-Length");
    return ended && (cl.empty() ? Header("Content-Encoding") == "gzip" : Body().size() == std::stoull(cl));
  }

  std::string raw;
  bool ended = false;

 private:
  int fd_ = -1;
};

std::string SiteTime(int64_t unix_seconds) { return FormatSqlDateTime(testing::Kiev().FromUnix(unix_seconds)); }

std::set<std::string> JobIds(const std::string& xml) {
  std::set<std::string> ids;
  for (size_t at = xml.find("<job id=\""); at != std::string::npos; at = xml.find("<job id=\"", at + 1)) {
    ids.insert(xml.substr(at + 9, xml.find('"', at + 9) - at - 9));
  }
  return ids;
}

class HostileE2e : public ::testing::Test {};

// Four times as many slow readers as feed processes, each holding a
// multi-megabyte response it reads a kilobyte of: small requests still
// get their answer from the program, and every slow reader, once it
// reads on, gets its whole response.
TEST_F(HostileE2e, SlowReadersDoNotBlockOtherRequests) {
  testing::LoadSampleBoard(3000, 40000);
  const int processes = 8;  // FcgidMaxProcesses in tests/harness/apache.sh
  std::vector<std::unique_ptr<Conn>> slow;
  for (int i = 0; i < 4 * processes; ++i) {
    slow.push_back(std::make_unique<Conn>("GET", "/jooble-full", std::vector<std::string>{}, "", 4096));
    ASSERT_TRUE(slow.back()->ReadAtLeast(1024, 60000)) << "slow reader " << i << " got nothing";
  }
  std::vector<double> ms;
  for (int i = 0; i < 40; ++i) {
    const auto t0 = Clock::now();
    Conn c("GET", "/no-such-feed");
    ASSERT_TRUE(c.ReadAll(30000)) << "a small request got no answer while slow readers held their responses";
    EXPECT_EQ(c.status(), 404) << c.raw.substr(0, 200);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("small requests beside %d slow readers: p50 %.1f ms, p99 %.1f ms\n", 4 * processes, ms[ms.size() / 2],
              ms[ms.size() * 99 / 100]);
  size_t size = 0;
  for (auto& s : slow) {
    EXPECT_FALSE(s->ended) << "a slow reader's response ended before it read on";
    ASSERT_TRUE(s->ReadAll(120000));
    EXPECT_EQ(s->status(), 200);
    EXPECT_TRUE(s->Whole()) << s->raw.substr(0, 300);
    EXPECT_NE(s->Body().find("</jobs>"), std::string::npos);
    size = s->Body().size();
  }
  EXPECT_GT(size, 2u << 20) << "each slow reader should hold a multi-megabyte response";
}

// Many robots at once, each response handed to Apache by name: every one
// arrives whole. (A spool file removed before Apache opened it is a 404
// from mod_xsendfile; that race is rare here, its rule is unit-tested in
// spool_test.cpp.)
TEST_F(HostileE2e, ConcurrentHandedOffResponsesAllArriveWhole) {
  testing::LoadSampleBoard(3000, 100);
  std::atomic<int> whole{0}, broken{0};
  std::vector<std::thread> robots;
  for (int r = 0; r < 12; ++r) {
    robots.emplace_back([&] {
      for (int i = 0; i < 15; ++i) {
        Conn c("GET", "/yads");
        if (c.ReadAll(60000) && c.status() == 200 && c.Whole() &&
            c.Body().find("</yml_catalog>") != std::string::npos && c.Body().size() > 200000) {
          ++whole;
        } else {
          ++broken;
        }
      }
    });
  }
  for (auto& t : robots) t.join();
  EXPECT_EQ(broken.load(), 0);
  EXPECT_EQ(whole.load(), 12 * 15);
}

// JoobleBot's visit is cut after any number of bytes, gzip or not, where
// the program cannot see it (Apache has the whole response): the next
// visit still carries every job the cut one did beyond the visit before.
TEST_F(HostileE2e, AVisitCutUnseenLosesNoJob) {
  testing::LoadSampleBoard(300, 3000);
  const int64_t now = Now();
  const std::string t0 = SiteTime(now - 7200), t1 = SiteTime(now - 3600);
  for (const char* encoding : {"identity", "gzip"}) {
    for (size_t cut_at : {size_t{1}, size_t{20000}, size_t{0}}) {
      SCOPED_TRACE(std::string(encoding) + ", cut after " + std::to_string(cut_at) + " bytes");
      // Jobs changed long ago, a few between the two visits before (sent
      // whole by the last one), more since.
      testing::Mariadb("DELETE FROM feed_robot_visit; UPDATE job SET updated = '" + SiteTime(now - 86400) +
                       "'; UPDATE job SET status = 'active', contacts = 'hr@example.com', updated = '" +
                       SiteTime(now - 5000) +
                       "' WHERE id % 100 = 1; UPDATE job SET status = 'active', contacts = "
                       "'hr@example.com', updated = '" +
                       SiteTime(now - 60) + "' WHERE id % 10 = 2");
      testing::Mariadb(
          "INSERT INTO feed_robot_visit (robot, feed, last_visit, previous_visit, recorded) VALUES "
          "('JoobleBot', 'jooble', '" +
          t1 + "', '" + t0 + "', NOW())");
      std::set<std::string> since_last;
      for (const auto& row : testing::Table("SELECT id FROM job WHERE id % 10 = 2")) since_last.insert(row[0]);
      std::vector<std::string> headers = {"User-Agent: JoobleBot/2.0"};
      if (std::string(encoding) == "gzip") headers.push_back("Accept-Encoding: gzip");
      {
        Conn cut("GET", "/jooble", headers);
        if (cut_at) {
          ASSERT_TRUE(cut.ReadAtLeast(cut_at, 30000));
        } else {
          ASSERT_TRUE(cut.ReadAll(30000));  // all but the robot's own parse: it "crashed" after reading
        }
      }
      // Under Apache the record moves (the program could not tell), and
      // nothing is lost. nginx closes the program's connection when its
      // own write to the client fails, if it has not read the whole
      // response by then: the visit is recorded or not by a race, and
      // either way nothing is lost.
      const bool moved = testing::PollUntil([&] {
        return testing::Table("SELECT last_visit FROM feed_robot_visit WHERE feed = 'jooble'")[0][0] != t1;
      });
      if (std::getenv("FEED_TEST_FRONT") == nullptr || std::string(std::getenv("FEED_TEST_FRONT")) != "nginx") {
        ASSERT_TRUE(moved) << "the cut visit was not recorded: this test then proves nothing";
      }
      Conn next("GET", "/jooble", {"User-Agent: JoobleBot/2.0"});
      ASSERT_TRUE(next.ReadAll(30000));
      ASSERT_EQ(next.status(), 200);
      std::set<std::string> got = JobIds(next.Body());
      for (const std::string& id : since_last) EXPECT_EQ(got.count(id), 1u) << "job " << id << " lost";
    }
  }
}

// The database freezes (SIGSTOP): a request gets 503 with Retry-After within
// the configured timeouts (the test site's read_timeout = 4, connect_timeout
// = 2), long before Apache's FcgidIOTimeout, and the same process answers
// 200 once the database is back.
TEST_F(HostileE2e, AFrozenDatabaseIsA503InBoundedTime) {
  testing::LoadSampleBoard(100, 100);
  Conn warm("GET", "/yads");
  ASSERT_TRUE(warm.ReadAll(30000));
  ASSERT_EQ(warm.status(), 200);
  std::string pid;
  std::ifstream(Env("FEED_TEST_DB_DIR") + "/run/mariadbd.pid") >> pid;
  ASSERT_FALSE(pid.empty());
  ASSERT_EQ(kill(std::stoi(pid), SIGSTOP), 0);
  const auto t0 = Clock::now();
  Conn frozen("GET", "/yads?date=2026-01-01%2000:00:00");
  const bool answered = frozen.ReadAll(60000);
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  kill(std::stoi(pid), SIGCONT);
  ASSERT_TRUE(answered) << "no answer within 60 s";
  EXPECT_EQ(frozen.status(), 503) << frozen.raw.substr(0, 300);
  EXPECT_EQ(frozen.Header("Retry-After"), "60");
  EXPECT_LE(secs, 2 * (2 + 4) + 5) << "longer than 2 x (connect + read timeout)";
  std::printf("frozen database: 503 after %.1f s\n", secs);
  Conn back("GET", "/yads");
  ASSERT_TRUE(back.ReadAll(30000));
  EXPECT_EQ(back.status(), 200);
}

TEST_F(HostileE2e, RequestBodiesAre413AndOptionsIs204) {
  const std::string big(1 << 20, 'x');
  for (const char* method : {"POST", "GET", "PUT"}) {
    Conn c(method, "/yads", {"Content-Type: text/plain", "Content-Length: " + std::to_string(big.size())}, big);
    ASSERT_TRUE(c.ReadAll(30000));
    EXPECT_EQ(c.status(), 413) << method << ": " << c.raw.substr(0, 200);
  }
  Conn chunked("POST", "/yads", {"Transfer-Encoding: chunked"}, "5\r\nhello\r\n0\r\n\r\n");
  ASSERT_TRUE(chunked.ReadAll(30000));
  EXPECT_EQ(chunked.status(), 413);
  Conn options("OPTIONS", "/yads");
  ASSERT_TRUE(options.ReadAll(30000));
  EXPECT_EQ(options.status(), 204);
  EXPECT_EQ(options.Header("Allow"), "GET, HEAD, OPTIONS");
  EXPECT_EQ(options.Body(), "");
  Conn post("POST", "/yads");
  ASSERT_TRUE(post.ReadAll(30000));
  EXPECT_EQ(post.status(), 405);
  EXPECT_EQ(post.Header("Allow"), "GET, HEAD, OPTIONS");
}

TEST_F(HostileE2e, ErrorsAreNosniffAndA404NamesNoFeed) {
  Conn c("GET", "/no-such-feed");
  ASSERT_TRUE(c.ReadAll(30000));
  EXPECT_EQ(c.status(), 404);
  EXPECT_EQ(c.Header("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(c.Header("Content-Type"), "text/plain; charset=utf-8");
  for (const char* path : {"yads", "jooble", "sitemap", "rss", "atom"}) {
    EXPECT_EQ(c.Body().find(path), std::string::npos) << c.Body();
  }
  Conn bad("GET", "/yads?date=yesterday");
  ASSERT_TRUE(bad.ReadAll(30000));
  EXPECT_EQ(bad.status(), 400);
  EXPECT_EQ(bad.Header("X-Content-Type-Options"), "nosniff");
}

// A parameter the feed knows, in another case or with brackets, would have
// been ignored and the whole feed sent instead of the increment.
TEST_F(HostileE2e, LookAlikeParametersAre400NamingThem) {
  for (const char* query : {"Date=2026-11-01%2000:00:00", "DATE=2026-11-01%2000:00:00", "date%5B%5D=2026-11-01",
                            "date[0]=2026-11-01", "Continue=abc"}) {
    Conn c("GET", std::string("/yads?") + query);
    ASSERT_TRUE(c.ReadAll(30000));
    EXPECT_EQ(c.status(), 400) << query;
    std::string name = query;
    name = name.substr(0, name.find('='));
    if (name.find('%') == std::string::npos) {
      EXPECT_NE(c.Body().find("'" + name + "'"), std::string::npos) << c.Body();
    }
  }
  Conn ok("GET", "/yads?utm_source=x");
  ASSERT_TRUE(ok.ReadAll(30000));
  EXPECT_EQ(ok.status(), 200);
}

// Clients hanging up mid-feed cost no database reconnects: the program
// makes the whole body before sending any of it, so a hang-up never
// interrupts a query.
TEST_F(HostileE2e, HangUpsForceNoReconnects) {
  testing::LoadSampleBoard(3000, 3000);
  auto connections = [] { return std::stoll(testing::Table("SHOW GLOBAL STATUS LIKE 'Connections'")[0][1]); };
  // Warm every process up (each opens its connection once).
  for (int i = 0; i < 16; ++i) {
    Conn c("GET", "/yads");
    ASSERT_TRUE(c.ReadAll(30000));
  }
  const long long before = connections();
  for (int i = 0; i < 30; ++i) {
    Conn c("GET", "/yads");
    ASSERT_TRUE(c.ReadAtLeast(4096, 30000));
  }
  Conn last("GET", "/yads");
  ASSERT_TRUE(last.ReadAll(30000));
  EXPECT_EQ(last.status(), 200);
  // One connection is the count's own query; processes may have been
  // started, one connection each (FcgidMaxProcesses 8).
  EXPECT_LE(connections() - before, 1 + 8) << "hang-ups made the processes reconnect";
}

}  // namespace
}  // namespace feed
