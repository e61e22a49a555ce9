// The status page without servers: the [status] config, the access rule,
// which robot asked, the run report made of a response, the choice of
// JSON, and the HTML and JSON made from a given set of reports.
#include "status.h"

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "error.h"
#include "status_access.h"

namespace feed {
namespace {

const char kBase[] =
    "[database]\nsocket = /nonexistent/feed-status-test.sock\nuser = feed\nname = sample\nconnect_timeout = 1\n"
    "[site]\ntime_zone = Europe/Kiev\n"
    "[feed yads]\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n";

const char kToken[] = "Zq8v3LxT0pW2mB7nR5sY";

Config Parse(const std::string& status) {
  return ParseConfig(std::string(kBase) + status, "f.ini", "/etc/feed");
}

std::string ErrorOf(const std::string& status) {
  try {
    Parse(status);
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    return e.what();
  }
  return "(accepted)";
}

TEST(StatusConfig, OffUnlessEnabled) {
  Config c = Parse("");
  EXPECT_FALSE(c.status.enabled);
  c = Parse(std::string("[status]\nenabled = 0\ntoken = ") + kToken + "\n");
  EXPECT_FALSE(c.status.enabled);
  c = Parse(std::string("[status]\nenabled = 1\ntoken = ") + kToken + "\n");
  EXPECT_TRUE(c.status.enabled);
  EXPECT_EQ(c.status.path, "/status");
  EXPECT_EQ(c.status.token, kToken);
  EXPECT_EQ(c.status.reports, 20);
  c = Parse("[status]\nenabled = 1\npath = /feeds-status\nallow = 127.0.0.1 ::1, 10.0.0.0/8\nreports = 5\n");
  EXPECT_EQ(c.status.path, "/feeds-status");
  EXPECT_EQ(c.status.allow, (std::vector<std::string>{"127.0.0.1", "::1", "10.0.0.0/8"}));
  EXPECT_EQ(c.status.reports, 5);
}

TEST(StatusConfig, NeverPublicByAccident) {
  const std::string e = ErrorOf("[status]\nenabled = 1\n");
  EXPECT_NE(e.find("f.ini:12: [status] enabled = 1 needs token"), std::string::npos) << e;
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow =\n").find("needs token"), std::string::npos);
}

TEST(StatusConfig, RefusesBadValuesWithoutEchoingTheToken) {
  const std::string weak = ErrorOf("[status]\nenabled = 1\ntoken = short-secret\n");
  EXPECT_NE(weak.find("f.ini:14: token must be at least 16 characters"), std::string::npos) << weak;
  EXPECT_EQ(weak.find("short-secret"), std::string::npos) << weak;
  const std::string placeholder = ErrorOf("[status]\nenabled = 1\ntoken = change-me-0123456789abcdef\n");
  EXPECT_NE(placeholder.find("placeholder"), std::string::npos) << placeholder;
  EXPECT_EQ(placeholder.find("0123456789abcdef"), std::string::npos) << placeholder;
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow = localhost\n").find("allow lists IP addresses"), std::string::npos);
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow = 10.0.0.0/33\n").find("'10.0.0.0/33'"), std::string::npos);
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow = ::1\npath = status\n").find("path must start with '/'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow = ::1\npath = /yads\n").find("[status] path /yads is a feed's path"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[status]\nenabled = 1\nallow = ::1\nreports = 0\n").find("reports must be a whole number from 1"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[status]\nenabled = yes\n").find("enabled must be 0 or 1"), std::string::npos);
  EXPECT_NE(ErrorOf("[status]\ntokn = x\n").find("unknown key 'tokn' in [status]"), std::string::npos);
}

TEST(StatusAccess, ConstantTimeEquals) {
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "ab"));
  EXPECT_FALSE(ConstantTimeEquals("ab", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("", "a"));
  EXPECT_FALSE(ConstantTimeEquals(std::string_view("a\0", 2), "a"));
}

TEST(StatusAccess, BearerToken) {
  EXPECT_EQ(BearerToken("Bearer abc"), "abc");
  EXPECT_EQ(BearerToken("bearer   abc  "), "abc");
  EXPECT_EQ(BearerToken("BEARER abc"), "abc");
  EXPECT_FALSE(BearerToken("Bearer"));
  EXPECT_FALSE(BearerToken("Bearer "));
  EXPECT_FALSE(BearerToken("Bearerabc"));
  EXPECT_FALSE(BearerToken("Basic YWJjOmRlZg=="));
  EXPECT_FALSE(BearerToken("Bearer a b"));
  EXPECT_FALSE(BearerToken(""));
}

TEST(StatusAccess, TheRule) {
  StatusConfig token_only{true, "/status", kToken, {}, 20};
  StatusConfig address_only{true, "/status", "", {"127.0.0.1", "10.0.0.0/8"}, 20};
  StatusConfig both{true, "/status", kToken, {"127.0.0.1"}, 20};
  StatusConfig off = token_only;
  off.enabled = false;
  StatusConfig unguarded{true, "/status", "", {}, 20};  // the config refuses it; the rule too

  auto req = [](std::string authorization, std::string addr) {
    Request r;
    r.authorization = std::move(authorization);
    r.remote_addr = std::move(addr);
    return r;
  };
  const std::string bearer = std::string("Bearer ") + kToken;
  const std::optional<std::string> none, right = kToken, wrong = std::string(kToken) + "x";
  struct Case {
    const StatusConfig* config;
    Request req;
    std::optional<std::string> query;
    bool allowed;
    const char* what;
  } cases[] = {
      {&token_only, req(bearer, "203.0.113.9"), none, true, "token in the header, from anywhere"},
      {&token_only, req("", "203.0.113.9"), right, true, "token in the query"},
      {&token_only, req("", "127.0.0.1"), none, false, "no token"},
      {&token_only, req("Bearer wrong-token-0123456789", "127.0.0.1"), none, false, "wrong token"},
      {&token_only, req("", "127.0.0.1"), wrong, false, "token with a byte more"},
      {&token_only, req("", "127.0.0.1"), std::string(kToken).substr(1), false, "token with a byte less"},
      {&token_only, req(std::string("Basic ") + kToken, "127.0.0.1"), none, false, "another scheme"},
      {&token_only, req("Bearer wrong", "127.0.0.1"), right, true, "one right form is enough"},
      {&address_only, req("", "127.0.0.1"), none, true, "listed address"},
      {&address_only, req("", "10.1.2.3"), none, true, "address in a listed range"},
      {&address_only, req("", "192.168.0.1"), none, false, "unlisted address"},
      {&address_only, req("", ""), none, false, "no address"},
      {&address_only, req(bearer, "192.168.0.1"), right, false, "a token does not open an address list"},
      {&both, req(bearer, "127.0.0.1"), none, true, "token and address"},
      {&both, req(bearer, "192.168.0.1"), none, false, "token, wrong address"},
      {&both, req("", "127.0.0.1"), none, false, "address, no token"},
      {&off, req(bearer, "127.0.0.1"), right, false, "disabled"},
      {&unguarded, req("", "127.0.0.1"), none, false, "enabled without guards"},
  };
  for (const Case& c : cases) EXPECT_EQ(StatusAllowed(*c.config, c.req, c.query), c.allowed) << c.what;
}

TEST(RunReport, WhichRobot) {
  const std::vector<std::string> configured = {"JoobleBot", "MyAggregator"};
  struct Case {
    const char* ua;
    const char* robot;
  } cases[] = {
      {"Mozilla/5.0 (compatible; JoobleBot/2.0; +https://jooble.org/bot)", "JoobleBot"},
      {"myaggregator fetcher 1.0", "MyAggregator"},  // configured, in any case, named as configured
      {"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
      {"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"},
      {"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"},
      {"Mozilla/5.0 (compatible; ExampleBot/2.1)", "ExampleBot"},
      {"some-crawler/0.1", "some-crawler"},
      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", ""},
      {"curl/7.88.1", ""},
      {"", ""},
  };
  for (const Case& c : cases) EXPECT_EQ(RobotOf(c.ua, configured), c.robot) << c.ua;
  // A token of more than 32 characters is no name.
  EXPECT_EQ(RobotOf("averyveryveryveryveryverylongnamebot", {}), "");
}

TEST(RunReport, MadeFromAResponse) {
  Request req;
  req.user_agent = "JoobleBot/1.0";
  req.remote_addr = "192.0.2.5";
  req.method = "HEAD";
  FeedReport fr;
  fr.rows = 120;
  fr.bytes = 45678;
  fr.complete = true;
  for (int i = 0; i < 7; ++i) fr.Skip("item " + std::to_string(i) + ": id='' breaks required\nsecond line");
  fr.dropped = 1;
  fr.dropped_items = {"item 9: comments.body='' breaks required"};
  RunReport r = MakeRunReport("jooble", req, 200, fr, 1764583200, 37, {"JoobleBot"});
  EXPECT_EQ(r.feed, "jooble");
  EXPECT_EQ(r.at, 1764583200);
  EXPECT_EQ(r.robot, "JoobleBot");
  EXPECT_EQ(r.client, "192.0.2.5");
  EXPECT_EQ(r.method, "HEAD");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.rows, 120);
  EXPECT_EQ(r.bytes, 45678);
  EXPECT_EQ(r.millis, 37);
  EXPECT_EQ(r.left_out, 8);  // 7 rows and 1 item
  ASSERT_EQ(r.reasons.size(), 5u);
  EXPECT_EQ(r.reasons[0], "item 0: id='' breaks required second line");  // one line each

  // A failed response sent none of what it had made.
  RunReport failed = MakeRunReport("jooble", req, 503, fr, 1764583200, 5, {});
  EXPECT_EQ(failed.status, 503);
  EXPECT_EQ(failed.rows, 0);
  EXPECT_EQ(failed.bytes, 0);
  EXPECT_EQ(failed.left_out, 0);
  EXPECT_TRUE(failed.reasons.empty());

  // A long reason is cut at a character boundary.
  FeedReport longer;
  longer.complete = true;
  longer.Skip("item 1: title='" + std::string(400, 'x') + "Ж'");
  longer.Skip("item 2: title='" + std::string(RunReport::kMaxReasonBytes - 16, 'x') + "ЖЖ'");
  RunReport cut = MakeRunReport("rss", Request{}, 200, longer, 0, 0, {});
  ASSERT_EQ(cut.reasons.size(), 2u);
  for (const std::string& s : cut.reasons) {
    EXPECT_LE(s.size(), RunReport::kMaxReasonBytes + 3);  // and "…"
    EXPECT_EQ(CleanUtf8(s), s);
  }
}

TEST(StatusPage, WantsJson) {
  auto wants = [](const char* accept, const char* query) {
    Request r;
    r.accept = accept;
    return WantsJson(r, QueryParams::Parse(query));
  };
  EXPECT_FALSE(wants("", ""));
  EXPECT_FALSE(wants("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", ""));
  EXPECT_TRUE(wants("application/json", ""));
  EXPECT_TRUE(wants("text/plain, Application/JSON ; q=0.5", ""));
  EXPECT_FALSE(wants("application/json;q=0", ""));
  EXPECT_FALSE(wants("application/json; q=0.000", ""));
  EXPECT_TRUE(wants("", "format=json"));
  EXPECT_FALSE(wants("application/json", "format=html"));
  EXPECT_THROW(wants("", "format=xml"), FeedError);
}

// A snapshot with text that must be escaped wherever it goes.
StatusSnapshot Sample() {
  StatusSnapshot s;
  s.version = "v1.2-3-gabc";
  s.config_file = "/srv/feeds/conf/<board>.ini";
  s.time_zone = "Europe/Kiev";
  s.now = 1764583200;  // 2025-12-01 10:00:00 UTC, 12:00 in Kiev
  s.db_reachable = true;
  s.connection_age = 125;
  RunReport a;
  a.feed = "yads";
  a.at = s.now - 30;
  a.robot = "";
  a.client = "192.0.2.5";
  a.status = 200;
  a.rows = 1000;
  a.bytes = 812345;
  a.millis = 230;
  a.left_out = 3;
  a.reasons = {"item 7: id='<script>alert(1)</script>' breaks alnum", "item 9: \"quoted\" & more"};
  RunReport b = a;
  b.at = s.now - 3600;
  b.robot = "YandexBot";
  b.method = "HEAD";
  b.status = 400;
  b.rows = b.bytes = b.left_out = 0;
  b.reasons.clear();
  s.feeds = {{"yads", "/yads", {a, b}}, {"rss", "/rss", {}}};
  s.visits = {{"JoobleBot", "jooble", "2025-12-01 11:59:50", "", "2025-12-01 12:00:00"}};
  return s;
}

// The page parses as XML (void elements are written self-closed), so
// that its structure can be checked.
TEST(StatusPage, HtmlHasARowPerFeedAndEscapesEverything) {
  const std::string html = StatusHtml(Sample(), *TimeZone::Load("Europe/Kiev"));
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&quot;quoted&quot; &amp; more"), std::string::npos);
  EXPECT_NE(html.find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"), std::string::npos);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(html.c_str(), html.size()), tinyxml2::XML_SUCCESS) << doc.ErrorStr();
  const tinyxml2::XMLElement* body = doc.FirstChildElement("html")->FirstChildElement("body");
  ASSERT_TRUE(body);
  // Find elements by tag and class, depth first.
  std::vector<const tinyxml2::XMLElement*> rows;
  std::function<void(const tinyxml2::XMLElement*)> walk = [&](const tinyxml2::XMLElement* e) {
    for (; e; e = e->NextSiblingElement()) {
      const char* cls = e->Attribute("class");
      if (std::string(e->Name()) == "tr" && cls && std::string(cls) == "feed") rows.push_back(e);
      walk(e->FirstChildElement());
    }
  };
  walk(body);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_STREQ(rows[0]->Attribute("data-feed"), "yads");
  EXPECT_STREQ(rows[1]->Attribute("data-feed"), "rss");
  // The newest response of yads, cell by cell.
  std::map<std::string, std::string> cells;
  for (const tinyxml2::XMLElement* td = rows[0]->FirstChildElement("td"); td; td = td->NextSiblingElement("td")) {
    std::string cls = td->Attribute("class") ? td->Attribute("class") : "";
    cls = cls.substr(0, cls.find(' '));
    cells[cls] = td->GetText() ? td->GetText() : "";
  }
  EXPECT_EQ(cells["status"], "200");
  EXPECT_EQ(cells["rows"], "1000");
  EXPECT_EQ(cells["bytes"], "812345");
  EXPECT_EQ(cells["millis"], "230");
  EXPECT_EQ(cells["left-out"], "3");
  EXPECT_EQ(cells["at"], "2025-12-01 11:59:30");                    // site time
  EXPECT_NE(html.find("no response recorded"), std::string::npos);  // rss
  EXPECT_NE(html.find(">400 <small class=\"method\">HEAD</small></td>"), std::string::npos);
  EXPECT_NE(html.find("connection open for 2 min (125 s)"), std::string::npos);
  EXPECT_NE(html.find("/srv/feeds/conf/&lt;board&gt;.ini"), std::string::npos);
  EXPECT_NE(html.find("data-robot=\"JoobleBot\" data-feed=\"jooble\""), std::string::npos);
}

TEST(StatusPage, JsonHoldsTheSameData) {
  StatusSnapshot s = Sample();
  s.connection_age.reset();
  s.db_reachable = false;
  s.db_error = "cannot connect: \"socket\"\n";
  const nlohmann::json j = nlohmann::json::parse(StatusJson(s));
  EXPECT_EQ(j["program"], "feed.fcgi");
  EXPECT_EQ(j["version"], "v1.2-3-gabc");
  EXPECT_EQ(j["config"], "/srv/feeds/conf/<board>.ini");
  EXPECT_EQ(j["generated"], 1764583200);
  EXPECT_EQ(j["generated_utc"], "2025-12-01T10:00:00Z");
  EXPECT_EQ(j["database"]["reachable"], false);
  EXPECT_EQ(j["database"]["error"], "cannot connect: \"socket\"\n");
  EXPECT_TRUE(j["database"]["connection_age_seconds"].is_null());
  ASSERT_EQ(j["feeds"].size(), 2u);
  EXPECT_EQ(j["feeds"][0]["name"], "yads");
  EXPECT_EQ(j["feeds"][0]["path"], "/yads");
  const auto& r = j["feeds"][0]["responses"];
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["at"], 1764583170);
  EXPECT_EQ(r[0]["robot"], "");
  EXPECT_EQ(r[0]["client"], "192.0.2.5");
  EXPECT_EQ(r[0]["status"], 200);
  EXPECT_EQ(r[0]["rows"], 1000);
  EXPECT_EQ(r[0]["bytes"], 812345);
  EXPECT_EQ(r[0]["millis"], 230);
  EXPECT_EQ(r[0]["left_out"], 3);
  EXPECT_EQ(r[0]["reasons"][0], "item 7: id='<script>alert(1)</script>' breaks alnum");
  EXPECT_EQ(r[0]["method"], "GET");
  EXPECT_EQ(r[1]["robot"], "YandexBot");
  EXPECT_EQ(r[1]["method"], "HEAD");
  EXPECT_EQ(r[1]["status"], 400);
  EXPECT_TRUE(j["feeds"][1]["responses"].empty());
  EXPECT_EQ(j["robot_visits"][0]["robot"], "JoobleBot");
  EXPECT_EQ(j["robot_visits"][0]["last_visit"], "2025-12-01 11:59:50");
  EXPECT_EQ(j["robot_visits"][0]["previous_visit"], "");
}

// Served: refused requests get 403 and not one byte of body; an allowed
// one gets the page even when the database cannot be reached.
TEST(StatusPage, ServesOnlyWhomTheRuleAllows) {
  Config c = Parse(std::string("[status]\nenabled = 1\ntoken = ") + kToken + "\n");
  StatusPage page(c, {{"yads", "/yads"}});
  Database db(c.database);
  FixedClock clock(1764583200);
  auto serve = [&](const std::string& query, const std::string& authorization, const std::string& accept = "") {
    Request req;
    req.path_info = "/status";
    req.query_string = query;
    req.authorization = authorization;
    req.accept = accept;
    req.remote_addr = "127.0.0.1";
    StringSink out;
    Response resp(out, true, false);
    page.Serve(req, db, clock, resp);
    return out.data;
  };
  for (const auto& [query, auth] : std::vector<std::pair<std::string, std::string>>{
           {"", ""},
           {"token=wrong-token-0123456789", ""},
           {"", "Bearer wrong-token-0123456789"},
           {"token=%ZZ", ""},  // a query that does not parse hides nothing
       }) {
    const std::string out = serve(query, auth);
    EXPECT_EQ(out.rfind("Status: 403 Forbidden\r\n", 0), 0u) << out;
    EXPECT_EQ(out.substr(out.size() - 4), "\r\n\r\n") << "a body after the head: " << out;
    EXPECT_EQ(out.find(kToken), std::string::npos);
  }
  const std::string html = serve(std::string("token=") + kToken, "");
  EXPECT_EQ(html.rfind("Status: 200 OK\r\n", 0), 0u) << html.substr(0, 200);
  EXPECT_NE(html.find("Content-Type: text/html; charset=utf-8\r\n"), std::string::npos);
  EXPECT_NE(html.find("Cache-Control: no-store\r\n"), std::string::npos);
  EXPECT_NE(html.find("Referrer-Policy: no-referrer\r\n"), std::string::npos);
  EXPECT_NE(html.find("unreachable: "), std::string::npos);
  EXPECT_NE(html.find("data-feed=\"yads\""), std::string::npos);
  EXPECT_EQ(html.find(kToken), std::string::npos) << "the token is echoed";
  const std::string json = serve("", std::string("Bearer ") + kToken, "application/json");
  EXPECT_NE(json.find("Content-Type: application/json; charset=utf-8\r\n"), std::string::npos);
  const auto j = nlohmann::json::parse(json.substr(json.find("\r\n\r\n") + 4));
  EXPECT_EQ(j["database"]["reachable"], false);
  EXPECT_EQ(json.find(kToken), std::string::npos);
  // Allowed, a query that does not parse is a 400 with its reason.
  EXPECT_THROW(serve(std::string("token=") + kToken + "&format=pdf", ""), FeedError);
}

}  // namespace
}  // namespace feed
