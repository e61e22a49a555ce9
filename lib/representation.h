// The one way a response of a feed is made, whatever the feed kind (a
// document feed, a set's index or part, an MSN feed): the kind hands in its
// head, its validators and the writer of its body, and Respond does the
// rest in one order:
//   1. the validators match the request (If-None-Match, else
//      If-Modified-Since): 304 with them, no body;
//   2. HEAD: the head alone, after `before_head` (the first read of the
//      rows, so that a database failure is still a 503);
//   3. else the body, written through a sink that starts the response at
//      its first byte (a failure before it can still be answered cleanly);
//      the response (spooled or streamed, as its Delivery says) is then
//      finished.
// The report: `complete` once the response was finished; the body's
// RenderReport replaces the report's own, the rows left out before the body
// (an MSN feed's sync) kept after the body's.
#pragma once

#include <functional>

#include "clock.h"
#include "http.h"
#include "renderer.h"
#include "run_report.h"

namespace feed {

struct Representation {
  ResponseHead head;      // Content-Type, Vary, ...; Respond adds the validators
  Validators validators;  // what a conditional request is checked against
  bool gzip = false;      // the body is gzip-encoded by the response (Content-Encoding)
  // For HEAD, before the head is sent; may be empty.
  std::function<void()> before_head;
  // Writes the body into `out` (the response); returns what it wrote.
  std::function<RenderReport(Sink& out)> write_body;
};

// Answers `req` with `rep` on `resp` (see the file's comment). Returns
// true when the body was written and the response finished with it (not a
// 304, not a HEAD). REQUIRES: !resp.started(). Throws what the writers and
// the response throw. `clock`: for If-Modified-Since (Validators::Match).
bool Respond(const Request& req, const Representation& rep, const Clock& clock, Response& resp, FeedReport* report);

// The body's report into `report`: the body's replaces the report's own,
// whose rows left out (before the body) are kept after the body's.
void JoinBodyReport(RenderReport body, FeedReport* report);

}  // namespace feed
