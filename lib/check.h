// `feed.fcgi check`: proves a mapping before robots see it. Every feed's
// queries run for real on a sample (or, deep, on everything), and what a
// site owner plausibly gets wrong is reported as a finding: a query the
// database refuses (at the file's own line), a template field or keyset
// the query lacks, rows a template rule would leave out (by rule, with the
// first ids), and, deep, the keyset walk compared with one unpaged read:
// a row lost at a chunk's edge (a wrong tie-break), a row repeated (a 1:N
// join), a row out of order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "clock.h"
#include "database.h"
#include "feed.h"

namespace feed {

struct Finding {
  bool error = true;  // false: a warning (the feed works, but look)
  std::string where;  // "FILE:LINE" or "FILE"
  std::string what;   // what is wrong
  std::string todo;   // what to do about it
  std::string Line() const;  // "where: what; todo"
};

struct CheckOptions {
  bool deep = false;
  size_t sample_rows = 2000;  // rows read per feed when not deep
  size_t deep_fetch = 7;      // rows per chunk of the deep walk: many chunk edges
};

struct CheckReport {
  std::vector<Finding> findings;
  size_t feeds = 0, rows = 0;
  size_t errors() const;
  std::string Json() const;
};

// Checks each of `feeds` against `db`. Never throws for what it finds; a
// database that cannot be reached is a finding too.
CheckReport CheckFeeds(const std::vector<Feed*>& feeds, Database& db, const Clock& clock, const CheckOptions& options);

}  // namespace feed
