// How a live document set splits a section into parts that stay put.
//
// A crawler fetches the index, then the parts it lists, minutes or hours
// later, while rows are added and deleted. So a part is a keyset range
// fixed when it is made, not "the Nth 50,000 rows": once a part is closed
// its range never moves, and a row is in exactly one part whatever happens
// around it. Only the last part is open (no end); when it reaches
// `part_fill` percent of a limit it is closed at its last row and a new open
// part starts after it. The headroom left in every closed part takes rows
// that join its range later (a hidden ad shown again) and rows that grow
// (a longer URL). Should a closed part ever pass a hard limit all the same,
// it is split: it ends at its last row that fits and the rest of its range
// becomes a new part with the next free number.
//
// RefreshPlan walks every row of the section once, measuring each as the
// template renders it, and returns the plan with every part's rows, bytes
// and newest change brought up to date.
#pragma once

#include <optional>

#include "renderer.h"
#include "row_source.h"
#include "state.h"
#include "template.h"

namespace feed {

struct PlanLimits {
  Limits hard;      // what no part may pass (max_items, max_bytes)
  int fill = 90;    // percent of `hard` at which the open part is closed
};

// `rows` walks the whole section from its first row; `old` is the stored
// plan, if any (its identity and time are the caller's to set).
PartPlan RefreshPlan(const Template& tmpl, KeysetRows& rows, int lastmod_column, const PlanLimits& limits,
                     const std::optional<PartPlan>& old);

}  // namespace feed
