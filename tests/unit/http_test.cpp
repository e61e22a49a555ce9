#include "http.h"

#include <gtest/gtest.h>

#include <map>

#include "error.h"

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

TEST(Http, IfNoneMatchUsesWeakComparison) {
  EXPECT_TRUE(NoneMatchHits("\"abc\"", "\"abc\""));
  EXPECT_TRUE(NoneMatchHits("\"x\", W/\"abc\"", "\"abc\""));
  EXPECT_TRUE(NoneMatchHits(" * ", "\"abc\""));
  EXPECT_FALSE(NoneMatchHits("\"abcd\"", "\"abc\""));
  EXPECT_FALSE(NoneMatchHits("abc", "\"abc\""));
  EXPECT_FALSE(NoneMatchHits("", "\"abc\""));
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
  EXPECT_EQ(Gunzip(sink.data.substr(end + 4)), text);

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
  EXPECT_THROW(Gunzip(sink.data), std::runtime_error);
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
