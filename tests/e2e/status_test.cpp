// The status page end to end: the real feed.fcgi under Apache mod_fcgid
// (the site's config enables it with a random token, FEED_TEST_STATUS_TOKEN),
// fetched with curl and loaded in a real browser (headless Chromium). The
// test makes feed requests of its own, then checks that the page reports
// exactly what they got; refused requests get 403 with an empty body; the
// nginx site's config leaves the page off, and there it is 404.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
};

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// One request through curl (HTTP/1.1, no compression asked for).
HttpReply Curl(const std::string& url, const std::vector<std::string>& headers = {},
               const std::string& method = "GET") {
  const std::string dir = testing::TempDir("status-curl");
  std::string cmd =
      "curl -sS --max-time 60 -X " + method + " -D " + Quote(dir + "/head") + " -o " + Quote(dir + "/body");
  if (method == "HEAD") cmd = "curl -sS --max-time 60 -I -D " + Quote(dir + "/head") + " -o " + Quote(dir + "/body");
  for (const std::string& h : headers) cmd += " -H " + Quote(h);
  cmd += " " + Quote(url);
  HttpReply r;
  if (testing::Shell(cmd) != 0) ADD_FAILURE() << "curl failed: " << url;
  std::istringstream head(testing::Slurp(dir + "/head"));
  std::string line;
  while (std::getline(head, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {
      r.status = std::stoi(line.substr(line.find(' ') + 1, 3));
      r.headers.clear();
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = line.substr(std::min(line.size(), colon + 2));
  }
  r.body = testing::Slurp(dir + "/body");
  testing::Shell("rm -rf " + Quote(dir));
  return r;
}

std::string Url(const std::string& path) { return Env("FEED_TEST_URL") + path; }
std::string Token() { return Env("FEED_TEST_STATUS_TOKEN"); }

// The sample config's feeds, as the status page lists them: each [feed]
// with a path, in file order, then each [set].
const std::vector<std::string> kServed = {"yads", "jooble", "jooble-full", "rss",     "atom",  "msn",
                                          "indeed", "careerjet", "sitemap", "baidu", "urls"};

constexpr char kProbe[] = "Mozilla/5.0 (compatible; StatusProbeBot/1.0)";

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// What this test's own requests got, straight from the responses.
struct Made {
  size_t rss_items = 0, rss_bytes = 0;
};

class StatusE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(1000, 100, 3); }

  // Feed requests whose answers the page must then show: the newest ads
  // to a robot of the test's own, a 400 to a person, JoobleBot's whole
  // visit of its feed.
  static Made MakeRequests() {
    Made m;
    HttpReply rss = Curl(Url("/rss"), {std::string("User-Agent: ") + kProbe});
    EXPECT_EQ(rss.status, 200);
    EXPECT_EQ(rss.headers.count("content-encoding"), 0u);
    m.rss_items = Count(rss.body, "<item>");
    m.rss_bytes = rss.body.size();
    EXPECT_EQ(m.rss_items, 50u);  // max_items of a newest-first feed
    HttpReply bad = Curl(Url("/yads?date=yesterday"), {"User-Agent: status-e2e person"});
    EXPECT_EQ(bad.status, 400);
    HttpReply jooble = Curl(Url("/jooble"), {"User-Agent: JoobleBot/2.0"});
    EXPECT_EQ(jooble.status, 200);
    return m;
  }

  static nlohmann::json Status() {
    HttpReply r = Curl(Url("/status"), {"Authorization: Bearer " + Token(), "Accept: application/json"});
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body.find(Token()), std::string::npos) << "the token is echoed";
    try {
      return nlohmann::json::parse(r.body);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << ": " << r.body.substr(0, 300);
      return {};
    }
  }

  static const nlohmann::json* Newest(const nlohmann::json& status, const std::string& feed) {
    if (!status.contains("feeds")) return nullptr;
    for (const auto& f : status["feeds"]) {
      if (f["name"] == feed && !f["responses"].empty()) return &f["responses"][0];
    }
    return nullptr;
  }

  // Reports are written after each response went out: wait until the page
  // shows all three of this test's.
  static nlohmann::json StatusAfter(int64_t since) {
    nlohmann::json s;
    bool seen = testing::PollUntil([&] {
      s = Status();
      const auto *rss = Newest(s, "rss"), *yads = Newest(s, "yads"), *jooble = Newest(s, "jooble");
      return rss && yads && jooble && (*rss)["robot"] == "StatusProbeBot" && (*rss)["at"] >= since &&
             (*yads)["status"] == 400 && (*yads)["at"] >= since && (*jooble)["robot"] == "JoobleBot" &&
             (*jooble)["at"] >= since;
    });
    EXPECT_TRUE(seen) << "the page never showed the test's requests: " << s.dump().substr(0, 2000);
    return s;
  }
};

