#include "command_output.h"

namespace feed {
namespace {

void PrintEach(FILE* out, const char* label, const std::vector<std::string>& items) {
  for (const std::string& s : items) std::fprintf(out, "  %s: %s\n", label, s.c_str());
}

void PrintMore(FILE* out, size_t total, size_t listed, const char* what) {
  if (total > listed) std::fprintf(out, "  ... and %zu more%s\n", total - listed, what);
}

}  // namespace

void PrintLeftOut(FILE* out, const RenderReport& r) {
  PrintEach(out, "left out", r.skipped_items);
  PrintEach(out, "item left out", r.dropped_items);
  PrintEach(out, "noted", r.noted_items);
  PrintMore(out, r.noted, r.noted_items.size(), " notes");
  PrintMore(out, r.dropped, r.dropped_items.size(), " items");
  PrintMore(out, r.skipped, r.skipped_items.size(), "");
}

void PrintRenderSummary(FILE* out, const std::string& path, const FeedReport& r) {
  std::fprintf(out, "%s: %zu rows written, %zu left out\n", path.c_str(), r.rows, r.skipped);
  PrintLeftOut(out, r);
  if (r.more) std::fprintf(out, "continue=%s\n", r.continue_token.c_str());
}

void PrintWriteReport(FILE* out, const std::string& dir, const WriteReport& r, bool robots) {
  size_t bytes = 0;
  for (const WrittenFile& f : r.files) {
    std::fprintf(out, "%s\t%zu URLs\t%zu bytes\n", f.name.c_str(), f.rows, f.bytes);
    bytes += f.bytes;
  }
  std::fprintf(out, "%s: %zu files, %zu URLs, %zu bytes, %zu rows left out\n", dir.c_str(), r.files.size(), r.rows,
               bytes, r.left_out.skipped);
  PrintLeftOut(out, r.left_out);
  if (robots) {
    for (const std::string& u : r.urls) std::fprintf(out, "Sitemap: %s\n", u.c_str());
  }
}

void PrintSyncReport(FILE* out, const std::string& path, const SyncReport& r) {
  const MergeCounts& n = r.counts;
  std::fprintf(out,
               "%s: %zu items shown, %zu unchanged, %zu created, %zu updated, %zu shown again, %zu taken down, "
               "%zu dropped unlisted, %lld take-downs retired, %zu rows left out\n",
               path.c_str(), n.shown, n.unchanged, n.created, n.updated, n.returned, n.taken_down, n.dropped,
               static_cast<long long>(r.retired), r.left_out);
  PrintEach(out, "left out", r.left_out_items);
  PrintMore(out, r.left_out, r.left_out_items.size(), "");
}

void PrintCheckReport(FILE* out, const std::string& config_file, const CheckReport& r, bool deep, bool json) {
  if (json) {
    std::fprintf(out, "%s\n", r.Json().c_str());
    return;
  }
  for (const CheckedReplica& c : r.replicas) std::fprintf(out, "%s\n", c.Line().c_str());
  for (const Finding& f : r.findings) std::fprintf(out, "%s\n", f.Line().c_str());
  std::fprintf(out, "%s: %zu feeds, %zu rows read%s: %zu errors, %zu warnings\n", config_file.c_str(), r.feeds, r.rows,
               deep ? " (deep)" : "", r.errors(), r.findings.size() - r.errors());
}

}  // namespace feed
