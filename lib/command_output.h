// What the commands print (feed.fcgi render, write, sync, check, install),
// kept apart from the commands so that each form is tested on its own
// against a literal. Every printer writes to the stream it is given and
// reports nothing: the caller flushes and tells a failed write.
#pragma once

#include <cstdio>
#include <string>

#include "check.h"
#include "document.h"
#include "document_set.h"
#include "msn_feed.h"
#include "renderer.h"

namespace feed {

// The rows a run left out, one "  left out: ..." line each, then its items
// ("  item left out: ...") and notes ("  noted: ..."), and a
// "  ... and N more" line for each list cut at its first 1000.
void PrintLeftOut(FILE* out, const RenderReport& r);

// `render`'s summary (stderr): "PATH: N rows written, M left out", what
// was left out, and "continue=TOKEN" when rows remain.
void PrintRenderSummary(FILE* out, const std::string& path, const FeedReport& r);

// `write`'s report: a line per file (name, URLs, bytes), the summary of
// the set written into `dir`, what was left out, and with `robots` the
// "Sitemap: URL" lines for robots.txt.
void PrintWriteReport(FILE* out, const std::string& dir, const WriteReport& r, bool robots);

// `sync`'s report: what changed in the item state of the feed at `path`.
void PrintSyncReport(FILE* out, const std::string& path, const SyncReport& r);

// `check`'s report: JSON (`json`), or a line per replica and finding and a
// summary naming `config_file`.
void PrintCheckReport(FILE* out, const std::string& config_file, const CheckReport& r, bool deep, bool json);

}  // namespace feed
