// One feed: its config section, compiled template and SQL, and the request
// protocol they serve. A request's rows are read by keyset ("after the last
// row sent, in the query's ORDER BY"), fetch_rows at a time, and rendered
// as they arrive; a paged feed (continue = param NAME) ends a response after
// page_size rows with a continue token that carries the keyset position.
//
// The query file is bound by name:
//   :since          the since-moment ("YYYY-MM-DD HH:MM:SS", site time):
//                   the since parameter, or for a robot's feed
//                   If-Modified-Since or the robot's last whole visit;
//                   "1000-01-01 00:00:00" when there is none
//   :now            the run's start, site time (the same on every page)
//   :limit          rows to return
//   :site_KEY       the [site] config value KEY
//   :after_FIELD    for each keyset field: the last row's value; on the
//                   first chunk the since-moment (datetime fields) or the
//                   smallest integer
// and must order its rows by the keyset fields, ascending, each row's
// keyset strictly after the previous one's (checked while serving).
// A robot's feed (since = robot NAME) records, after a response to that
// robot was written whole, the run's start less settle_seconds as its last
// visit (table feed_robot_visit, sql/state.sql); nobody else moves it.
// The optional state query (:since, :now, :site_KEY) returns one row; its first column
// is the newest change (site time, gives Last-Modified) and all its columns
// go into the ETag.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config.h"
#include "continue_token.h"
#include "database.h"
#include "http.h"
#include "sql_query.h"
#include "template.h"

namespace feed {

// What one response held, for the log and the command line's summary.
struct FeedReport {
  size_t rows = 0;                         // rows written
  size_t skipped = 0;                      // rows left out by a template rule
  std::vector<std::string> skipped_items;  // "id='…' breaks alnum", the first 1000
  bool more = false;
  std::string continue_token;
  bool complete = false;        // the body was written to its end
  bool visit_recorded = false;  // a robot's visit was recorded
  std::string visit_error;      // ...or why it could not be
};

class Feed {
 public:
  // Loads the template and SQL files; throws FeedError(kConfig).
  Feed(const FeedConfig& config, const Config& site);

  const FeedConfig& config() const { return config_; }

  // Checks the mapping against the database once it can be reached: every
  // template field and keyset field is a result column, keyset fields are
  // integers or dates, the query names the parameters the engine binds.
  // Throws kConfig on a mapping error, kUnavailable when the database is
  // down (and then checks again on the next call).
  void Bind(Database& db);

  // Serves one GET or HEAD request. Throws FeedError before `resp` started
  // (the caller answers 4xx/503); a throw after it started means the body
  // is cut and must stay so.
  void Serve(const Request& req, Database& db, Response& resp, FeedReport* report);

 private:
  Feed(const FeedConfig& config, const Config& site, const std::string& template_text);

  // The since-moment as "YYYY-MM-DD HH:MM:SS", or "" for none; throws
  // kBadRequest for a malformed since parameter.
  std::string SinceMoment(const Request& req, const QueryParams& params, Database& db) const;
  // Runs the state query; answers 304 and returns true when the request's
  // validators match, else adds ETag and Last-Modified to `head`. `state`
  // seeds the entity tag with the request's own inputs.
  bool AnswerNotModified(const Request& req, Database& db, const SqlParams& sp, std::string state, bool gzip,
                         ResponseHead* head, Response& resp) const;
  // The position before the first row: the since-moment for the first date
  // field, the smallest value for the rest.
  std::vector<int64_t> FirstKeyset(const std::string& since) const;
  void ReadKeyset(const Rows& rows, std::vector<int64_t>* key) const;
  void BindKeyset(const std::vector<int64_t>& key, SqlParams* params) const;
  void RecordVisit(Database& db, int64_t run_start, FeedReport* report) const;

  FeedConfig config_;
  Template template_;
  SqlQuery query_;
  std::optional<SqlQuery> state_query_;
  std::unique_ptr<ContinueTokenCodec> codec_;
  SqlParams site_params_;  // :site_KEY values from [site]
  uint64_t identity_;      // hash of the template and SQL, for ETags
  bool bound_ = false;
  std::vector<size_t> key_columns_;
  std::vector<ColumnType> key_types_;
};

}  // namespace feed
