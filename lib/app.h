// The whole program behind the entry point: the config's feeds and sets, a
// route table from paths to them, the database servers (the primary and
// any replicas, replica_set.h), the spool
// folder, and the answer to every request. It never throws out of Handle:
// client mistakes get a one-line 4xx, a database outage 503 with
// Retry-After. A live response is made whole before it is sent (see
// spool.h), so a failure midway is a clean 503 or 500 too; only a streamed
// one (the command line) is left cut, logged.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check.h"
#include "clock.h"
#include "config.h"
#include "database.h"
#include "document.h"
#include "document_set.h"
#include "feed.h"
#include "http.h"
#include "msn_feed.h"
#include "output.h"
#include "page_ahead.h"
#include "replica_set.h"
#include "routes.h"
#include "run_report.h"
#include "status.h"

namespace feed {

class App {
 public:
  // Loads every feed's template and SQL; throws FeedError(kConfig). The
  // clock is the system's unless one is given (tests); it must outlive the
  // App.
  explicit App(Config config, const Clock* clock = nullptr);

  // Checks every feed's mapping against the database. Throws kConfig on a
  // mapping error; kUnavailable when the database cannot be reached.
  void CheckDatabase();

  // `feed.fcgi check`: what CheckProgram (check.h) looks at, in this
  // program: every feed's queries run for real; as warnings, what the
  // config asks of the web server (hand_off = x-sendfile, database timeouts
  // whose RequestWaitBound reaches kWebServerTimeout); the program's own
  // tables; the spool folder.
  CheckReport Check(const CheckOptions& options);

  // The spool folder, and redirect_dir with hand_off = redirect, take
  // files: throws FeedError(kConfig) otherwise, kFull when the spool
  // folder has no room now (SpoolDir::Check: no reason to stop).
  void CheckSpool();

  // Answers one request on `out`, CGI-style head first. Returns the status
  // sent. `report` (optional) receives what was written. `live`: the body
  // is spooled and sent whole as [server] says; otherwise (the command
  // line) it streams out as it is made. With the status page enabled, a
  // live request a feed answered leaves its run report for RecordRun
  // (not a 503: the database is not answering); nothing is written here.
  int Handle(const Request& req, Sink& out, bool live, FeedReport* report = nullptr);

  // Writes the run report the last Handle left (if any) to the database
  // and prunes the feed's old ones. Call it after the response was handed
  // over (after FCGX_Finish_r), never inside it. Never throws: a failure
  // is logged, and the report dropped.
  void RecordRun();

  // Makes the next page of the paged run the last Handle answered, when
  // its feed has page_ahead (page_ahead.h), while the web server sends the
  // page before it. Call it after the response was handed over (after
  // FCGX_Finish_r and RecordRun), never inside it. Never throws: a page
  // that cannot be made is logged, and its request reads it itself.
  void MakePageAhead();

  // Writes the set served at `path` (such as /sitemap.xml) into `dir` as
  // static files. Throws FeedError(kNotFound) when no set has that path,
  // others as DocumentSet::Write.
  WriteReport WriteSet(const std::string& path, const std::string& dir,
                       const std::function<void(size_t rows)>& progress = nullptr);

  // Brings the item state of the MSN feed served at `path` up to date with
  // the board (MsnFeed::Sync, not only when stale). Throws
  // FeedError(kNotFound) when no such feed has that path, others as
  // MsnFeed::Sync.
  SyncReport SyncItems(const std::string& path, const std::function<void(size_t items)>& progress = nullptr);

  // Where log lines go (stderr by default: Apache's error log under
  // mod_fcgid).
  void SetLog(std::function<void(const std::string&)> log) { log_ = std::move(log); }

  // The primary: every write, the state the program keeps (visits, part
  // plans, item state) and check's queries; the feeds' rows, a set's
  // parts and plan refreshes, and MSN's board are read where ReplicaSet
  // sends them.
  Database& database() { return servers_.primary(); }
  // The primary and the replicas: each one's health and the primary's
  // failed writes (for the status page).
  ReplicaSet& servers() { return servers_; }
  const Config& config() const { return config_; }
  const RouteTable& routes() const { return routes_; }
  // The MSN feed served at `path`, or nullptr (tests).
  MsnFeed* msn_feed(const std::string& path);

 private:
  int Answer(const Request& req, Sink& out, bool live, FeedReport* report, std::string* served);
  void Dispatch(const Request& req, Response& resp, FeedReport* report, std::string* served);
  void Log(const std::string& name, const FeedReport& report);
  // How a live response made at `now` reaches the client ([server]).
  Delivery LiveDelivery(int64_t now);

  Config config_;
  SystemClock system_clock_;
  const Clock& clock_;
  ReplicaSet servers_;
  std::vector<std::unique_ptr<Feed>> feeds_;
  std::vector<std::unique_ptr<Feed>> full_walks_;  // query_full: a document feed's second walk
  std::vector<std::unique_ptr<DocumentFeed>> documents_;
  std::vector<std::unique_ptr<DocumentSet>> sets_;
  std::vector<std::unique_ptr<MsnFeed>> msn_feeds_;
  RouteTable routes_;
  std::function<void(const std::string&)> log_;
  SpoolDir spool_;
  RedirectDir redirect_;  // hand_off = redirect
  int64_t swept_ = 0;  // UnixTime of the last sweep of the spool folder
  std::unique_ptr<StatusPage> status_;  // [status] enabled = 1
  std::vector<std::string> robots_;     // the feeds' since = robot NAMEs
  std::optional<RunReport> pending_;    // for RecordRun
  PagesAhead ahead_{spool_};            // pages made ahead, in the spool folder
  // For MakePageAhead: the feed, the request and the token it ended with.
  struct NextPage {
    size_t target;
    Request req;
    std::string token;
  };
  std::optional<NextPage> next_page_;
};

}  // namespace feed
