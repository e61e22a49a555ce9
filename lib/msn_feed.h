// A feed for MSN's content ingestion (lifecycle = msn; FEEDS.md "MSN", seed
// 004): RSS 2.0 whose items MSN creates, updates, skips and takes down
// exactly as the board changes.
//
// The board's items are not shown as the query returns them, but through
// the item state (item_state.h): a sync reads every item the query returns
// (ascending by its one keyset field, the id), renders it through the
// template with the modified date left empty and fingerprints the result,
// and merges that stream with the recorded one (item_lifecycle.h). So
//   - dcterms:modified is the moment the fingerprint last changed: a "raise"
//     that only bumps the board's `updated` changes nothing, an edit of
//     anything the item shows (its end and picture URL included) does;
//   - an item the board deleted, hid or that ran past its end becomes a
//     take-down (if a response had listed it): listed for retention_days
//     with dcterms:valid / mi:expirationDate in the past and a newer
//     modified date, then dropped;
//   - guid is guid_prefix + the id, nothing that can change.
// A response lists the items created or modified within window_days and the
// take-downs within retention_days, newest first, at most max_items. It
// reflects the board as of the request less settle_seconds: a request syncs
// first unless a sync (by another request or `feed.fcgi sync`) read the
// board since then. Syncs and listings of one feed are serialised by a
// database lock (GET_LOCK), so two requests at once never double a change;
// a request waits RequestLockWait for it (config.h), then 503.
//
// The query returns, besides the template's fields: the keyset field (the
// id), `title` and `link` (which a take-down repeats) and `ends` (DATETIME,
// site time: the item's end, NULL for none); it bounds itself by
// :after_ID and :until_ID (a response reads its live items back one by
// one) and may use :now (the moment of the sync, site time). The template
// names the engine's fields `guid`, `modified` and `expires` (instants, for
// the date filters: {modified|rfc3339utc}); a take-down row has only the id,
// title, link and those, so mark every other element feed:if.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "clock.h"
#include "document.h"
#include "feed.h"
#include "item_state.h"
#include "replica_set.h"

namespace feed {

// What a sync did, for the command line and the log.
struct SyncReport {
  bool ran = false;  // false: the state was fresh enough already
  UnixTime at = 0;   // the moment the board was read (or last read, when fresh)
  MergeCounts counts;
  int64_t retired = 0;                      // take-downs past retention, dropped
  size_t left_out = 0;                      // rows that break a template rule (treated as not shown)
  std::vector<std::string> left_out_items;  // the first 1000
};

class MsnFeed {
 public:
  // The engine's own template fields, in the order they follow the query's
  // columns.
  static const std::vector<std::string>& EngineFields();

  // `db_config`: the item state is read and written over a connection of
  // its own, so that the board's rows can stream on the other.
  MsnFeed(Feed& feed, const DatabaseConfig& db_config);

  // Checks the mapping (Feed::Bind with the engine's fields; the query
  // returns the id, title, link and ends) and the state tables. Throws
  // kConfig / kUnavailable as Feed::Bind does.
  void Bind(Database& db);

  // Brings the item state up to date with the board as of clock.Now():
  // always when `only_if_stale` is false (the sync command), else only when
  // the last sync read the board more than settle_seconds ago. The item
  // state is read and written on the primary; the board is read from a
  // server that has reached the position the last sync read it at
  // (ReplicaSet::ForRead; before any sync, any server), and this sync's
  // position is recorded with its moment: a sync never reads a state older
  // than the previous one's, which would undo an edit and record it again.
  // `after_batch(items written)` runs after each batch of writes. Throws
  // kUnavailable when the database fails (what was written stays
  // consistent; the next sync finishes the job) or another process holds
  // the feed's lock too long (a request's sync or listing: 60 s for the
  // sync command, RequestLockWait with `only_if_stale`). Without
  // `only_if_stale` (the sync command), one such sync per feed runs at a
  // time across processes (ItemStateStore::RunLock): while another is
  // under way, throws FeedError(kBusy) "another run is syncing feed NAME
  // (database connection N)" at once, having done nothing.
  SyncReport Sync(ReplicaSet& servers, const Clock& clock, bool only_if_stale,
                  const std::function<void(size_t)>& after_batch = nullptr);

  // Renders into `out` the document a fetch would give if the first
  // `items` rows the query returns were all new now (guid from the id,
  // modified now, expires from `ends`), without reading or writing the
  // item state: check's sample of the format. Throws as Bind and the
  // query do.
  RenderReport RenderSample(Database& db, const Clock& clock, size_t items, Sink& out);
  // Serves one GET or HEAD request, as DocumentFeed::Serve does; its
  // sync and the listed items' read-back read the board as Sync does.
  void Serve(const Request& req, ReplicaSet& servers, const Clock& clock, Response& resp, FeedReport* report);

  Feed& feed() { return feed_; }
  // Runs after each batch of a sync a request makes (tests stop the
  // database there).
  void SetBatchHook(std::function<void(size_t)> hook) { batch_hook_ = std::move(hook); }

 private:
  class Lock;
  ReplicaSet::Source BoardSource(ReplicaSet& servers, const std::optional<SyncMark>& last);
  SyncReport SyncLocked(ReplicaSet& servers, const ReplicaSet::Source& source, ItemStateStore& store, UnixTime now,
                        const std::function<void(size_t)>& after_batch);
  void Serve(const Request& req, ReplicaSet& servers, std::optional<ReplicaSet::Source>* source, const Clock& clock,
             Response& resp, FeedReport* report);
  // The document of `served` rows (the query's columns, the engine's
  // fields, a rank that keeps their order), as of `now`, the newest change
  // `newest` (0: none).
  RenderReport RenderListing(std::vector<std::vector<std::optional<std::string>>> served, UnixTime now, UnixTime newest,
                             Sink& out) const;
  std::string Guid(int64_t id) const { return feed_.config().guid_prefix + std::to_string(id); }

  Feed& feed_;
  DatabaseConfig db_config_;
  Database state_db_;
  std::function<void(size_t)> batch_hook_;
  // Result columns, after Bind.
  size_t id_column_ = 0, title_column_ = 0, link_column_ = 0, ends_column_ = 0;
  bool bound_ = false;
  bool sync_positions_ = true;  // feed_item_sync has its position column
};

}  // namespace feed
