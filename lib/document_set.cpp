#include "document_set.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "continue_token.h"
#include "datetime.h"
#include "error.h"
#include "folder_lock.h"
#include "representation.h"
#include "stop_point.h"

namespace feed {
namespace {

const std::vector<Column> kIndexColumns = {
    {"n", ColumnType::kInteger}, {"loc", ColumnType::kText}, {"lastmod", ColumnType::kText}};

std::optional<UnixTime> Moment(const std::string& text, const TimeZone& zone) {
  if (auto t = ParseSqlDateTime(text, true)) return zone.ToUnix(*t);
  return std::nullopt;
}

// `data` into `out`, gzip-encoded when `gz` (a .gz URL).
void WriteMaybeGzipped(const std::string& data, bool gz, Sink& out) {
  if (!gz) return out.Write(data);
  GzipSink z(out);
  z.Write(data);
  z.Finish();
}

// A file being written; a failure says which file and why.
class FileWriter : public Sink {
 public:
  explicit FileWriter(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wbx")) {
    if (!f_) Fail("cannot create");
  }
  ~FileWriter() override {
    if (f_) std::fclose(f_);
  }
  void Write(std::string_view b) override {
    if (!b.empty() && std::fwrite(b.data(), 1, b.size(), f_) != b.size()) Fail("cannot write");
  }
  // Flushes and starts the disk writes, without waiting for them (the
  // folder's Commit waits, once, for every file).
  void Close() {
    FILE* f = f_;
    f_ = nullptr;
    if (std::fflush(f) != 0) {
      std::fclose(f);
      Fail("cannot write");
    }
    sync_file_range(fileno(f), 0, 0, SYNC_FILE_RANGE_WRITE);
    if (std::fclose(f) != 0) Fail("cannot close");
  }

 private:
  [[noreturn]] void Fail(const char* what) { throw FileError(std::string(what) + " " + path_, errno, "the set's folder"); }
  std::string path_;
  FILE* f_;
};

// A file and, when asked, its .gz twin, written in one pass.
class FilePair : public Sink {
 public:
  FilePair(const std::string& path, bool gz) : plain_(path) {
    if (gz) {
      gz_file_ = std::make_unique<FileWriter>(path + ".gz");
      gzip_ = std::make_unique<GzipSink>(*gz_file_);
    }
  }
  void Write(std::string_view b) override {
    plain_.Write(b);
    if (gzip_) gzip_->Write(b);
  }
  void Close() {
    plain_.Close();
    if (gzip_) {
      gzip_->Finish();
      gz_file_->Close();
    }
  }

 private:
  FileWriter plain_;
  std::unique_ptr<FileWriter> gz_file_;
  std::unique_ptr<GzipSink> gzip_;
};

// A folder written beside the set's folder and swapped in whole: removed
// again unless Commit() swapped it in.
class NewFolder {
 public:
  explicit NewFolder(const std::string& dir) : dir_(dir), tmp_(dir + ".new-" + std::to_string(getpid())) {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);
    if (mkdir(tmp_.c_str(), 0755) != 0) {
      throw FileError("cannot create " + tmp_, errno, "the set's folder");
    }
  }
  ~NewFolder() {
    std::error_code ec;
    std::filesystem::remove_all(tmp_, ec);  // the old set after a swap, or a failed new one
  }
  const std::string& path() const { return tmp_; }
  // Removes what runs killed midway left beside `dir`: their new folders
  // (DIR.new-PID), or the old set a killed run had swapped out. REQUIRES:
  // the folder's lock (FolderLock), so that none of them is a live run's.
  static void RemoveLeftovers(const std::string& dir) {
    const std::filesystem::path d(dir);
    const std::string prefix = d.filename().string() + ".new-";
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(d.parent_path(), ec)) {
      const std::string name = e.path().filename().string();
      if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
          name.find_first_not_of("0123456789", prefix.size()) == std::string::npos) {
        std::error_code rm;
        std::filesystem::remove_all(e.path(), rm);
      }
    }
  }
  // Puts the new folder in the set's place in one step: a crawler sees the
  // old set or the new one. The old one is removed with this object. The
  // files are on disk first, so that a crash after the swap cannot leave a
  // set of empty files in place of the old one.
  void Commit() {
    SyncFiles();
    StopPoint("write.swap");
    if (renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) == 0)
      return StopPoint("write.swapped");
    if (errno == ENOENT && rename(tmp_.c_str(), dir_.c_str()) == 0) return StopPoint("write.swapped");
    throw FileError("cannot swap " + tmp_ + " into " + dir_, errno, "the set's folder");
  }

 private:
  void SyncFiles() {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(tmp_, ec)) Sync(e.path().string());
    if (ec) throw InternalError("cannot list " + tmp_ + ": " + ec.message());
    Sync(tmp_);
  }
  static void Sync(const std::string& path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && fsync(fd) == 0;
    const int err = errno;
    if (fd >= 0) close(fd);
    if (!ok) throw FileError("cannot write " + path, err, "the set's folder");
  }

  std::string dir_, tmp_;
};

}  // namespace

