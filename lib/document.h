// A feed served as one document per request (Yads, Jooble, RSS, Atom), in
// named steps: the request's since-moment and starting position (a
// continue token), the validators (304), the rows of one segment rendered
// into the response, and the robot's visit.
//
// A paged feed (continue = param NAME) ends a response after page_size rows
// with a continue token that carries the run's start and the keyset
// position of the last row taken. A token is answered 400 unless it
// decodes (this feed, this since-moment, this secret), its run began at
// most max_run_seconds ago and at most kRunStartAhead ahead, and its
// position fits the keyset's columns (Keyset::Unfit).
//
// A robot's feed (since = robot NAME) records, after a response to that
// robot was handed over whole, the run's start less settle_seconds as its
// last visit; nobody else moves it. The next visit starts after the visit
// before that one (overlap_visits = 1), since a cut the program cannot see
// (the web server sending a spooled body) must not lose the rows it held.
//
// A feed with query_full walks a request with no since-moment through that
// second feed (FullWalkOf): its query, keyset and state query; the same
// template, paging and config. Its continue tokens are bound to that walk.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "clock.h"
#include "continue_token.h"
#include "feed.h"
#include "http.h"
#include "renderer.h"
#include "state.h"

namespace feed {

// What one response held, for the log and the command line's summary.
struct FeedReport : RenderReport {
  std::string continue_token;
  bool complete = false;        // the body was written to its end
  bool visit_recorded = false;  // a robot's visit was recorded
  std::string visit_error;      // ...or why it could not be
};

class DocumentFeed {
 public:
  // `full`: the walk of a request with no since-moment (query_full), or
  // none; not owned.
  explicit DocumentFeed(Feed& feed, Feed* full = nullptr);

  // Checks what serving needs beyond the mapping (the visits table for a
  // robot's feed). Throws kConfig / kUnavailable as Feed::Bind does.
  void Bind(Database& db);

  // Serves one GET or HEAD request. Throws FeedError before `resp` started
  // (the caller answers 4xx/503); a throw after it started means the body
  // is cut and must stay so.
  void Serve(const Request& req, Database& db, const Clock& clock, Response& resp, FeedReport* report);

  Feed& feed() { return feed_; }

 private:
  // Where the response starts: the run's start and the position after
  // which its rows come.
  struct Start {
    std::string since;  // "YYYY-MM-DD HH:MM:SS" or "" for none
    std::string token_text;
    int64_t run_start = 0;  // NaiveSeconds, site time
    Position after;
  };
  Start Begin(const Request& req, Database& db, const Clock& clock) const;
  // The since-moment, or "" for none; throws kBadRequest for a malformed
  // since parameter.
  std::string SinceMoment(const Request& req, const QueryParams& params, Database& db) const;
  // The feed whose query and keyset serve a request with this since-moment.
  Feed& Walk(const std::string& since) const { return since.empty() && full_ ? *full_ : feed_; }
  std::string Binding(const std::string& since) const {
    return feed_.config().name + '\n' + since + (&Walk(since) == full_ ? "\nfull" : "");
  }
  void RecordVisit(Database& db, int64_t run_start, FeedReport* report) const;

  Feed& feed_;
  Feed* full_;
  std::unique_ptr<ContinueTokenCodec> codec_;
};

}  // namespace feed
