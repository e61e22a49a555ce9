// Run reports: what each response of a feed was (when, to whom, status,
// rows, bytes, time taken, rows left out and why), kept by the program in
// a table it owns (sql/state.sql, feed_run_report) for the status page
// (status.h). A bounded number per feed: each write prunes the feed's
// oldest beyond the config's [status] reports.
//
// A report is made while the request is answered (MakeRunReport, no I/O)
// and written only after the response was handed over whole (App::
// RecordRun, after FCGX_Finish_r), so that it never slows or fails the
// feed. Constant SQL with bound values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "database.h"
#include "datetime.h"
#include "http.h"
#include "renderer.h"

namespace feed {

// What one response of a feed held (DocumentFeed, DocumentSet, MsnFeed,
// filled in by Respond, representation.h), for the log, the command line's
// summary and the run report made from it.
struct FeedReport : RenderReport {
  std::string continue_token;
  bool complete = false;                  // the body was written to its end
  bool visit_recorded = false;            // a robot's visit was recorded
  std::string visit_error;                // ...or why it could not be
  std::string read_from;                  // the server the rows came from: "primary" or a replica's name
  std::vector<std::string> write_errors;  // writes the primary did not take (logged, counted)
  bool made_ahead = false;                // the page was made before its request (page_ahead.h)
  std::vector<std::string> notes;         // what the owner should know (logged): a clock ahead
};

struct RunReport {
  std::string feed;                  // the [feed NAME] or [set NAME] that answered
  UnixTime at = 0;                   // when the response was made
  std::string robot;                 // the robot that asked (RobotOf), "" for anyone else
  std::string client;                // the client's address (REMOTE_ADDR)
  std::string method = "GET";        // GET or HEAD (a HEAD sends no rows)
  int status = 0;                    // the HTTP status sent
  int64_t rows = 0;                  // rows written
  int64_t bytes = 0;                 // the body's size before compression
  int64_t millis = 0;                // time taken to make and hand over the response
  int64_t left_out = 0;              // rows left out by a rule, plus items of rows left out
  std::vector<std::string> reasons;  // the first kMaxReasons of them: "item 7: id='' breaks required"
  static constexpr size_t kMaxReasons = 5;
  static constexpr size_t kMaxReasonBytes = 300;  // each reason is cut there (at a UTF-8 boundary)
};

// Which robot a User-Agent names, or "" when none:
//   1. the first of `configured` (the config's `since = robot NAME` words)
//      it holds, in any case, as configured;
//   2. else the first well-known crawler it holds (Googlebot, YandexBot,
//      bingbot, Baiduspider, ...), as the table spells it;
//   3. else its first product token (letters, digits, '.', '_', '-') that
//      holds "bot", "crawler" or "spider" in any case, as sent, at most 32
//      characters ("Mozilla/5.0 (compatible; ExampleBot/2.1)" gives
//      ExampleBot).
std::string RobotOf(std::string_view user_agent, const std::vector<std::string>& configured);

// The report of one answered request. `feed`: the name that answered;
// `robots`: as RobotOf's `configured`.
RunReport MakeRunReport(const std::string& feed, const Request& req, int status, const FeedReport& report, UnixTime at,
                        int64_t millis, const std::vector<std::string>& robots);

class RunReportStore {
 public:
  explicit RunReportStore(Database& db) : db_(db) {}

  // Throws FeedError(kConfig) saying to apply sql/state.sql when the table
  // is missing; kUnavailable when the database is down.
  void Check();

  // Adds `report`, then drops the feed's reports beyond the newest `keep`
  // (by insertion order). Throws FeedError (kUnavailable, kInternal).
  void Save(const RunReport& report, int keep);

  // The newest `n` reports of `feed`, newest first.
  std::vector<RunReport> Recent(const std::string& feed, int n);

 private:
  Database& db_;
};

}  // namespace feed
