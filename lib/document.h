// A feed served as one document per request (Yads, Jooble, RSS, Atom), in
// named steps: the request's since-moment and starting position (a
// continue token), the validators (304), the rows of one segment rendered
// into the response, and the robot's visit.
//
// A paged feed (continue = param NAME) ends a response after page_size rows
// with a continue token that carries the run's start and the keyset
// position of the last row taken. A token is answered 400 unless it
// decodes (this feed, this since-moment, this secret), its run began at
// most max_run_seconds (+ kClockStepAllowance, a clock stepped forward)
// ago and at most kRunStartAhead ahead (a clock stepped back), and its
// position fits the keyset's columns (Keyset::Unfit).
//
// A robot's feed (since = robot NAME) records, after a response to that
// robot was handed over whole, the run's start less settle_seconds as its
// last visit; nobody else moves it. The next visit starts after the visit
// before that one (overlap_visits = 1), since a cut the program cannot see
// (the web server sending a spooled body) must not lose the rows it held.
// The clock (issue #22): a record never moves back (a visit at a clock
// stepped back moves nothing, StateStore::RecordVisit), and never past the
// database server's own clock, the one clock every node and every writer
// of the board's rows shares: a visit whose run started later than the
// database's now (the web server's clock ahead) is recorded at the
// database's now, less settle_seconds, and the step is logged. Recording
// the web server's moment would skip, in the next visit, every row the
// board writes before the real clock reaches it.
//
// A feed with query_full walks a request with no since-moment through that
// second feed (FullWalkOf): its query, keyset and state query; the same
// template, paging and config. Its continue tokens are bound to that walk.
//
// With replicas (replica_set.h): the rows and the state query are read
// from the server ReplicaSet::ForRead picks, the robot's record and every
// write go to the primary. A paged run's token carries the replication
// position its latest page was read at, and the next page is read only
// from a server that has reached it (a token without one, from before
// replicas, only from the primary). A robot's feed reads from a server
// that has everything the primary held when the visit began. With the
// primary away, a robot's feed serves every current item (its record
// cannot be read) and records nothing: the robot loses nothing.
//
// A paged feed with page_ahead (not a robot's) makes the next page of a
// run once the page before was handed over (MakeNextPage, called by the
// FastCGI loop after the response is finished), and an unconditional GET
// for that page takes it instead of reading it (page_ahead.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clock.h"
#include "continue_token.h"
#include "feed.h"
#include "http.h"
#include "renderer.h"
#include "replica_set.h"
#include "run_report.h"
#include "state.h"

namespace feed {

class PagesAhead;

class DocumentFeed {
 public:
  // `full`: the walk of a request with no since-moment (query_full), or
  // none; not owned.
  explicit DocumentFeed(Feed& feed, Feed* full = nullptr);

  // Checks what serving needs beyond the mapping (the visits table for a
  // robot's feed). Throws kConfig / kUnavailable as Feed::Bind does.
  void Bind(Database& db);
  void Bind(ReplicaSet& servers) { Bind(servers.primary()); }

  // Serves one GET or HEAD request. Throws FeedError before `resp` started
  // (the caller answers 4xx/503); a throw after it started means the body
  // is cut and must stay so.
  void Serve(const Request& req, ReplicaSet& servers, const Clock& clock, Response& resp, FeedReport* report);

  // Where pages made ahead wait; nullptr (the default): none are made or
  // taken. Not owned. Set only for a feed whose config has page_ahead.
  void SetPagesAhead(PagesAhead* ahead) { ahead_ = ahead; }
  bool makes_pages_ahead() const { return ahead_ != nullptr; }

  // Makes the page whose token `req`'s response ended with (`token`), as
  // an unconditional GET of the same client would get it, and the pages
  // after it, up to page_ahead pages past `req`'s, and leaves them in the
  // pages ahead. A page made already is passed over to the next; one being
  // made by another process ends the making here. `delivery` is the live
  // one (keep is set here). Throws FeedError when a page cannot be made
  // (the caller logs it; the request for the page then reads it itself).
  void MakeNextPage(const Request& req, const std::string& token, ReplicaSet& servers, const Clock& clock,
                    Delivery delivery);

  Feed& feed() { return feed_; }

 private:
  // Where the response starts: the run's start and the position after
  // which its rows come.
  struct Start {
    std::string since;  // "YYYY-MM-DD HH:MM:SS" or "" for none
    std::string token_text;
    int64_t run_start = 0;  // NaiveSeconds, site time
    Position after;
    std::optional<GtidPosition> at;  // what the rows must be at least as new as
    std::string record_error;        // the robot's record could not be read: why
  };
  Start Begin(const Request& req, ReplicaSet& servers, const Clock& clock) const;
  // The since-moment, or "" for none; throws kBadRequest for a malformed
  // since parameter. `now`: the clock's (for If-Modified-Since).
  // `record_error` is set when the robot's record could not be read from
  // an unreachable primary while replicas can serve.
  std::string SinceMoment(const Request& req, const QueryParams& params, ReplicaSet& servers, UnixTime now,
                          std::string* record_error) const;
  // The feed whose query and keyset serve a request with this since-moment.
  Feed& Walk(const std::string& since) const { return since.empty() && full_ ? *full_ : feed_; }
  std::string Binding(const std::string& since) const {
    return feed_.config().name + '\n' + since + (&Walk(since) == full_ ? "\nfull" : "");
  }
  void Serve(const Request& req, Start& start, ReplicaSet& servers, const ReplicaSet::Source& source,
             const Clock& clock, Response& resp, FeedReport* report);
  // The page's document into `body`, from `rows` (the continue token
  // into `report` when another page follows).
  RenderReport RenderPage(Feed& walk, const Start& start, ReplicaSet& servers, const ReplicaSet::Source& source,
                          const Clock& clock, const Feed::StateView& state, KeysetRows& rows, Sink& body,
                          FeedReport* report) const;
  void RecordVisit(Database& db, int64_t run_start, FeedReport* report) const;
  // What names a page made ahead: the walk, the token, the body's encoding.
  std::string PageIdentity(const Start& start, bool gzip) const;

  Feed& feed_;
  Feed* full_;
  PagesAhead* ahead_ = nullptr;
  std::unique_ptr<ContinueTokenCodec> codec_;
};

}  // namespace feed
