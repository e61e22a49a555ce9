#include "item_state.h"

#include <algorithm>
#include <cstdlib>

#include "error.h"
#include "stop_point.h"

namespace feed {
namespace {

SqlQuery State(const std::string& text) { return ParseSqlQuery(text, "sql/state.sql"); }

constexpr const char* kColumns = "item_id, fingerprint, modified, expires, gone, listed";

// A multi-row statement for each power of two up to kBatch, so that a batch
// of any size is a few statements, each prepared once per connection.
constexpr size_t kSizes = 8;  // 1, 2, 4, ..., 128
static_assert(size_t{1} << (kSizes - 1) == ItemStateStore::kBatch);

std::string N(const char* name, size_t i) { return std::string(":") + name + std::to_string(i); }

SqlQuery ReadQuery() {
  return State(std::string("SELECT ") + kColumns +
               " FROM feed_item_state WHERE feed = :feed AND item_id > :after ORDER BY item_id LIMIT :limit");
}
// The listing: shown items in the window, and take-downs in retention,
// each walked down the (feed, gone, modified, item_id) index.
SqlQuery ListingQuery() {
  return State(std::string("SELECT ") + kColumns +
               ", title, link FROM feed_item_state WHERE feed = :feed AND gone = :gone AND modified >= "
               ":since ORDER BY modified DESC, item_id DESC LIMIT :limit");
}
constexpr char kDropOld[] =
    "DELETE FROM feed_item_state WHERE feed = :feed AND gone = 1 AND modified < :before ORDER BY modified LIMIT "
    "1000";
// Without `position`: a table of before replicas (sql/state.sql adds it).
constexpr char kLoadSynced[] = "SELECT synced FROM feed_item_sync WHERE feed = :feed";
// GREATEST: a slower sync that began earlier never moves the moment back.
constexpr char kSaveSynced[] =
    "INSERT INTO feed_item_sync (feed, synced) VALUES (:feed, :synced) "
    "ON DUPLICATE KEY UPDATE synced = GREATEST(synced, VALUES(synced))";
constexpr char kLoadSyncedAt[] = "SELECT synced, position FROM feed_item_sync WHERE feed = :feed";
// The position goes with the moment it was stamped for: assigned first,
// it compares with the moment the record held.
constexpr char kSaveSyncedAt[] =
    "INSERT INTO feed_item_sync (feed, synced, position) VALUES (:feed, :synced, :position) "
    "ON DUPLICATE KEY UPDATE position = IF(VALUES(synced) >= synced, VALUES(position), position), "
    "synced = GREATEST(synced, VALUES(synced))";
constexpr char kNewest[] = "SELECT MAX(modified) FROM feed_item_state WHERE feed = :feed";

// ":i0, :i1, ..." of n ids.
std::string Ids(size_t n) {
  std::string ids;
  for (size_t i = 0; i < n; ++i) ids += (i ? ", " : "") + N("i", i);
  return ids;
}

// The statements of n rows (n a power of two up to kBatch).
SqlQuery PutQuery(size_t n) {
  // A take-down keeps the title and link of the content it takes down;
  // `listed` is never cleared (MSN may hold any version it was shown).
  std::string sql =
      "INSERT INTO feed_item_state (feed, item_id, fingerprint, modified, expires, gone, listed, title, link) "
      "VALUES ";
  for (size_t i = 0; i < n; ++i) {
    sql += (i ? ", (" : "(") + std::string(":feed, ") + N("i", i) + ", " + N("f", i) + ", " + N("m", i) + ", NULLIF(" +
           N("e", i) + ", 0), " + N("g", i) + ", " + N("l", i) + ", " + N("t", i) + ", " + N("k", i) + ")";
  }
  sql +=
      " ON DUPLICATE KEY UPDATE fingerprint = VALUES(fingerprint), modified = VALUES(modified), "
      "expires = VALUES(expires), title = IF(VALUES(gone) = 1, title, VALUES(title)), "
      "link = IF(VALUES(gone) = 1, link, VALUES(link)), gone = VALUES(gone), "
      "listed = GREATEST(listed, VALUES(listed))";
  return State(sql);
}
SqlQuery DropQuery(size_t n) {
  return State("DELETE FROM feed_item_state WHERE feed = :feed AND item_id IN (" + Ids(n) + ")");
}
SqlQuery MarkQuery(size_t n) {
  return State("UPDATE feed_item_state SET listed = 1 WHERE feed = :feed AND listed = 0 AND item_id IN (" + Ids(n) +
               ")");
}

int64_t Int(const Rows& r, size_t i) { return std::strtoll(std::string(r.Get(i)).c_str(), nullptr, 10); }

ItemState ReadState(const Rows& r) {
  ItemState s;
  s.id = Int(r, 0);
  s.fingerprint = static_cast<uint64_t>(Int(r, 1));
  s.modified = Int(r, 2);
  if (!r.IsNull(3)) s.expires = Int(r, 3);
  s.gone = Int(r, 4) != 0;
  s.listed = Int(r, 5) != 0;
  return s;
}

// The largest power of two not above n (n >= 1), as an index into kSizes.
size_t SizeIndex(size_t n) {
  size_t k = 0;
  while (k + 1 < kSizes && (size_t{1} << (k + 1)) <= n) ++k;
  return k;
}

}  // namespace

void ItemStateStore::Check() {
  for (const SqlQuery& q : {ReadQuery(), State(kLoadSynced)}) {
    try {
      db_.Describe(q);
    } catch (const FeedError& e) {
      if (e.kind() == ErrorKind::kUnavailable) throw;
      throw ConfigError(std::string("the tables feed_item_state and feed_item_sync are needed: apply sql/state.sql (") +
                        e.what() + ")");
    }
  }
}

bool ItemStateStore::Reader::Next(ItemState* item) {
  if (done_) return false;
  for (;;) {
    if (started_ && rows_.Next()) break;
    if (started_ && in_chunk_ < chunk_) return done_ = true, false;
    started_ = true;
    in_chunk_ = 0;
    rows_ = store_.db_.Run(ReadQuery(),
                           {{"feed", store_.feed_}, {"after", after_}, {"limit", static_cast<int64_t>(chunk_)}});
    if (!rows_.Next()) return done_ = true, false;
    break;
  }
  ++in_chunk_;
  *item = ReadState(rows_);
  after_ = item->id;
  return true;
}

void ItemStateStore::Writer::Apply(const ItemChange& change) {
  if (change.kind == ItemChange::kDropped) {
    drops_.push_back(change.state.id);
    if (drops_.size() >= kBatch) FlushDrops(kBatch);
  } else {
    puts_.push_back(change);
    if (puts_.size() >= kBatch) FlushPuts(kBatch);
  }
}

void ItemStateStore::Writer::Flush() {
  while (!puts_.empty()) FlushPuts(puts_.size());
  while (!drops_.empty()) FlushDrops(drops_.size());
}

void ItemStateStore::Writer::FlushPuts(size_t want) {
  const size_t k = SizeIndex(std::min(want, puts_.size())), n = size_t{1} << k;
  SqlParams p{{"feed", store_.feed_}};
  for (size_t i = 0; i < n; ++i) {
    const ItemChange& c = puts_[i];
    const std::string s = std::to_string(i);
    p["i" + s] = c.state.id;
    p["f" + s] = static_cast<int64_t>(c.state.fingerprint);
    p["m" + s] = c.state.modified;
    p["e" + s] = c.state.expires.value_or(0);
    p["g" + s] = int64_t{c.state.gone};
    p["l" + s] = int64_t{c.state.listed};
    p["t" + s] = c.title;
    p["k" + s] = c.link;
  }
  store_.db_.Update(PutQuery(n), p);
  StopPoint("sync.batch", ++batches_);
  puts_.erase(puts_.begin(), puts_.begin() + static_cast<ptrdiff_t>(n));
  written_ += n;
  if (after_batch_) after_batch_(written_);
}

void ItemStateStore::Writer::FlushDrops(size_t want) {
  const size_t k = SizeIndex(std::min(want, drops_.size())), n = size_t{1} << k;
  SqlParams p{{"feed", store_.feed_}};
  for (size_t i = 0; i < n; ++i) p["i" + std::to_string(i)] = drops_[i];
  store_.db_.Update(DropQuery(n), p);
  StopPoint("sync.batch", ++batches_);
  drops_.erase(drops_.begin(), drops_.begin() + static_cast<ptrdiff_t>(n));
  written_ += n;
  if (after_batch_) after_batch_(written_);
}

std::vector<ListedItem> ItemStateStore::Listing(UnixTime window_start, UnixTime retention_start, size_t limit) {
  std::vector<ListedItem> shown, gone;
  for (int g = 0; g < 2; ++g) {
    Rows r = db_.Run(ListingQuery(), {{"feed", feed_},
                                      {"gone", int64_t{g}},
                                      {"since", g ? retention_start : window_start},
                                      {"limit", static_cast<int64_t>(limit)}});
    while (r.Next()) {
      ListedItem item{ReadState(r), std::string(r.Get(6)), std::string(r.Get(7))};
      (g ? gone : shown).push_back(std::move(item));
    }
  }
  // Both newest first: merged, the newest `limit`.
  std::vector<ListedItem> out;
  auto newer = [](const ListedItem& a, const ListedItem& b) {
    return a.state.modified != b.state.modified ? a.state.modified > b.state.modified : a.state.id > b.state.id;
  };
  std::merge(std::make_move_iterator(shown.begin()), std::make_move_iterator(shown.end()),
             std::make_move_iterator(gone.begin()), std::make_move_iterator(gone.end()), std::back_inserter(out),
             newer);
  if (out.size() > limit) out.resize(limit);
  return out;
}

void ItemStateStore::MarkListed(const std::vector<int64_t>& ids) {
  size_t from = 0;
  while (from < ids.size()) {
    const size_t k = SizeIndex(std::min(kBatch, ids.size() - from)), n = size_t{1} << k;
    SqlParams p{{"feed", feed_}};
    for (size_t i = 0; i < n; ++i) p["i" + std::to_string(i)] = ids[from + i];
    db_.Update(MarkQuery(n), p);
    from += n;
  }
}

int64_t ItemStateStore::DropTakeDownsBefore(UnixTime before) {
  int64_t total = 0;
  for (;;) {
    const int64_t n = db_.Update(State(kDropOld), {{"feed", feed_}, {"before", before}});
    total += n;
    if (n < 1000) return total;
  }
}

bool ItemStateStore::SyncsHavePosition() { return db_.Accepts(State(kLoadSyncedAt)); }

std::optional<SyncMark> ItemStateStore::Synced(bool with_position) {
  Rows r = db_.Run(with_position ? State(kLoadSyncedAt) : State(kLoadSynced), {{"feed", feed_}});
  if (!r.Next()) return std::nullopt;
  SyncMark m;
  m.at = Int(r, 0);
  if (with_position) m.position = StampedPosition(r.Get(1), m.at);
  return m;
}

void ItemStateStore::SetSynced(const SyncMark& mark, bool with_position) {
  if (!with_position) {
    db_.Update(State(kSaveSynced), {{"feed", feed_}, {"synced", mark.at}});
    return;
  }
  db_.Update(State(kSaveSyncedAt),
             {{"feed", feed_}, {"synced", mark.at}, {"position", StampPosition(mark.at, mark.position)}});
}

std::optional<UnixTime> ItemStateStore::Newest() {
  Rows r = db_.Run(State(kNewest), {{"feed", feed_}});
  if (!r.Next() || r.IsNull(0)) return std::nullopt;
  return Int(r, 0);
}

}  // namespace feed
