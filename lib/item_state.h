// The item state of MSN feeds (lifecycle = msn), in tables the engine owns
// (sql/state.sql): feed_item_state, one record per item of each feed (its
// content's fingerprint, when that last changed, its end, whether it was
// taken down and whether a response listed it), and feed_item_sync, when
// each feed's state was last brought up to date with the board. Constant
// SQL with bound values only; writes are batched multi-row statements, each
// atomic on its own (see item_lifecycle.h for why a batch cut short by a
// failure leaves nothing to repair).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "gtid_position.h"
#include "item_lifecycle.h"
#include "state.h"

namespace feed {

// A record a response lists, with what a take-down repeats.
struct ListedItem {
  ItemState state;
  std::string title, link;
};

// When a feed's item state was last brought up to date: the moment the
// board was read, and the replication position it was read at (empty:
// unknown, or read without replicas; only the primary is surely as new).
struct SyncMark {
  UnixTime at = 0;
  GtidPosition position;
};

class ItemStateStore {
 public:
  // The records of `feed` ([feed NAME]) in `db`.
  ItemStateStore(Database& db, std::string feed) : db_(db), feed_(std::move(feed)) {}

  // Throws FeedError(kConfig) saying to apply sql/state.sql when a table is
  // missing; kUnavailable when the database is down.
  void Check();

  // The records in ascending id order, `chunk` at a time (each chunk one
  // query, fetched whole: the connection is free between chunks).
  class Reader : public StateItems {
   public:
    Reader(ItemStateStore& store, size_t chunk = 10000) : store_(store), chunk_(chunk) {}
    bool Next(ItemState* item) override;

   private:
    ItemStateStore& store_;
    size_t chunk_;
    Rows rows_;
    size_t in_chunk_ = 0;
    int64_t after_ = INT64_MIN;
    bool started_ = false, done_ = false;
  };

  // Changes written in batches of up to kBatch items a statement.
  // `after_batch(items written so far)` runs after each statement (the
  // command line's progress; tests stop the database there).
  static constexpr size_t kBatch = 128;
  class Writer : public ItemChanges {
   public:
    explicit Writer(ItemStateStore& store, std::function<void(size_t)> after_batch = nullptr)
        : store_(store), after_batch_(std::move(after_batch)) {}
    void Apply(const ItemChange& change) override;
    void Flush() override;

   private:
    void FlushPuts(size_t n);
    void FlushDrops(size_t n);
    ItemStateStore& store_;
    std::function<void(size_t)> after_batch_;
    std::vector<ItemChange> puts_;
    std::vector<int64_t> drops_;
    size_t written_ = 0;
    long batches_ = 0;  // statements written (StopPoint "sync.batch")
  };

  // The records a response lists: items created or modified at or
  // after `window_start` that are shown, and take-downs at or after
  // `retention_start`, newest first (modified, then id, descending), at most
  // `limit`.
  std::vector<ListedItem> Listing(UnixTime window_start, UnixTime retention_start, size_t limit);

  // Marks these items as listed by a response.
  void MarkListed(const std::vector<int64_t>& ids);

  // Deletes take-downs modified before `before` (past the retention
  // window); returns how many.
  int64_t DropTakeDownsBefore(UnixTime before);

  // Whether feed_item_sync has its `position` column (sql/state.sql adds it
  // to a table of an older version). REQUIRES: Check passed.
  bool SyncsHavePosition();
  // When the state was last brought up to date, or nullopt. The position
  // is read only `with_position`, and only when it was stored with this
  // moment (StampedPosition).
  std::optional<SyncMark> Synced(bool with_position = true);
  // Moves the moment forward (never back), with its position when
  // `with_position`.
  void SetSynced(const SyncMark& mark, bool with_position = true);

  // The newest change among the records (a take-down included), or nullopt.
  std::optional<UnixTime> Newest();

  // Serialises the syncs of one feed across processes (NamedLock on this
  // store's connection).
  class SyncLock : public NamedLock {
   public:
    SyncLock(ItemStateStore& store, int seconds) : NamedLock(store.db_, "feed.fcgi items " + store.feed_, seconds) {}
  };

  // One sync command (`feed.fcgi sync`) of the feed at a time across
  // processes (NamedLock on this store's connection, not waited for): a
  // run that does not get it finds another under way.
  class RunLock : public NamedLock {
   public:
    explicit RunLock(ItemStateStore& store) : NamedLock(store.db_, "feed.fcgi sync " + store.feed_, 0) {}
  };

  const std::string& feed() const { return feed_; }

 private:
  Database& db_;
  std::string feed_;
};

}  // namespace feed
