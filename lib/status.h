// The owner's status page ([status] in the config; off unless enabled):
// each feed's last responses (run_report.h), each robot's last whole
// visit, whether the database answers and how old the connection is, the
// program's version and config file. HTML for a person (no JavaScript,
// readable on a phone) or JSON for monitoring (Accept: application/json,
// or ?format=json). Who may see it is status_access.h's rule; anyone else
// gets 403 with an empty body. The token is never written anywhere.
//
// JSON, one object:
//   {"program": "feed.fcgi", "version": "...", "config": "/srv/feeds/conf/my-board.ini",
//    "time_zone": "Europe/Kiev", "generated": UNIX, "generated_utc": "2026-12-01T10:00:00Z",
//    "database": {"reachable": true, "error": "", "connection_age_seconds": 42 (null: none open)},
//    "servers": [{"name": "primary", "health": "healthy", "error": "", "checked": UNIX (0: never),
//        "passed_over": 0}, {"name": "r1", ...}]   (the primary, then each replica; this process's view),
//    "failed_writes": {"count": 0, "last_error": "", "last": UNIX (0: none)},
//    "reports_error": "" (why the reports could not be read),
//    "feeds": [{"name": "yads", "path": "/yads", "responses": [   (newest first)
//        {"at": UNIX, "at_utc": "...", "robot": "JoobleBot" ("" not a robot), "client": "203.0.113.7",
//         "method": "GET" (or HEAD: no rows sent),
//         "status": 200, "rows": 1000, "bytes": 812345, "millis": 230, "left_out": 2,
//         "reasons": ["item 7: id='' breaks required", ...]}]}],
//    "robot_visits": [{"robot": "JoobleBot", "feed": "jooble", "last_visit": "2026-12-01 11:59:50",
//        "previous_visit": "..." ("" none), "recorded": "..."}]}
// Moments of robot visits are site time, as feed_robot_visit holds them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clock.h"
#include "config.h"
#include "database.h"
#include "http.h"
#include "replica_set.h"
#include "run_report.h"
#include "state.h"

namespace feed {

// The program's version (git describe at build time, "unknown" without).
const char* ProgramVersion();

struct StatusFeed {
  std::string name, path;
  std::vector<RunReport> responses;  // newest first
};

// Everything the page shows, gathered once per request.
struct StatusSnapshot {
  std::string version, config_file, time_zone;
  UnixTime now = 0;
  bool db_reachable = false;
  std::string db_error;                   // why not
  std::optional<int64_t> connection_age;  // seconds; nullopt: none open
  std::vector<ServerStatus> servers;      // the primary, then each replica (this process's view)
  WriteStatus writes;                     // writes the primary did not take (this process's)
  std::string reports_error;              // reports or visits could not be read
  std::vector<StatusFeed> feeds;          // every feed the config serves, in its order
  std::vector<RobotVisit> visits;
};

// The page, from a snapshot; every value from the database or the config
// is escaped. Times in `zone` (the site's).
std::string StatusHtml(const StatusSnapshot& s, const TimeZone& zone);
std::string StatusJson(const StatusSnapshot& s);

// True when the client asks for JSON: format=json, or (no format) an
// Accept listing application/json with q above 0. Throws
// FeedError(kBadRequest) for a format other than html or json.
bool WantsJson(const Request& req, const QueryParams& params);

class StatusPage {
 public:
  // `feeds`: the name and path of every feed the config serves, in order;
  // `config` must outlive the page.
  StatusPage(const Config& config, std::vector<std::pair<std::string, std::string>> feeds);

  // Answers a request for the page's path (any method the caller let
  // through: GET or HEAD).
  // `servers`, when given, adds each server's health and the failed writes.
  void Serve(const Request& req, Database& db, const Clock& clock, Response& resp,
             const ReplicaSet* servers = nullptr) const;

  // Reads what the page shows; a database that does not answer is shown
  // as such, never thrown.
  StatusSnapshot Snapshot(Database& db, const Clock& clock, const ReplicaSet* servers = nullptr) const;

 private:
  const Config& config_;
  std::vector<std::pair<std::string, std::string>> feeds_;
};

}  // namespace feed