TEST_F(StatusE2e, TheJsonReportsWhatTheRequestsGot) {
  const int64_t since = time(nullptr);
  testing::Mariadb("DELETE FROM feed_robot_visit WHERE robot = 'JoobleBot'");
  const Made made = MakeRequests();
  const nlohmann::json s = StatusAfter(since);

  std::vector<std::string> names;
  for (const auto& f : s["feeds"]) names.push_back(f["name"]);
  EXPECT_EQ(names, kServed);
  const nlohmann::json& rss = *Newest(s, "rss");
  EXPECT_EQ(rss["status"], 200);
  EXPECT_EQ(rss["rows"], made.rss_items);
  EXPECT_EQ(rss["bytes"], made.rss_bytes);
  EXPECT_EQ(rss["client"], "127.0.0.1");
  EXPECT_GE(rss["millis"].get<int64_t>(), 0);
  EXPECT_LE(rss["at"].get<int64_t>(), time(nullptr));
  const nlohmann::json& yads = *Newest(s, "yads");
  EXPECT_EQ(yads["robot"], "");
  EXPECT_EQ(yads["rows"], 0);
  const nlohmann::json& jooble = *Newest(s, "jooble");
  EXPECT_EQ(jooble["status"], 200);
  EXPECT_GT(jooble["rows"].get<int64_t>(), 0);

  // JoobleBot's whole visit, as the program recorded it.
  bool visit = false;
  for (const auto& v : s["robot_visits"]) {
    if (v["robot"] == "JoobleBot" && v["feed"] == "jooble") visit = !v["last_visit"].get<std::string>().empty();
  }
  EXPECT_TRUE(visit) << s["robot_visits"].dump();

  EXPECT_EQ(s["database"]["reachable"], true);
  EXPECT_GE(s["database"]["connection_age_seconds"].get<int64_t>(), 0);
  EXPECT_FALSE(s["version"].get<std::string>().empty());
  const std::string config = s["config"];
  EXPECT_EQ(config.substr(config.size() - std::string("/conf/sample-board.ini").size()), "/conf/sample-board.ini");

  // ?format=json is the same for a browser.
  HttpReply q = Curl(Url("/status?format=json&token=" + Token()));
  EXPECT_EQ(q.status, 200);
  EXPECT_EQ(q.headers["content-type"], "application/json; charset=utf-8");
}

TEST_F(StatusE2e, RefusedRequestsGet403AndAnEmptyBody) {
  struct Case {
    std::string query;
    std::vector<std::string> headers;
    const char* what;
  } cases[] = {
      {"", {}, "no token"},
      {"?format=json", {"Accept: application/json"}, "no token, JSON"},
      {"", {"Authorization: Bearer wrong-token-0123456789abcdef"}, "wrong token in the header"},
      {"?token=wrong-token-0123456789abcdef", {}, "wrong token in the query"},
      {"?token=" + Token().substr(1), {}, "the token less a character"},
      {"", {"Authorization: Basic " + Token()}, "the token under another scheme"},
  };
  for (const Case& c : cases) {
    HttpReply r = Curl(Url("/status" + c.query), c.headers);
    EXPECT_EQ(r.status, 403) << c.what;
    EXPECT_EQ(r.body, "") << c.what;
  }
  HttpReply head = Curl(Url("/status"), {}, "HEAD");
  EXPECT_EQ(head.status, 403);
  // The right one, by header and by query.
  EXPECT_EQ(Curl(Url("/status"), {"Authorization: Bearer " + Token()}).status, 200);
  HttpReply html = Curl(Url("/status?token=" + Token()));
  EXPECT_EQ(html.status, 200);
  EXPECT_EQ(html.headers["content-type"], "text/html; charset=utf-8");
  EXPECT_EQ(html.body.find(Token()), std::string::npos);
}

TEST_F(StatusE2e, OffInTheConfigItIsNotFound) {
  // The nginx site runs the same program and board with the shipped
  // config's [status] left off.
  HttpReply r = Curl(Env("FEED_TEST_NGINX_URL") + "/status?token=" + Token(), {"Authorization: Bearer " + Token()});
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body.find(Token()), std::string::npos);
  // ...and its feeds are served all the same.
  EXPECT_EQ(Curl(Env("FEED_TEST_NGINX_URL") + "/rss").status, 200);
}

