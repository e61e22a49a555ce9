#include "part_plan.h"

#include <algorithm>
#include <cstdint>

namespace feed {

PartPlan RefreshPlan(const Template& tmpl, KeysetRows& rows, int lastmod_column, const PlanLimits& limits,
                     const std::optional<PartPlan>& old) {
  const Keyset& keyset = rows.keyset();
  // The bytes every part has whatever its rows: head and tail.
  std::string frame;
  DocumentValues doc;
  tmpl.RenderHead(frame, doc);
  tmpl.RenderTail(frame, doc);
  const int64_t frame_bytes = static_cast<int64_t>(frame.size());
  constexpr int64_t kNone = INT64_MAX / 1000;  // no limit, and no overflow below
  const int64_t hard_rows = limits.hard.rows ? static_cast<int64_t>(limits.hard.rows) : kNone;
  const int64_t hard_bytes = limits.hard.bytes ? static_cast<int64_t>(limits.hard.bytes) : kNone;
  const int64_t fill_rows = std::max<int64_t>(1, hard_rows * limits.fill / 100);
  const int64_t fill_bytes = std::max<int64_t>(frame_bytes + 1, hard_bytes * limits.fill / 100);

  PartPlan plan;
  if (old) plan.parts = old->parts;
  if (plan.parts.empty()) plan.parts.push_back({1, keyset.First(""), std::nullopt, 0, 0, ""});
  std::sort(plan.parts.begin(), plan.parts.end(),
            [&](const PartRange& a, const PartRange& b) { return keyset.Before(a.after, b.after); });
  int next_number = 1;
  for (PartRange& p : plan.parts) {
    p.rows = 0;
    p.bytes = frame_bytes;
    p.lastmod.clear();
    next_number = std::max(next_number, p.number + 1);
  }

  size_t cur = 0;
  Position last_in_part;  // the last row counted in parts[cur]
  bool part_has_row = false;
  std::string scratch;
  while (rows.Next()) {
    const Position& pos = rows.position();
    while (plan.parts[cur].until && keyset.Before(*plan.parts[cur].until, pos)) {
      ++cur;  // ranges are contiguous: the next part starts where this ends
      part_has_row = false;
    }
    scratch.clear();
    const bool written = tmpl.RenderRow(scratch, rows.row(), rows.children(), nullptr, nullptr);
    const int64_t size = static_cast<int64_t>(scratch.size());
    PartRange* p = &plan.parts[cur];
    const bool open = !p->until;
    const bool full = open ? (p->rows + 1 > fill_rows || p->bytes + size > fill_bytes)
                           : (p->rows + 1 > hard_rows || p->bytes + size > hard_bytes);
    if (full && part_has_row) {
      // Close (or, for a closed part, split) at the last row that fitted.
      PartRange rest{next_number++, last_in_part, p->until, 0, frame_bytes, ""};
      p->until = last_in_part;
      plan.parts.insert(plan.parts.begin() + static_cast<std::ptrdiff_t>(cur) + 1, rest);
      ++cur;
      p = &plan.parts[cur];
    }
    ++p->rows;
    p->bytes += size;
    if (written && lastmod_column >= 0) {
      std::string_view m = rows.row().Get(static_cast<size_t>(lastmod_column));
      if (m > p->lastmod) p->lastmod.assign(m);
    }
    last_in_part = pos;
    part_has_row = true;
  }
  std::sort(plan.parts.begin(), plan.parts.end(),
            [](const PartRange& a, const PartRange& b) { return a.number < b.number; });
  return plan;
}

}  // namespace feed