DocumentSet::DocumentSet(const SetConfig& config, std::vector<Feed*> sections, const Config& site,
                         const Clock* clock)
    : config_(config), sections_(std::move(sections)), lock_wait_(RequestLockWait(site.database)) {
  if (config_.format == Format::kXml) {
    index_ = Template::Parse(ReadSiteFile(config_.template_file), config_.template_file, Format::kXml, Charset::kUtf8,
                             TemplateValues(site, nullptr), site.zone, clock);
    index_->BindColumns(kIndexColumns, "the index's parts (fields loc and lastmod)");
  }
}

void DocumentSet::Bind(Database& db) {
  if (bound_) return;
  for (Feed* f : sections_) f->Bind(db);
  StateStore(db).CheckPlans();
  StateStore(db).CheckSeen();
  plan_positions_ = StateStore(db).PlansHavePosition();
  bound_ = true;
}

std::string DocumentSet::IndexName() const { return config_.path.substr(config_.path.rfind('/') + 1); }

std::string DocumentSet::PartName(const std::string& section, int n) const {
  std::string p = RouteTable::Expand(config_.PartPattern(), section, n);
  return p.substr(p.rfind('/') + 1);
}

size_t DocumentSet::SectionIndex(const std::string& name) const {
  if (name.empty() && sections_.size() == 1) return 0;
  for (size_t i = 0; i < sections_.size(); ++i) {
    if (sections_[i]->config().name == name) return i;
  }
  throw NotFound("no section '" + name + "' in this set");
}

Limits DocumentSet::PartLimits(const Feed& f) const {
  return Limits{static_cast<size_t>(f.config().max_items), static_cast<size_t>(f.config().max_bytes)};
}

std::string DocumentSet::PlanIdentity(const Feed& f) const {
  std::string s = std::to_string(f.identity()) + '\x1f' + std::to_string(f.config().max_items) + '\x1f' +
                  std::to_string(f.config().max_bytes) + '\x1f' + std::to_string(config_.part_fill);
  for (const std::string& k : f.config().keyset) s += '\x1f' + k;
  return Hex64(SipHash24(0x706c616e, 0x6964656e74, s));
}

// A plan is due for a refresh once refresh_seconds old, or when it was
// made "after now" (the clock stepped back since): else it would be kept
// for the step's length beyond refresh_seconds.
bool DocumentSet::Due(const PartPlan& plan, int64_t now) const {
  return now < plan.planned || now - plan.planned >= config_.refresh_seconds;
}

