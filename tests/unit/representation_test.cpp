// The one response step every feed kind goes through (representation.h):
// a 304 for a client that holds the state, HEAD's head alone, the body
// written through a sink that starts the response at its first byte, and
// the report's bookkeeping. The feed kinds' parts are stand-ins here that
// say what they were asked to do.
#include "representation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "error.h"

namespace feed {
namespace {

// Sun, 01 Nov 2026 09:30:00 GMT
constexpr UnixTime kChanged = 1793525400;
const FixedClock kClock(kChanged + 3600);

struct Calls {
  int before_head = 0;
  int write_body = 0;
};

Representation StandIn(Calls* calls, const std::string& body = "<rss/>") {
  Representation rep;
  rep.head.Add("Content-Type", "application/rss+xml; charset=UTF-8");
  rep.head.Add("Vary", "Accept-Encoding");
  rep.validators.etag = "\"abc\"";
  rep.validators.last_modified = kChanged;
  rep.before_head = [calls] { ++calls->before_head; };
  rep.write_body = [calls, body](Sink& out) {
    ++calls->write_body;
    out.Write(body);
    RenderReport r;
    r.rows = 3;
    r.bytes = body.size();
    return r;
  };
  return rep;
}

Request Get() {
  Request req;
  req.method = "GET";
  return req;
}

TEST(Respond, AClientHoldingTheTagGets304AndNothingIsRead) {
  Calls calls;
  Request req = Get();
  req.if_none_match = "\"abc\"";
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  EXPECT_FALSE(Respond(req, StandIn(&calls), kClock, resp, &report));
  EXPECT_EQ(resp.status(), 304);
  EXPECT_EQ(out.data.rfind("Status: 304 Not Modified\r\n", 0), 0u) << out.data;
  EXPECT_NE(out.data.find("ETag: \"abc\"\r\n"), std::string::npos);
  EXPECT_EQ(calls.before_head, 0);
  EXPECT_EQ(calls.write_body, 0);
  EXPECT_TRUE(report.complete);
  EXPECT_EQ(report.rows, 0u);
}

TEST(Respond, IfModifiedSinceAtTheChangeIs304) {
  Calls calls;
  Request req = Get();
  req.if_modified_since = "Sun, 01 Nov 2026 09:30:00 GMT";
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  EXPECT_FALSE(Respond(req, StandIn(&calls), kClock, resp, &report));
  EXPECT_EQ(resp.status(), 304);
  EXPECT_EQ(calls.write_body, 0);
}

TEST(Respond, HeadSendsTheHeadAfterTheFirstReadAndNoBody) {
  Calls calls;
  Request req = Get();
  req.method = "HEAD";
  StringSink out;
  Response resp(out, true, true);
  FeedReport report;
  EXPECT_FALSE(Respond(req, StandIn(&calls), kClock, resp, &report));
  EXPECT_EQ(calls.before_head, 1);
  EXPECT_EQ(calls.write_body, 0);
  EXPECT_EQ(out.data,
            "Status: 200 OK\r\nContent-Type: application/rss+xml; charset=UTF-8\r\nVary: Accept-Encoding\r\n"
            "ETag: \"abc\"\r\nLast-Modified: Sun, 01 Nov 2026 09:30:00 GMT\r\nX-Content-Type-Options: nosniff\r\n\r\n");
  EXPECT_TRUE(report.complete);
}

TEST(Respond, GetWritesTheHeadWithTheValidatorsThenTheBody) {
  Calls calls;
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  EXPECT_TRUE(Respond(Get(), StandIn(&calls), kClock, resp, &report));
  EXPECT_EQ(calls.before_head, 0);
  EXPECT_EQ(calls.write_body, 1);
  EXPECT_EQ(out.data,
            "Status: 200 OK\r\nContent-Type: application/rss+xml; charset=UTF-8\r\nVary: Accept-Encoding\r\n"
            "ETag: \"abc\"\r\nLast-Modified: Sun, 01 Nov 2026 09:30:00 GMT\r\nX-Content-Type-Options: nosniff\r\n\r\n"
            "<rss/>");
  EXPECT_TRUE(report.complete);
  EXPECT_EQ(report.rows, 3u);
  EXPECT_EQ(report.bytes, 6u);
}

TEST(Respond, AnEmptyBodyStillGetsItsHead) {
  Calls calls;
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  EXPECT_TRUE(Respond(Get(), StandIn(&calls, ""), kClock, resp, &report));
  EXPECT_EQ(out.data.rfind("Status: 200 OK\r\n", 0), 0u);
  EXPECT_EQ(out.data.substr(out.data.size() - 4), "\r\n\r\n");
}

TEST(Respond, GzipIsTheResponsesEncoding) {
  Calls calls;
  Representation rep = StandIn(&calls);
  rep.gzip = true;
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  Respond(Get(), rep, kClock, resp, &report);
  EXPECT_NE(out.data.find("Content-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_EQ(out.data.find("<rss/>"), std::string::npos) << "the body is compressed";
}

// A failure before the body's first byte (the database, on the first
// chunk) leaves the response unstarted, so that App answers it cleanly.
TEST(Respond, AFailureBeforeTheFirstByteLeavesTheResponseUnstarted) {
  Representation rep;
  rep.write_body = [](Sink&) -> RenderReport { throw Unavailable("the database went away"); };
  StringSink out;
  Response resp(out, true, false);
  FeedReport report;
  EXPECT_THROW(Respond(Get(), rep, kClock, resp, &report), FeedError);
  EXPECT_FALSE(resp.started());
  EXPECT_EQ(out.data, "");
  EXPECT_FALSE(report.complete);
}

// What the report held before the body (the rows an MSN feed's sync left
// out) stays, after what the body left out; the rest is the body's.
TEST(Respond, RowsLeftOutBeforeTheBodyAreKeptAfterTheBodys) {
  FeedReport report;
  report.read_from = "primary";
  report.Skip("item 9: title='' breaks required");
  RenderReport body;
  body.rows = 2;
  body.Skip("item 4: link='x' breaks url");
  JoinBodyReport(body, &report);
  EXPECT_EQ(report.rows, 2u);
  EXPECT_EQ(report.skipped, 2u);
  EXPECT_EQ(report.skipped_items,
            (std::vector<std::string>{"item 4: link='x' breaks url", "item 9: title='' breaks required"}));
  EXPECT_EQ(report.read_from, "primary");
}

}  // namespace
}  // namespace feed
