#include "msn_feed.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "continue_token.h"
#include "error.h"
#include "renderer.h"
#include "representation.h"
#include "state.h"
#include "stop_point.h"

namespace feed {
namespace {

// The most of an item's title or link the item state keeps.
constexpr size_t kStoredTextBytes = 4096;

constexpr int64_t kDay = 86400;
// How long the sync command waits for a request's sync or listing of the
// same feed before it gives up (a request waits RequestLockWait: it has
// the web server's timeout to keep).
constexpr int kCommandLockWait = 60;
constexpr size_t kMaxReportedItems = 1000;
constexpr uint64_t kPrintKey0 = 0x6d736e2d6974656dULL, kPrintKey1 = 0x66696e6765727072ULL;

std::string Instant(std::optional<UnixTime> t) { return t ? "@" + std::to_string(*t) : std::string(); }

size_t ColumnOf(const std::vector<Column>& cols, const std::string& name, const std::string& file, const char* why) {
  for (size_t i = 0; i < cols.size(); ++i) {
    if (cols[i].name == name) return i;
  }
  throw ConfigError(file + ": an MSN feed's query returns '" + name + "' (" + why + ")");
}

}  // namespace

// The feed's lock, waited for `seconds` in steps shorter than the
// connection's read timeout (GET_LOCK blocks the connection while it
// waits).
class MsnFeed::Lock {
 public:
  Lock(ItemStateStore& store, int read_timeout, int seconds) {
    const int step = std::max(1, std::min(seconds, read_timeout - 2));
    for (int waited = 0; waited < seconds; waited += step) {
      lock_.emplace(store, std::min(step, seconds - waited));
      if (lock_->acquired()) return;
      lock_.reset();
    }
    throw Unavailable("another process has been syncing feed " + store.feed() + " for over " +
                      std::to_string(seconds) + " s");
  }

 private:
  std::optional<ItemStateStore::SyncLock> lock_;
};

namespace {

// The board's items, read through the feed's query in id order, each
// rendered with the modified date left empty and fingerprinted.
class BoardRows : public BoardItems {
 public:
  BoardRows(KeysetRows& rows, const Template& tmpl, const TimeZone& zone, UnixTime now, std::string guid_prefix,
            size_t title, size_t link, size_t ends, SyncReport* report)
      : rows_(rows),
        tmpl_(tmpl),
        zone_(zone),
        now_(now),
        prefix_(std::move(guid_prefix)),
        title_(title),
        link_(link),
        ends_(ends),
        report_(report) {}

  bool Next(BoardItem* item, bool* ran_out) override {
    while (rows_.Next()) {
      const Rows& r = rows_.row();
      item->id = rows_.position()[0];
      item->end = End(r, ends_, zone_);
      *ran_out = item->end && *item->end <= now_;
      if (*ran_out) return true;
      guid_ = prefix_ + std::to_string(item->id);
      expires_ = Instant(item->end);
      buf_.clear();
      RowRejection why;
      if (!tmpl_.RenderRow(buf_, r, {guid_, std::string_view(), expires_}, &why, /*dates_as_stored=*/true)) {
        // An item the feed cannot show is not shown: a take-down, if it was listed.
        ++report_->left_out;
        if (report_->left_out_items.size() < kMaxReportedItems) {
          report_->left_out_items.push_back("item " + std::to_string(item->id) + ": " +
                                            (why.field.empty() ? "" : why.field + "='" + why.value + "' ") + "breaks " +
                                            why.rule);
        }
        continue;
      }
      item->fingerprint = SipHash24(kPrintKey0, kPrintKey1, buf_);
      // Kept for a take-down to repeat, in TEXT columns (65,535 bytes):
      // clean UTF-8 of at most kStoredTextBytes, cut at a character.
      item->title = CleanUtf8(Utf8Prefix(r.Get(title_), kStoredTextBytes));
      item->link = CleanUtf8(Utf8Prefix(r.Get(link_), kStoredTextBytes));
      return true;
    }
    return false;
  }

  // The `ends` column as an instant (its DATETIME is site time), or none.
  static std::optional<UnixTime> End(const Rows& r, size_t column, const TimeZone& zone) {
    if (r.IsNull(column)) return std::nullopt;
    auto t = ParseSqlDateTime(r.Get(column), /*allow_date_only=*/true);
    if (!t) return std::nullopt;
    return zone.ToUnix(*t);
  }

