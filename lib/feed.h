// One feed mapping: its config section, compiled template, SQL and keyset,
// and the database reads they make. What a request does with them lives in
// document.h (one document per request) and document_set.h (an index and
// parts).
//
// The query file is bound by name:
//   :since          the since-moment ("YYYY-MM-DD HH:MM:SS", site time):
//                   the since parameter, or for a robot's feed
//                   If-Modified-Since or the robot's last whole visit;
//                   "1000-01-01 00:00:00" when there is none
//   :now            the run's start, site time (the same on every page)
//   :limit          rows to return
//   :site_KEY       the [site] config value KEY
//   :after_FIELD    for each keyset field: where the range starts (see
//                   keyset.h); on the first chunk the since-moment (the
//                   first date field) or the smallest value
//   :until_FIELD    where the range ends (a set's parts), inclusive
// and must order its rows by the keyset fields, each row's keyset strictly
// after the previous one's (checked while serving).
// The optional state query (:since, :now, :limit, :site_KEY, and
// :after_FIELD / :until_FIELD for a page's or a part's range) returns one
// row that changes whenever the rows the response shows change: its first
// column is the newest change (site time), and the others say what a newest
// change cannot, that a row was hard-deleted (a count and a sum of ids).
// Every column goes into the ETag; Last-Modified is the newest change or,
// when later, the moment the engine first saw this state (see State).
// Child queries (child.NAME = FILE) bind :after_FIELD and :until_FIELD to
// a chunk's range, :max_per_parent, :now and :site_KEY (see children.h);
// every one the template's feed:each names must be configured, and every
// one configured must be used.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config.h"
#include "database.h"
#include "http.h"
#include "keyset.h"
#include "row_source.h"
#include "sql_query.h"
#include "template.h"

namespace feed {

class Feed {
 public:
  // Loads the template and SQL files; throws FeedError(kConfig). The
  // template's feed:past reads `clock` (the system's when null), which
  // must outlive the feed.
  Feed(const FeedConfig& config, const Config& site, const Clock* clock = nullptr);

  const FeedConfig& config() const { return config_; }
  const Template& tmpl() const { return template_; }
  const Keyset& keyset() const { return keyset_; }
  // A hash of the template, the SQL and the encoding: part of every ETag.
  uint64_t identity() const { return identity_; }
  // The site's time zone: the zone of the board's DATETIME values.
  const TimeZone& zone() const { return zone_; }
  // The result column of the config's lastmod field, or -1.
  int lastmod_column() const { return lastmod_column_; }

  // Checks the mapping against the database once it can be reached: every
  // template field and keyset field is a result column, keyset fields are
  // integers or dates. Throws kConfig on a mapping error, kUnavailable when
  // the database is down (and then checks again on the next call).
  // `engine_fields` are template fields the engine fills in itself (an MSN
  // item's guid and dates): the template is bound to the query's columns
  // followed by these (see Template::RenderRow), and the query must not
  // return columns of those names.
  void Bind(Database& db, const std::vector<std::string>& engine_fields = {});
  // The part of Bind that needs no database: the template, keyset and
  // lastmod field bound to the query's result columns `cols` (what Bind
  // reads from the database; a test's MemoryChunks columns). Throws
  // kConfig as Bind does. Bind's checks of the state and child queries
  // are not made, and the feed is not marked bound.
  void BindColumns(std::vector<Column> cols, const std::vector<std::string>& engine_fields = {});
  // The query's result columns (after Bind).
  const std::vector<Column>& columns() const { return columns_; }
  // The rows' SQL, and each child query's with its config, in the
  // template's Children() order (check reads them).
  const SqlQuery& query() const { return query_; }
  const std::vector<SqlQuery>& child_queries() const { return child_queries_; }
  const std::vector<ChildConfig>& child_configs() const { return child_configs_; }

  // The values every query of a run binds: :site_KEY, :since, :now.
  SqlParams RunParams(const std::string& since, const std::string& now) const;

  // Reads this feed's rows chunk by chunk with `params` (RunParams) bound,
  // streamed when the config says read = stream (or `stream` says so);
  // with child queries, each chunk's children too (children.h), one query
  // per child query and chunk. REQUIRES: Bind.
  std::unique_ptr<ChunkReader> Reader(Database& db, SqlParams params, std::optional<bool> stream = std::nullopt) const;

  // What the state query says about one response.
  struct StateView {
    Validators validators;
    std::optional<UnixTime> newest;  // the state row's first column
    std::string seen_error;          // why the moment could not be recorded ("" when it was)
  };
  // Runs the state query with `params` (RunParams plus a page's or part's
  // range) and makes the validators; empty ones without a state query.
  // - ETag: over the feed's identity, `request_state` (what of the request
  //   the body depends on), every column of the state row, and `gzip`. Weak
  //   (W/"...") when the template writes feed.date or feed.continue: its
  //   bodies then hold the moment their run began, so two bodies of one
  //   state differ in bytes but not in meaning (Yads' yml_catalog date and
  //   continue token). Strong otherwise: one state, the same bytes. A gzip
  //   body has a tag of its own (-gz) either way, since caches pick the
  //   stored response to refresh by its tag.
  // - Last-Modified, with `seen_at` (the clock's now): the later of the
  //   newest change and the moment this state was first seen for the rows
  //   the query covers (StateStore::StateSeen, recorded at `seen_at` when
  //   new), so that a hard-deleted row moves it too. The rows covered, the
  //   record's scope, are the values of :since, :after_FIELD and
  //   :until_FIELD the query uses. Without `seen_at`, none.
  // The state row is read from `db`, the moment recorded on `seen_db` (the
  // primary, when `db` is a replica). When `seen_db` is another server and
  // cannot be reached, the response goes without Last-Modified and
  // `seen_error` says why; otherwise its errors are thrown.
  StateView State(Database& db, Database& seen_db, const SqlParams& params, const std::string& request_state,
                  bool gzip, std::optional<UnixTime> seen_at) const;
  StateView State(Database& db, const SqlParams& params, const std::string& request_state, bool gzip,
                  std::optional<UnixTime> seen_at) const {
    return State(db, db, params, request_state, gzip, seen_at);
  }

 private:
  Feed(const FeedConfig& config, const Config& site, const std::string& template_text, const Clock* clock);

  FeedConfig config_;
  Template template_;
  TimeZone zone_;
  SqlQuery query_;
  std::optional<SqlQuery> state_query_;
  std::vector<SqlQuery> child_queries_;       // in the template's Children() order
  std::vector<ChildConfig> child_configs_;    // likewise
  std::vector<std::vector<Column>> child_columns_;
  Keyset keyset_;
  SqlParams site_params_;  // :site_KEY values from [site]
  uint64_t identity_;
  int lastmod_column_ = -1;
  std::vector<Column> columns_;
  bool weak_tags_ = false;  // bodies hold the moment of their run
  bool bound_ = false;
};

}  // namespace feed
