// A document set: the parts of its section feeds, each part a keyset range
// of one section, and for an XML set an index that lists them (sitemaps;
// Baidu's document sitemap). Served live by feed.fcgi, or written as static
// files by `feed.fcgi write`.
//
// Names follow the set's path: /sitemap.xml is the index sitemap.xml and
// the parts sitemap-SECTION-N.xml; a text set /urls.txt has no index and
// parts urls-N.txt (urls-SECTION-N.txt when it has several sections). Part
// locs are absolute, under publish_url.
//
// Live, parts are the ranges of the section's stored plan (part_plan.h):
// the index refreshes the plans when they are older than refresh_seconds; a
// part is read from its own range alone, so part 17 does not read parts 1
// to 16. Static, each section is read once from end to end and split where
// the limits fall; the new files are written beside DIR and swapped in.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "clock.h"
#include "config.h"
#include "document.h"
#include "feed.h"
#include "http.h"
#include "part_plan.h"
#include "replica_set.h"
#include "routes.h"

namespace feed {

// What a static write produced.
struct WrittenFile {
  std::string name;  // "sitemap-ads-1.xml"
  size_t rows = 0;   // URLs (entries, for the index)
  size_t bytes = 0;  // uncompressed
};
struct WriteReport {
  std::vector<WrittenFile> files;  // the index last, .gz twins not listed
  std::vector<std::string> urls;   // what to give search engines: the index, or every text part
  size_t rows = 0;
  RenderReport left_out;  // rows left out, with ids and rules
};

class DocumentSet {
 public:
  // `sections` are the set's feeds, in the config's order.
  // The index template's feed:past reads `clock` (the system's when
  // null), which must outlive the set.
  DocumentSet(const SetConfig& config, std::vector<Feed*> sections, const Config& site,
              const Clock* clock = nullptr);

  const SetConfig& config() const { return config_; }
  void Bind(Database& db);

  std::string IndexName() const;                                  // "sitemap.xml"
  std::string PartName(const std::string& section, int n) const;  // "sitemap-ads-3.xml"
  std::string Url(const std::string& name) const { return config_.publish_url + "/" + name; }

  // Live: the index (XML sets), and part `n` of `section` ("" for a text
  // set of one section). `gz`: the .gz path, always gzip.
  //
  // With replicas (replica_set.h): plans are read and written on the
  // primary. A refresh reads the section's rows from ForRead() (a server
  // that has reached the stored plan's position, when it has one) and
  // stores the position it read at with the plan (PartPlan::at); a part is
  // read from a server that has reached its plan's position (a plan with
  // none: the primary), and is a 503 when no server can. The moments a
  // state was first seen are written on the primary. With the primary
  // down, a part is served by a replica from its copy of the plan
  // (PlanFromReplica); the index, which refreshes plans, is a 503.
  void ServeIndex(const Request& req, bool gz, ReplicaSet& servers, const Clock& clock, Response& resp,
                  FeedReport* report);
  void ServePart(const Request& req, const std::string& section, int n, bool gz, ReplicaSet& servers,
                 const Clock& clock, Response& resp, FeedReport* report);

  // Static: writes the whole set into `dir` (see the file's comment).
  // `progress(rows)` is called now and then during long writes. Throws
  // FeedError; `dir` then holds the previous set untouched. One write of a
  // folder at a time, across processes (FolderLock, DIR.lock beside it):
  // while another holds it, throws FeedError(kBusy) "another run is
  // writing DIR (pid N)" at once, having done nothing. Holding it, first
  // removes what killed runs left beside `dir` (DIR.new-PID folders).
  // With replicas, every section is read from one server, the first
  // healthy one in config order (ReplicaSet::ForRead without a position).
  WriteReport Write(ReplicaSet& servers, const Clock& clock, const std::string& dir,
                    const std::function<void(size_t rows)>& progress = nullptr);

  // The stored plan of a section, refreshed first when it is missing, made
  // for another mapping, or (with `refresh`) older than refresh_seconds.
  PartPlan Plan(ReplicaSet& servers, const Clock& clock, size_t section, bool refresh);
  bool Due(const PartPlan& plan, int64_t now) const;
  // The index document for these parts (name, lastmod as the lastmod
  // column gives it, "" for none), into `out`. REQUIRES: an XML set.
  RenderReport RenderIndex(const std::vector<std::pair<std::string, std::string>>& parts, Sink& out) const;

 private:
  size_t SectionIndex(const std::string& name) const;
  Limits PartLimits(const Feed& f) const;
  std::string PlanIdentity(const Feed& f) const;
  // With the primary down: the section's plan as a replica holds it (plans
  // replicate as the board does), into `plan`, and that replica, which
  // serves the part: it applied the plan's row, written on the primary
  // after the rows were read, so it has the plan's position. Throws
  // kUnavailable when no replica can be read or it has no current plan.
  ReplicaSet::Source PlanFromReplica(ReplicaSet& servers, size_t section, PartPlan* plan);
  void ServePart(const Request& req, Feed& f, const PartPlan& plan, const PartRange& part, bool gz, ReplicaSet& servers,
                 const ReplicaSet::Source& source, const Clock& clock, Response& resp, FeedReport* report);
  // Saves the plan as due (planned at 0), so that the next index splits
  // part `n`, which reached its limits; notes it in `report`.
  void SplitLater(const Feed& f, const PartPlan& plan, int n, ReplicaSet& servers, const ReplicaSet::Source& source,
                  RenderReport* report);
  WriteReport Write(Database& db, const Clock& clock, const std::string& dir,
                    const std::function<void(size_t rows)>& progress);

  SetConfig config_;
  std::vector<Feed*> sections_;
  std::optional<Template> index_;  // XML sets
  bool bound_ = false;
  bool plan_positions_ = true;  // feed_part_plan has its position column
  int lock_wait_;               // seconds a request waits for another's plan (RequestLockWait)
};

}  // namespace feed