 private:
  KeysetRows& rows_;
  const Template& tmpl_;
  const TimeZone& zone_;
  UnixTime now_;
  std::string prefix_;
  size_t title_, link_, ends_;
  SyncReport* report_;
  std::string buf_, guid_, expires_;
};

}  // namespace

const std::vector<std::string>& MsnFeed::EngineFields() {
  static const std::vector<std::string> fields = {"guid", "modified", "expires"};
  return fields;
}

MsnFeed::MsnFeed(Feed& feed, const DatabaseConfig& db_config)
    : feed_(feed), db_config_(db_config), state_db_(db_config) {}

void MsnFeed::Bind(Database& db) {
  if (bound_) return;
  feed_.Bind(db, EngineFields());
  const auto& cols = feed_.columns();
  const std::string& file = feed_.config().query_file;
  id_column_ = ColumnOf(cols, feed_.config().keyset[0], file, "the keyset");
  title_column_ = ColumnOf(cols, "title", file, "a take-down repeats it");
  link_column_ = ColumnOf(cols, "link", file, "a take-down repeats it");
  ends_column_ = ColumnOf(cols, "ends", file, "the item's end, site time, NULL for none");
  if (cols[id_column_].type != ColumnType::kInteger) {
    throw ConfigError(file + ": an MSN feed's keyset '" + cols[id_column_].name + "' is an integer id");
  }
  if (cols[ends_column_].type != ColumnType::kDateTime && cols[ends_column_].type != ColumnType::kDate) {
    throw ConfigError(file + ": 'ends' is a DATETIME or DATE column (the item's end, site time)");
  }
  ItemStateStore(state_db_, feed_.config().name).Check();
  StateStore(state_db_).CheckSeen();
  sync_positions_ = ItemStateStore(state_db_, feed_.config().name).SyncsHavePosition();
  bound_ = true;
}

ReplicaSet::Source MsnFeed::BoardSource(ReplicaSet& servers, const std::optional<SyncMark>& last) {
  // Never older than what the last sync read (an empty position: only the
  // primary is surely as new); before any sync, any server.
  return servers.ForRead(last ? std::optional(last->position) : std::nullopt);
}

SyncReport MsnFeed::SyncLocked(ReplicaSet& servers, const ReplicaSet::Source& source, ItemStateStore& store,
                               UnixTime now, const std::function<void(size_t)>& after_batch) {
  const FeedConfig& c = feed_.config();
  Database& db = *source.db;
  SyncReport report;
  report.ran = true;
  report.at = now;
  SqlParams params = feed_.RunParams("", FormatSqlDateTime(feed_.zone().FromUnix(now)));
  std::unique_ptr<ChunkReader> reader = feed_.Reader(db, params);
  KeysetRows rows(*reader, feed_.keyset(), feed_.keyset().First(""), std::nullopt, static_cast<size_t>(c.fetch_rows));
  BoardRows board(rows, feed_.tmpl(), feed_.zone(), now, c.guid_prefix, title_column_, link_column_, ends_column_,
                  &report);
  // The records come in chunks of at most 2,000 (a buffered result each):
  // the memory a sync needs does not follow the board's fetch_rows.
  ItemStateStore::Reader state(store, std::min<size_t>(2000, static_cast<size_t>(c.fetch_rows)));
  ItemStateStore::Writer writer(store, after_batch);
  report.counts = MergeItems(board, state, writer, now);
  StopPoint("sync.merged");
  report.retired = store.DropTakeDownsBefore(now - c.retention_days * kDay + 1);
  // Asked after the board was read: its rows are no newer than this, and
  // the next sync reads from a server that has reached it.
  store.SetSynced(SyncMark{now, servers.PositionOf(source)}, sync_positions_);
  return report;
}

SyncReport MsnFeed::Sync(ReplicaSet& servers, const Clock& clock, bool only_if_stale,
                         const std::function<void(size_t)>& after_batch) {
  Bind(servers.primary());
  ItemStateStore store(state_db_, feed_.config().name);
  // The sync command: one run per feed at a time. A second finds the
  // first's lock and leaves at once; the feed's own lock is only for the
  // time a sync writes, and a request's turn is short.
  std::optional<ItemStateStore::RunLock> run;
  if (!only_if_stale) {
    run.emplace(store);
    if (!run->acquired()) {
      throw Busy("another run is syncing feed " + feed_.config().name +
                 (run->holder().empty() ? "" : " (database connection " + run->holder() + ")"));
    }
  }
  Lock lock(store, db_config_.read_timeout, only_if_stale ? RequestLockWait(db_config_) : kCommandLockWait);
  const UnixTime now = clock.Now();
  const std::optional<SyncMark> last = store.Synced(sync_positions_);
  // A mark "after now" (the clock stepped back since) is stale too: else
  // no request would sync for the step's length.
  if (only_if_stale && last && last->at >= now - feed_.config().settle_seconds && last->at <= now) {
    SyncReport fresh;
    fresh.at = last->at;
    return fresh;
  }
  const ReplicaSet::Source source = BoardSource(servers, last);
  try {
    return SyncLocked(servers, source, store, now, after_batch);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
}

RenderReport MsnFeed::RenderListing(std::vector<std::vector<std::optional<std::string>>> served, UnixTime now,
                                    UnixTime newest, Sink& out) const {
  const FeedConfig& c = feed_.config();
  std::vector<Column> row_cols = feed_.columns();
  for (const std::string& f : EngineFields()) row_cols.push_back({f, ColumnType::kText});
  row_cols.push_back({" rank", ColumnType::kInteger});
  Keyset rank({" rank"}, Direction::kAscending);
  MemoryChunks chunks(row_cols, std::move(served), rank);
  KeysetRows rows(chunks, rank, rank.First(""), std::nullopt, SIZE_MAX);
  DocumentRenderer renderer(feed_.tmpl(), rows, Limits{0, 0});
  DocumentValues doc;
  doc.name = c.name;
  doc.date = FormatSqlDateTime(feed_.zone().FromUnix(now - c.settle_seconds));
  doc.updated = FormatSqlDateTime(feed_.zone().FromUnix(newest ? newest : now));
  return renderer.Segment(out, doc);
}

RenderReport MsnFeed::RenderSample(Database& db, const Clock& clock, size_t items, Sink& out) {
  Bind(db);
  const UnixTime now = clock.Now();
  const size_t columns = feed_.columns().size();
  std::unique_ptr<ChunkReader> reader =
      feed_.Reader(db, feed_.RunParams("", FormatSqlDateTime(feed_.zone().FromUnix(now))), /*stream=*/false);
  KeysetRows board(*reader, feed_.keyset(), feed_.keyset().First(""), std::nullopt, std::max<size_t>(items, 1));
  std::vector<std::vector<std::optional<std::string>>> served;
  while (served.size() < items && board.Next()) {
    const Rows& r = board.row();
    std::vector<std::optional<std::string>> row(columns);
    for (size_t i = 0; i < columns; ++i) {
      if (!r.IsNull(i)) row[i] = std::string(r.Get(i));
    }
    // As if new now: an item that ran out shows as a take-down would.
    row.push_back(Guid(board.position()[0]));
    row.push_back(Instant(now));
    row.push_back(Instant(BoardRows::End(r, ends_column_, feed_.zone())));
    row.push_back(std::to_string(served.size() + 1));
    served.push_back(std::move(row));
  }
  return RenderListing(std::move(served), now, now, out);
}

void MsnFeed::Serve(const Request& req, ReplicaSet& servers, const Clock& clock, Response& resp, FeedReport* report) {
  // The feed takes no parameters; a malformed query string is still a 400.
  QueryParams::Parse(req.query_string);
  Bind(servers.primary());
  std::optional<ReplicaSet::Source> source;
  try {
    Serve(req, servers, &source, clock, resp, report);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable && source) servers.ReadFailed(*source);
    throw;
  }
}

void MsnFeed::Serve(const Request& req, ReplicaSet& servers, std::optional<ReplicaSet::Source>* source,
                    const Clock& clock, Response& resp, FeedReport* report) {
  const FeedConfig& c = feed_.config();
  ItemStateStore store(state_db_, c.name);

  // Rows as the template sees them (RenderListing).
  const std::vector<Column>& cols = feed_.columns();
  using Row = MemoryChunks::Row;
  std::vector<Row> served;
  std::vector<int64_t> listed_ids;
  std::string state_text;  // what the body depends on, for the validators
  UnixTime newest = 0;
  const UnixTime now = clock.Now();
  {
    Lock lock(store, db_config_.read_timeout, RequestLockWait(db_config_));
    const std::optional<SyncMark> last = store.Synced(sync_positions_);
    // The board (the sync's, then the listed items read back) from one
    // server, at least as new as the last sync's.
    *source = BoardSource(servers, last);
    report->read_from = *(*source)->name;
    if (!last || last->at < now - c.settle_seconds) {
      SyncReport r = SyncLocked(servers, **source, store, now, batch_hook_);
      for (std::string& s : r.left_out_items) report->Skip(std::move(s));
    }
    Database& db = *(*source)->db;
    // Within a window: less than its length ago.
    std::vector<ListedItem> listing = store.Listing(now - c.window_days * kDay + 1, now - c.retention_days * kDay + 1,
                                                    static_cast<size_t>(c.max_items));
    // One row at a time, by its id: a prepared statement (prepared once)
    // costs less than a streamed one built anew for every row.
    std::unique_ptr<ChunkReader> reader =
        feed_.Reader(db, feed_.RunParams("", FormatSqlDateTime(feed_.zone().FromUnix(now))), /*stream=*/false);
    std::string buf;
    for (const ListedItem& item : listing) {
      const ItemState& s = item.state;
      const std::string guid = Guid(s.id);
      Row row(cols.size());
      if (s.gone) {
        row[id_column_] = std::to_string(s.id);
        row[title_column_] = item.title;
        row[link_column_] = item.link;
      } else {
        // The item as the board shows it now; shown only when it is still
        // the content the state recorded (a change since the last sync, or
        // a row gone since, waits for the next one).
        KeysetRows one(*reader, feed_.keyset(), Position{s.id - 1}, Position{s.id}, 1, 1);
        if (!one.Next() || one.position()[0] != s.id) continue;
        const Rows& r = one.row();
        const std::string expires = Instant(BoardRows::End(r, ends_column_, feed_.zone()));
        buf.clear();
        if (!feed_.tmpl().RenderRow(buf, r, {guid, std::string_view(), expires}, nullptr, /*dates_as_stored=*/true) ||
            SipHash24(kPrintKey0, kPrintKey1, buf) != s.fingerprint) {
          continue;
        }
        for (size_t i = 0; i < cols.size(); ++i) {
          if (!r.IsNull(i)) row[i] = std::string(r.Get(i));
        }
      }
      row.push_back(guid);
      // An item changed at a clock since stepped back is stamped after
      // the change before it (item_lifecycle.h), which may be after now:
      // shown as now, never in the future.
      row.push_back(Instant(std::min(s.modified, now)));
      row.push_back(Instant(s.expires));
      row.push_back(std::to_string(served.size() + 1));
      served.push_back(std::move(row));
      listed_ids.push_back(s.id);
      newest = std::max(newest, std::min(s.modified, now));
      state_text += std::to_string(s.id) + ' ' + std::to_string(s.modified) + ' ' + std::to_string(s.gone) + ' ' +
                    Instant(s.expires) + ' ' + std::to_string(s.fingerprint) + '\n';
    }
    // Listed: these items get take-downs when they leave the board. A HEAD
    // shows nothing; a 304 answers a client that was shown them before.
    if (req.method == "GET") store.MarkListed(listed_ids);
  }

  Representation rep;
  rep.head.Add("Content-Type", c.content_type + "; charset=" + CharsetName(c.encoding));
  rep.head.Add("Vary", "Accept-Encoding");
  rep.gzip = AcceptsGzip(req.accept_encoding);
  const uint64_t tag = SipHash24(feed_.identity(), feed_.identity() ^ 0x5bd1e995, state_text);
  rep.validators.etag = EntityTag{false, Hex64(tag) + (rep.gzip ? "-gz" : "")}.ToString();
  // Last-Modified moves with every change of the listing, an item that left
  // the window or the state included (StateStore::StateSeen).
  const int64_t seen = StateStore(state_db_).StateSeen(c.name, "items", Hex64(tag), now);
  if (seen <= now) rep.validators.last_modified = std::max(newest, seen);
  // The rows a sync left out stay in the report after the listing's (Respond).
  rep.write_body = [&](Sink& body) { return RenderListing(std::move(served), now, newest, body); };
  Respond(req, rep, clock, resp, report);
}

}  // namespace feed