PartPlan DocumentSet::Plan(ReplicaSet& servers, const Clock& clock, size_t section, bool refresh) {
  Feed& f = *sections_[section];
  // Plans are read and written on the primary: every node serves the same
  // ranges.
  StateStore state(servers.primary());
  const std::string identity = PlanIdentity(f);
  auto usable = [&](const std::optional<PartPlan>& p) {
    return p && p->identity == identity && (!refresh || !Due(*p, clock.Now()));
  };
  std::optional<PartPlan> stored = state.LoadPlan(f.config().name, f.keyset().fields().size(), plan_positions_);
  if (usable(stored)) return *stored;
  // One process plans at a time; the others wait and take its plan.
  // A request waits at most RequestLockWait (config.h: the web server's
  // timeout), then serves the stored plan when there is one.
  StateStore::PlanLock lock(state, f.config().name, lock_wait_);
  if (!lock.acquired()) {
    if (stored && stored->identity == identity) return *stored;
    throw Unavailable("another process has been planning the parts of " + f.config().name + " for " +
                      std::to_string(lock_wait_) + " s");
  }
  stored = state.LoadPlan(f.config().name, f.keyset().fields().size(), plan_positions_);
  if (usable(stored)) return *stored;
  if (stored && stored->identity != identity) stored.reset();  // another mapping: start afresh

  // The rows from a server that has what the stored plan was made from, so
  // that a plan never goes back; where its position is unknown, any.
  const ReplicaSet::Source source =
      servers.ForRead(stored && !stored->at.empty() ? std::optional(stored->at) : std::nullopt);
  const int64_t now = clock.Now();
  PartPlan plan;
  try {
    Database& db = *source.db;
    std::unique_ptr<ChunkReader> reader = f.Reader(db, f.RunParams("", FormatSqlDateTime(f.zone().FromUnix(now))));
    KeysetRows rows(*reader, f.keyset(), f.keyset().First(""), std::nullopt,
                    static_cast<size_t>(f.config().fetch_rows));
    plan = RefreshPlan(f.tmpl(), rows, f.lastmod_column(), PlanLimits{PartLimits(f), config_.part_fill}, stored);
    // Asked after the rows were read: they are no newer than it.
    plan.at = servers.PositionOf(source);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
  plan.identity = identity;
  plan.planned = now;
  state.SavePlan(f.config().name, plan, plan_positions_);
  return plan;
}

RenderReport DocumentSet::RenderIndex(const std::vector<std::pair<std::string, std::string>>& parts, Sink& out) const {
  std::vector<MemoryChunks::Row> rows;
  for (size_t i = 0; i < parts.size(); ++i) {
    rows.push_back({std::to_string(i + 1), Url(parts[i].first),
                    parts[i].second.empty() ? std::nullopt : std::optional<std::string>(parts[i].second)});
  }
  Keyset order({"n"}, Direction::kAscending);
  MemoryChunks source(kIndexColumns, std::move(rows), order);
  KeysetRows walk(source, order, order.First(""), std::nullopt, parts.size() + 1);
  DocumentRenderer renderer(*index_, walk,
                            Limits{static_cast<size_t>(config_.max_items), static_cast<size_t>(config_.max_bytes)});
  RenderReport r = renderer.Segment(out, DocumentValues{});
  if (r.more) r.Skip(std::to_string(parts.size() - r.rows) + " parts past the index's max_items or max_bytes");
  return r;
}

void DocumentSet::ServeIndex(const Request& req, bool gz, ReplicaSet& servers, const Clock& clock, Response& resp,
                             FeedReport* report) {
  if (!index_) throw NotFound("a text set has no index; its parts are " + PartName(sections_[0]->config().name, 1));
  // With the primary down, the index lists the plans a replica holds, as
  // they stand (a refresh writes to the primary): its parts are served
  // from there too (ServePart).
  std::optional<ReplicaSet::Source> from_replica;
  auto primary_down = [&](const FeedError& e) { return e.kind() == ErrorKind::kUnavailable && servers.has_replicas(); };
  try {
    Bind(servers.primary());
  } catch (const FeedError& e) {
    if (!primary_down(e)) throw;
    from_replica.emplace();
  }
  std::vector<std::pair<std::string, std::string>> parts;
  std::string newest;
  for (size_t s = 0; s < sections_.size(); ++s) {
    PartPlan plan;
    if (!from_replica) {
      try {
        plan = Plan(servers, clock, s, /*refresh=*/true);
      } catch (const FeedError& e) {
        if (!primary_down(e)) throw;
        from_replica.emplace();
      }
    }
    if (from_replica) *from_replica = PlanFromReplica(servers, s, &plan);
    for (const PartRange& p : plan.parts) {
      if (p.rows == 0) continue;  // a sitemap lists at least one URL; an empty part is not listed
      parts.emplace_back(PartName(sections_[s]->config().name, p.number), p.lastmod);
      newest = std::max(newest, p.lastmod);
    }
  }
  // An index lists at least one part: a set with no row at all lists its
  // first, which its template writes as it writes an empty part (a
  // sitemap's names the home page).
  if (parts.empty()) parts.emplace_back(PartName(sections_[0]->config().name, 1), "");
  report->read_from = from_replica ? *from_replica->name : "primary";
  StringSink made;
  const RenderReport index_report = RenderIndex(parts, made);
  // The index is small and made whole: its tag is its own bytes, and its
  // Last-Modified the newest part's lastmod or, when later, the moment
  // these bytes were first seen (a part that lost its newest row makes
  // the newest lastmod go back).
  const bool gzip = gz || AcceptsGzip(req.accept_encoding);
  Representation rep;
  Validators& v = rep.validators;
  v.etag = "\"" + Hex64(SipHash24(0x696e646578, gzip + 2 * gz, made.data)) + "\"";
  const int64_t now = clock.Now();
  if (from_replica) {
    // Without the primary the moment these bytes were first seen is not
    // known: Last-Modified is the newest part's lastmod alone.
    // Never later than now: a row stamped ahead (a board's clock ahead).
    if (auto m = Moment(newest, sections_[0]->zone())) v.last_modified = std::min(*m, now);
  } else if (const int64_t first_seen = StateStore(servers.primary())
                                            .StateSeen(config_.name, "index",
                                                       Hex64(SipHash24(0x696e646578, 0, made.data)), now);
             first_seen <= now) {
    v.last_modified = std::min(std::max(Moment(newest, sections_[0]->zone()).value_or(first_seen), first_seen), now);
  }
  rep.head.Add("Content-Type", gz ? "application/gzip" : "text/xml; charset=UTF-8");
  if (!gz) rep.head.Add("Vary", "Accept-Encoding");
  rep.gzip = gzip && !gz;
  rep.write_body = [&](Sink& body) {
    WriteMaybeGzipped(made.data, gz, body);
    return index_report;
  };
  Respond(req, rep, clock, resp, report);
}

void DocumentSet::ServePart(const Request& req, const std::string& section, int n, bool gz, ReplicaSet& servers,
                            const Clock& clock, Response& resp, FeedReport* report) {
  const size_t s = SectionIndex(section);
  Feed& f = *sections_[s];
  PartPlan plan;
  std::optional<ReplicaSet::Source> from_replica;
  try {
    Bind(servers.primary());
    plan = Plan(servers, clock, s, /*refresh=*/false);
  } catch (const FeedError& e) {
    if (e.kind() != ErrorKind::kUnavailable || !servers.has_replicas()) throw;
    from_replica = PlanFromReplica(servers, s, &plan);
  }
  const PartRange* part = plan.Find(n);
  if (!part && !from_replica && Due(plan, clock.Now())) {
    plan = Plan(servers, clock, s, /*refresh=*/true);  // a newer index may list it
    part = plan.Find(n);
  }
  if (!part && from_replica) {
    throw Unavailable("the primary is down and replica " + *from_replica->name + "'s plan of " + f.config().name +
                      " has no part " + std::to_string(n));
  }
  if (!part) throw NotFound("no part " + std::to_string(n) + " of " + f.config().name + "; see the index");
  // From a server that has reached what the plan was made from (an index
  // made from one replica, its parts read from another): a part never
  // shows a state older than its plan's. None can: 503. A plan read from a
  // replica is served by that replica.
  const ReplicaSet::Source source = from_replica ? *from_replica : servers.ForRead(plan.at);
  report->read_from = *source.name;
  try {
    ServePart(req, f, plan, *part, gz, servers, source, clock, resp, report);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
}

ReplicaSet::Source DocumentSet::PlanFromReplica(ReplicaSet& servers, size_t section, PartPlan* plan) {
  Feed& f = *sections_[section];
  // With the primary down, ForRead gives a replica that still applies
  // what it received (else it throws kUnavailable).
  const ReplicaSet::Source source = servers.ForRead(std::nullopt);
  if (source.replica < 0) throw Unavailable("the primary cannot give the plan of " + f.config().name);
  std::optional<PartPlan> stored;
  try {
    Bind(*source.db);
    stored = StateStore(*source.db).LoadPlan(f.config().name, f.keyset().fields().size(), plan_positions_);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
  if (!stored || stored->identity != PlanIdentity(f)) {
    throw Unavailable("the primary is down and replica " + *source.name + " has no current plan of " + f.config().name);
  }
  *plan = std::move(*stored);
  return source;
}

void DocumentSet::ServePart(const Request& req, Feed& f, const PartPlan& plan, const PartRange& range, bool gz,
                            ReplicaSet& servers, const ReplicaSet::Source& source, const Clock& clock, Response& resp,
                            FeedReport* report) {
  const PartRange* part = &range;
  const int n = range.number;
  Database& db = *source.db;

  const std::string now = FormatSqlDateTime(f.zone().FromUnix(clock.Now()));
  SqlParams params = f.RunParams("", now);
  f.keyset().BindAfter(part->after, &params);
  f.keyset().BindUntil(part->until ? *part->until : f.keyset().Last(), &params);
  params["limit"] = static_cast<int64_t>(f.config().max_items);
  const bool gzip = gz || AcceptsGzip(req.accept_encoding);
  Representation rep;
  rep.validators = f.State(db, servers.primary(), params, "part " + Keyset::Format(part->after) + (gz ? " gz" : ""),
                           gzip, clock.Now())
                       .validators;
  rep.head.Add("Content-Type", gz ? std::string("application/gzip")
                                  : f.config().content_type + "; charset=" + CharsetName(f.config().encoding));
  if (!gz) rep.head.Add("Vary", "Accept-Encoding");
  rep.gzip = gzip && !gz;

  // The rows, read once the validators did not answer.
  std::unique_ptr<ChunkReader> reader;
  std::optional<KeysetRows> rows;
  auto open = [&] {
    reader = f.Reader(db, params);
    rows.emplace(*reader, f.keyset(), part->after, part->until, static_cast<size_t>(f.config().fetch_rows));
  };
  rep.before_head = [&] {
    open();
    rows->Next();  // the first chunk, so that a database failure is still a 503
  };
  rep.write_body = [&](Sink& body) {
    open();
    DocumentRenderer renderer(f.tmpl(), *rows, PartLimits(f), f.lastmod_column());
    std::unique_ptr<GzipSink> z;
    if (gz) z = std::make_unique<GzipSink>(body);
    RenderReport r = renderer.Segment(z ? static_cast<Sink&>(*z) : body, DocumentValues{});
    if (r.more) SplitLater(f, plan, n, servers, source, &r);
    if (z) z->Finish();
    return r;
  };
  Respond(req, rep, clock, resp, report);
}

// The range grew past a limit since it was planned: the rest waits for the
// next plan (made with the next index), which splits the part.
void DocumentSet::SplitLater(const Feed& f, const PartPlan& plan, int n, ReplicaSet& servers,
                             const ReplicaSet::Source& source, RenderReport* report) {
  report->Skip("part " + std::to_string(n) + " of " + f.config().name +
               " reached its limit; the rows after it come in a new part when the index is made again");
  try {
    StateStore(servers.primary())
        .SavePlan(f.config().name, PartPlan{plan.identity, 0, plan.parts, plan.at}, plan_positions_);
  } catch (const FeedError& e) {
    // The primary is away: the part is served; the split waits for the
    // next refresh.
    if (e.kind() != ErrorKind::kUnavailable || source.replica < 0) throw;
  }
}

WriteReport DocumentSet::Write(ReplicaSet& servers, const Clock& clock, const std::string& dir_given,
                               const std::function<void(size_t rows)>& progress) {
  // "maps/" is the folder "maps": its lock and new folder go beside it.
  std::string dir = dir_given;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  // One run per folder: a run that finds another under way does nothing.
  FolderLock lock(dir);
  if (!lock.acquired()) {
    throw Busy("another run is writing " + dir +
               (lock.holder() > 0 ? " (pid " + std::to_string(lock.holder()) + ")" : " (it has just started)"));
  }
  NewFolder::RemoveLeftovers(dir);
  Bind(servers.primary());
  // One read of each section, all from one server: any healthy one (the
  // files are a snapshot; nothing later has to match them).
  const ReplicaSet::Source source = servers.ForRead(std::nullopt);
  try {
    return Write(*source.db, clock, dir, progress);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
}

WriteReport DocumentSet::Write(Database& db, const Clock& clock, const std::string& dir,
                               const std::function<void(size_t rows)>& progress) {
  WriteReport out;
  NewFolder folder(dir);
  std::vector<std::pair<std::string, std::string>> parts;
  std::optional<WrittenFile> first_empty;  // the first section's first part, when it holds no row
  const std::string now = FormatSqlDateTime(sections_[0]->zone().FromUnix(clock.Now()));
  for (Feed* f : sections_) {
    std::unique_ptr<ChunkReader> reader = f->Reader(db, f->RunParams("", now));
    KeysetRows rows(*reader, f->keyset(), f->keyset().First(""), std::nullopt,
                    static_cast<size_t>(f->config().fetch_rows));
    DocumentRenderer renderer(f->tmpl(), rows, PartLimits(*f), f->lastmod_column());
    for (int n = 1;;) {
      const std::string name = PartName(f->config().name, n);
      const std::string path = folder.path() + "/" + name;
      FilePair file(path, f->config().gzip_files);
      RenderReport r = renderer.Segment(file, DocumentValues{});
      file.Close();
      for (std::string& s : r.skipped_items) out.left_out.Skip(f->config().name + ": " + s);
      out.left_out.skipped += r.skipped - std::min(r.skipped, r.skipped_items.size());
      for (std::string& s : r.dropped_items) {
        if (out.left_out.dropped_items.size() < 1000) out.left_out.dropped_items.push_back(f->config().name + ": " + s);
      }
      out.left_out.dropped += r.dropped;
      for (std::string& s : r.noted_items) {
        if (out.left_out.noted_items.size() < 1000) out.left_out.noted_items.push_back(f->config().name + ": " + s);
      }
      out.left_out.noted += r.noted;
      if (r.rows == 0 && f == sections_[0] && n == 1 && index_) {
        first_empty = WrittenFile{name, r.rows, r.bytes};  // kept only if the whole set is empty
      } else if (r.rows == 0) {
        // No URL: a sitemap must list at least one, so the part is not
        // written (a section with no rows has no parts).
        unlink(path.c_str());
        unlink((path + ".gz").c_str());
      } else {
        out.files.push_back({name, r.rows, r.bytes});
        StopPoint("write.part", static_cast<long>(out.files.size()));
        out.rows += r.rows;
        parts.emplace_back(name, r.newest);
        if (!index_) out.urls.push_back(Url(name));
        ++n;
      }
      if (progress) progress(out.rows);
      if (!r.more) break;
    }
  }
  if (first_empty) {
    // An index lists at least one part: an empty set keeps its first
    // (written as the template writes an empty part), another set drops it.
    const std::string path = folder.path() + "/" + first_empty->name;
    if (parts.empty()) {
      out.files.push_back(*first_empty);
      parts.emplace_back(first_empty->name, "");
    } else {
      unlink(path.c_str());
      unlink((path + ".gz").c_str());
    }
  }
  if (index_) {
    FilePair file(folder.path() + "/" + IndexName(), config_.gzip_files);
    RenderReport r = RenderIndex(parts, file);
    file.Close();
    out.files.push_back({IndexName(), r.rows, r.bytes});
    for (std::string& s : r.skipped_items) out.left_out.Skip("index: " + s);
    out.urls.push_back(Url(IndexName()));
  }
  folder.Commit();
  return out;
}

}  // namespace feed