// The page in a real browser: headless Chromium (Debian's chromium) loads
// it from Apache; the DOM it built has a row per feed, with the numbers
// the test's requests produced; screenshots at a phone's and a desktop's
// width go to FEED_TEST_OUTPUT.
TEST_F(StatusE2e, ChromiumShowsARowPerFeedWithTheNumbers) {
  const std::string chromium = "/usr/bin/chromium";
  ASSERT_EQ(access(chromium.c_str(), X_OK), 0)
      << "chromium is not installed: tools/deps.sh installs it (apt-get install chromium)";
  const int64_t since = time(nullptr);
  const Made made = MakeRequests();
  StatusAfter(since);  // the reports are in

  const std::string out = Env("FEED_TEST_OUTPUT");
  const std::string profile = testing::TempDir("status-chromium");
  // As root Chromium runs only without its sandbox.
  const std::string base = "timeout 120 " + chromium + " --headless --disable-gpu --no-first-run " +
                           "--disable-dev-shm-usage --hide-scrollbars --user-data-dir=" + Quote(profile) +
                           (geteuid() == 0 ? " --no-sandbox" : "");
  const std::string page = Url("/status?token=" + Token());
  const std::string dom_file = out + "/status-dom.html";
  ASSERT_EQ(testing::Shell(base + " --dump-dom " + Quote(page) + " >" + Quote(dom_file) + " 2>" +
                           Quote(out + "/chromium-dom.log")),
            0)
      << testing::Slurp(out + "/chromium-dom.log");
  const std::string dom = testing::Slurp(dom_file);
  ASSERT_NE(dom.find("<h1>feed.fcgi status</h1>"), std::string::npos) << dom.substr(0, 500);
  EXPECT_EQ(dom.find(Token()), std::string::npos) << "the token is in the page";

  // A row per feed, in order: <tr class="feed" data-feed="NAME">...</tr>.
  std::vector<std::string> rows;
  std::map<std::string, std::string> row_html;
  const std::string open = "<tr class=\"feed\" data-feed=\"";
  for (size_t at = dom.find(open); at != std::string::npos; at = dom.find(open, at)) {
    const size_t name_end = dom.find("\">", at + open.size());
    const size_t row_end = name_end == std::string::npos ? name_end : dom.find("</tr>", name_end);
    if (row_end == std::string::npos) break;
    const std::string name = dom.substr(at + open.size(), name_end - at - open.size());
    rows.push_back(name);
    row_html[name] = dom.substr(name_end + 2, row_end - name_end - 2);
    at = row_end;
  }
  EXPECT_EQ(rows, kServed);
  // The cells of rss's newest response: this test's request. A cell is
  // <td class="CLS ...">TEXT</td>; "?" when it holds markup or is missing.
  auto cell = [&](const std::string& feed, const std::string& cls) {
    const std::string& h = row_html[feed];
    const size_t at = h.find("<td class=\"" + cls);
    const size_t gt = at == std::string::npos ? at : h.find('>', at);
    const size_t end = gt == std::string::npos ? gt : h.find("</td>", gt);
    if (end == std::string::npos) return std::string("?");
    const std::string text = h.substr(gt + 1, end - gt - 1);
    return text.find('<') == std::string::npos ? text : std::string("?");
  };
  EXPECT_EQ(cell("rss", "status"), "200");
  EXPECT_EQ(cell("rss", "rows"), std::to_string(made.rss_items));
  EXPECT_EQ(cell("rss", "bytes"), std::to_string(made.rss_bytes));
  EXPECT_NE(row_html["rss"].find("<span class=\"robot\">StatusProbeBot</span>"), std::string::npos) << row_html["rss"];
  EXPECT_EQ(cell("yads", "status"), "400");
  EXPECT_NE(row_html["jooble"].find("<span class=\"robot\">JoobleBot</span>"), std::string::npos);
  EXPECT_NE(dom.find("id=\"db-reachable\">reachable</p>"), std::string::npos);
  EXPECT_NE(dom.find("data-robot=\"JoobleBot\" data-feed=\"jooble\""), std::string::npos);

  // Screenshots: a phone's width and a desktop's.
  for (const auto& [name, size] : std::vector<std::pair<std::string, std::string>>{
           {"status-phone.png", "412,915"}, {"status-desktop.png", "1280,1000"}}) {
    const std::string png = out + "/" + name;
    unlink(png.c_str());
    ASSERT_EQ(testing::Shell(base + " --window-size=" + size + " --screenshot=" + Quote(png) + " " + Quote(page) +
                             " >" + Quote(out + "/chromium-shot.log") + " 2>&1"),
              0)
        << testing::Slurp(out + "/chromium-shot.log");
    const std::string bytes = testing::Slurp(png);
    ASSERT_GT(bytes.size(), 1000u) << png;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << png;
    std::printf("screenshot: %s\n", png.c_str());
  }
  std::printf("DOM as Chromium built it: %s\n", dom_file.c_str());
  testing::Shell("rm -rf " + Quote(profile));
}

}  // namespace
}  // namespace feed
