#include "http.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "error.h"
#include "gzip_reference.h"

namespace feed {
namespace {

TEST(QueryParams, DecodesPercentAndPlus) {
  QueryParams q = QueryParams::Parse("date=2026-11-01+12%3A00%3A00&continue=Ab1&&flag");
  EXPECT_EQ(q.Get("date"), "2026-11-01 12:00:00");
  EXPECT_EQ(q.Get("continue"), "Ab1");
  EXPECT_EQ(q.Get("flag"), "");
  EXPECT_EQ(q.Get("none"), std::nullopt);
  EXPECT_EQ(QueryParams::Parse("").all().size(), 0u);
  EXPECT_EQ(QueryParams::Parse("t=%D0%BF").Get("t"), "п");
}

TEST(QueryParams, LookAlikesOfKnownParametersAreRefusedByName) {
  auto refused = [](const std::string& qs) -> std::string {
    try {
      QueryParams::Parse(qs).RefuseLookalikes({"date", "continue"});
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kBadRequest);
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(refused("date=2026-11-01&continue=abc&utm_source=x&dates=1&x[]=2"), "");
  EXPECT_EQ(refused("Date=1"), "unknown parameter 'Date'; this feed takes 'date'");
  EXPECT_EQ(refused("CONTINUE=1"), "unknown parameter 'CONTINUE'; this feed takes 'continue'");
  EXPECT_EQ(refused("date%5B%5D=1"), "unknown parameter 'date[]'; this feed takes 'date'");
  EXPECT_EQ(refused("date[0]=1"), "unknown parameter 'date[0]'; this feed takes 'date'");
  EXPECT_EQ(refused("date=1&Date=2"), "unknown parameter 'Date'; this feed takes 'date'");
}

TEST(QueryParams, RejectsMalformedInputWithAReason) {
  const char* bad[] = {
      "date=%",      "date=%4", "date=%zz", "date=%00", "date=a%0Ab",     "date=%FF",
      "date=%C0%AF", "a=1&a=2", "=x",       "%00=1",    "date=%ED%A0%80",
  };
  for (const char* qs : bad) {
    try {
      QueryParams::Parse(qs);
      ADD_FAILURE() << "accepted " << qs;
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kBadRequest) << qs;
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(QueryParams::Parse(std::string(3000, 'a')), FeedError);
  std::string many;
  for (int i = 0; i < 20; ++i) many += "p" + std::to_string(i) + "=1&";
  EXPECT_THROW(QueryParams::Parse(many), FeedError);
}

TEST(Http, AcceptsGzipFollowsQValues) {
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("deflate, gzip;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("GZIP"));
  EXPECT_TRUE(AcceptsGzip("x-gzip"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("*, gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("deflate"));
  EXPECT_FALSE(AcceptsGzip("gzipx"));
}

TEST(Http, EntityTagsParseAsRfc9110WritesThem) {
  struct Case {
    const char* text;
    bool ok, weak;
    const char* opaque;
  };
  const Case cases[] = {
      {"\"abc\"", true, false, "abc"},
      {"W/\"abc\"", true, true, "abc"},
      {"\"\"", true, false, ""},
      {"W/\"\"", true, true, ""},
      {"\"a,b\"", true, false, "a,b"},
      {"\"W/x\"", true, false, "W/x"},
      {"\"\xD0\xBF\"", true, false, "\xD0\xBF"},  // obs-text
      {"abc", false, false, ""},
      {"\"abc", false, false, ""},
      {"abc\"", false, false, ""},
      {"\"", false, false, ""},
      {"w/\"abc\"", false, false, ""},  // W/ is case-sensitive
      {"W/ \"abc\"", false, false, ""},
      {"W/abc", false, false, ""},
      {"\"a b\"", false, false, ""},
      {"\"a\"b\"", false, false, ""},
      {" \"abc\"", false, false, ""},
      {"\"a\tb\"", false, false, ""},
      {"*", false, false, ""},
      {"", false, false, ""},
  };
  for (const Case& c : cases) {
    auto t = EntityTag::Parse(c.text);
    ASSERT_EQ(t.has_value(), c.ok) << c.text;
    if (!t) continue;
    EXPECT_EQ(t->weak, c.weak) << c.text;
    EXPECT_EQ(t->opaque, c.opaque) << c.text;
    EXPECT_EQ(t->ToString(), c.text);
  }
}

TEST(Http, StrongAndWeakComparisonFollowTheRfcTable) {
  // RFC 9110 §8.8.3.2, the example table, row by row.
  struct Case {
    const char* a;
    const char* b;
    bool strong, weak;
  };
  const Case cases[] = {
      {"W/\"1\"", "W/\"1\"", false, true},
      {"W/\"1\"", "W/\"2\"", false, false},
      {"W/\"1\"", "\"1\"", false, true},
      {"\"1\"", "\"1\"", true, true},
      {"\"1\"", "\"2\"", false, false},
      {"\"1\"", "W/\"1\"", false, true},
  };
  for (const Case& c : cases) {
    EntityTag a = *EntityTag::Parse(c.a), b = *EntityTag::Parse(c.b);
    EXPECT_EQ(StrongMatch(a, b), c.strong) << c.a << " " << c.b;
    EXPECT_EQ(WeakMatch(a, b), c.weak) << c.a << " " << c.b;
  }
}

TEST(Http, IfNoneMatchListsParse) {
  struct Case {
    const char* text;
    bool ok, any;
    std::vector<std::string> tags;  // as sent
  };
  const Case cases[] = {
      {"\"a\"", true, false, {"\"a\""}},
      {"\"a\", W/\"b\"", true, false, {"\"a\"", "W/\"b\""}},
      {"W/\"a\",\"b\"", true, false, {"W/\"a\"", "\"b\""}},
      {"\"a,b\", \"c\"", true, false, {"\"a,b\"", "\"c\""}},  // a comma inside a tag
      {" , \"a\" ,, \"b\" , ", true, false, {"\"a\"", "\"b\""}},  // empty elements (RFC 9110 §5.6.1)
      {"\t\"a\"\t", true, false, {"\"a\""}},
      {"*", true, true, {}},
      {" * ", true, true, {}},
      {"", false, false, {}},
      {" , ", false, false, {}},
      {"\"a\", *", false, false, {}},  // * stands alone
      {"**", false, false, {}},
      {"\"a\" \"b\"", false, false, {}},
      {"\"a\"x", false, false, {}},
      {"\"a\", b", false, false, {}},
      {"\"a", false, false, {}},
      {"w/\"a\"", false, false, {}},
      {"W/ \"a\"", false, false, {}},
  };
  for (const Case& c : cases) {
    auto list = EntityTagList::Parse(c.text);
    ASSERT_EQ(list.has_value(), c.ok) << "[" << c.text << "]";
    if (!list) continue;
    EXPECT_EQ(list->any, c.any) << c.text;
    std::vector<std::string> got;
    for (const EntityTag& t : list->tags) got.push_back(t.ToString());
    EXPECT_EQ(got, c.tags) << c.text;
  }
}

TEST(Http, IfNoneMatchUsesWeakComparison) {
  struct Case {
    const char* inm;
    const char* etag;  // the current tag
    bool hit;
  };
  const Case cases[] = {
      {"\"abc\"", "\"abc\"", true},
      {"W/\"abc\"", "\"abc\"", true},
      {"\"abc\"", "W/\"abc\"", true},
      {"W/\"abc\"", "W/\"abc\"", true},
      {"\"x\", W/\"abc\"", "\"abc\"", true},
      {"\"x\", \"abc\"", "W/\"abc\"", true},
      {"\"a,b\"", "\"a,b\"", true},
      {" * ", "\"abc\"", true},
      {"*", "W/\"abc\"", true},
      {"*", "", true},  // the feed has a current representation, tagged or not
      {"\"abcd\"", "\"abc\"", false},
      {"\"ab\"", "\"abc\"", false},
      {"W/\"abc-gz\"", "W/\"abc\"", false},  // another content coding, another tag
      {"\"a\", \"b,abc\"", "\"abc\"", false},
      {"abc", "\"abc\"", false},
      {"\"abc", "\"abc\"", false},
      {"\"x\", abc", "\"abc\"", false},  // a malformed list matches nothing
      {"\"abc\", *", "\"abc\"", false},
      {"", "\"abc\"", false},
      {"\"abc\"", "", false},
  };
  for (const Case& c : cases) EXPECT_EQ(NoneMatchHits(c.inm, c.etag), c.hit) << c.inm << " vs " << c.etag;
}

TEST(Http, IfNoneMatchWinsOverIfModifiedSince) {
  Validators v;
  v.etag = "W/\"abc\"";
  v.last_modified = 1764547200;  // Mon, 01 Dec 2025 00:00:00 GMT
  auto ask = [&](const char* inm, const char* ims) {
    Request r;
    r.if_none_match = inm;
    r.if_modified_since = ims;
    return v.Match(r, 1764547200 + 86400 * 30);  // the clock: a month later
  };
  EXPECT_TRUE(ask("\"abc\"", ""));
  EXPECT_TRUE(ask("", "Mon, 01 Dec 2025 00:00:00 GMT"));
  EXPECT_TRUE(ask("", "Tue, 02 Dec 2025 00:00:00 GMT"));
  EXPECT_FALSE(ask("", "Sun, 30 Nov 2025 23:59:59 GMT"));
  EXPECT_FALSE(ask("", "yesterday")) << "a date that does not parse is ignored";
  EXPECT_FALSE(ask("", ""));
  // When If-None-Match is there, If-Modified-Since is not looked at
  // (RFC 9110 §13.1.3), whichever way it would answer.
  EXPECT_FALSE(ask("\"stale\"", "Tue, 02 Dec 2025 00:00:00 GMT"));
  EXPECT_TRUE(ask("\"abc\"", "Sun, 30 Nov 2025 23:59:59 GMT"));
  EXPECT_FALSE(ask("garbage", "Tue, 02 Dec 2025 00:00:00 GMT"));
  // Without a Last-Modified, If-Modified-Since never matches.
  v.last_modified.reset();
  EXPECT_FALSE(ask("", "Tue, 02 Dec 2025 00:00:00 GMT"));
}

TEST(Http, RequestFromEnvironmentCopiesTheCgiVariables) {
  std::map<std::string, std::string> env = {{"REQUEST_METHOD", "HEAD"},       {"PATH_INFO", "/yads"},
                                            {"QUERY_STRING", "a=1"},          {"HTTP_IF_NONE_MATCH", "\"e\""},
                                            {"HTTP_ACCEPT_ENCODING", "gzip"}, {"HTTP_USER_AGENT", "JoobleBot/2"}};
  Request r = RequestFromEnvironment([&](const char* n) {
    auto it = env.find(n);
    return it == env.end() ? nullptr : it->second.c_str();
  });
  EXPECT_EQ(r.method, "HEAD");
  EXPECT_EQ(r.path_info, "/yads");
  EXPECT_EQ(r.query_string, "a=1");
  EXPECT_EQ(r.if_none_match, "\"e\"");
  EXPECT_EQ(r.if_modified_since, "");
  EXPECT_EQ(r.accept_encoding, "gzip");
  EXPECT_EQ(r.user_agent, "JoobleBot/2");
}

TEST(Response, GzipBodyRoundTripsAndHeadOnlyHasNoBody) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "<ad>" + std::to_string(i) + "</ad>\n";
  StringSink sink;
  Response r(sink, true, false);
  ResponseHead h;
  h.Add("Content-Type", "text/xml; charset=windows-1251");
  r.Start(h, true);
  r.Write(text.substr(0, 1000));
  r.Write(text.substr(1000));
  r.Finish();
  size_t end = sink.data.find("\r\n\r\n");
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(sink.data.substr(0, end),
            "Status: 200 OK\r\nContent-Type: text/xml; charset=windows-1251\r\n"
            "X-Content-Type-Options: nosniff\r\nContent-Encoding: gzip");
  EXPECT_EQ(testing::ZlibGunzip(sink.data.substr(end + 4)), text);

  StringSink head_sink;
  Response head(head_sink, true, true);
  head.Start(h, true);
  head.Write(text);
  head.Finish();
  EXPECT_EQ(head_sink.data.substr(head_sink.data.size() - 4), "\r\n\r\n");
  EXPECT_EQ(head_sink.data.find("<ad>"), std::string::npos);
}

TEST(Response, CutGzipStreamDoesNotDecode) {
  StringSink sink;
  {
    Response r(sink, false, false);
    r.Start({}, true);
    r.Write(std::string(100000, 'x'));
    // No Finish(): a feed that failed midway.
  }
  EXPECT_THROW(testing::ZlibGunzip(sink.data), std::runtime_error);
}

// Every status the program sends has its own reason phrase (RFC 9110 §15):
// none falls through to "Internal Server Error".
TEST(Response, EachStatusSentHasItsReasonPhrase) {
  const std::vector<std::pair<int, std::string>> sent = {
      {200, "OK"},          {204, "No Content"}, {302, "Found"},
      {304, "Not Modified"}, {400, "Bad Request"}, {403, "Forbidden"},
      {404, "Not Found"},    {405, "Method Not Allowed"}, {500, "Internal Server Error"},
      {503, "Service Unavailable"}};
  for (const auto& [status, reason] : sent) {
    ResponseHead h;
    h.status = status;
    EXPECT_EQ(h.Serialize(), "Status: " + std::to_string(status) + " " + reason + "\r\n\r\n");
  }
}

TEST(Response, ErrorIsOneLineOfPlainText) {
  StringSink sink;
  Response r(sink, true, false);
  r.Error(503, "the database is unavailable", {{"Retry-After", "60"}});
  EXPECT_EQ(sink.data,
            "Status: 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Cache-Control: no-store\r\nRetry-After: 60\r\nX-Content-Type-Options: nosniff\r\n\r\n"
            "the database is unavailable\n");
}

}  // namespace
}  // namespace feed
