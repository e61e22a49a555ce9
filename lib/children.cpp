#include "children.h"

#include <algorithm>
#include <charconv>

#include "error.h"

namespace feed {
namespace {

size_t ParentColumn(const std::vector<Column>& columns, const std::string& what) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == "parent") return i;
  }
  throw ConfigError(what + ": a child query returns a column named parent (the parent row's keyset value)");
}

bool ParseKey(std::string_view v, int64_t* n) {
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), *n);
  return ec == std::errc() && p == v.data() + v.size() && !v.empty();
}

}  // namespace

MemoryChildren::MemoryChildren(std::vector<Column> columns, std::vector<MemoryChunks::Row> rows)
    : columns_(std::move(columns)), rows_(std::move(rows)) {
  parent_ = ParentColumn(columns_, "memory");
}

Rows MemoryChildren::Read(int64_t after, int64_t until) {
  ++reads_;
  std::vector<std::pair<int64_t, const MemoryChunks::Row*>> in_range;
  for (const MemoryChunks::Row& r : rows_) {
    int64_t key;
    if (!r[parent_] || !ParseKey(*r[parent_], &key)) continue;
    if (key > after && key <= until) in_range.emplace_back(key, &r);
  }
  std::stable_sort(in_range.begin(), in_range.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<MemoryChunks::Row> out;
  for (const auto& [key, r] : in_range) out.push_back(*r);
  return Rows(std::move(out), columns_.size());
}

FamilyChunks::FamilyChunks(ChunkReader& parents, const Keyset& keyset, std::vector<ChildSource> children)
    : parents_(parents), keyset_(keyset), children_(std::move(children)), held_(children_.size()) {
  if (keyset_.fields().size() != 1) {
    throw ConfigError("a feed with child queries walks a keyset of one integer field (the parent's id)");
  }
  for (size_t c = 0; c < children_.size(); ++c) {
    held_[c].width = children_[c].columns.size();
    held_[c].parent_column = ParentColumn(children_[c].columns, children_[c].name);
  }
}

Rows FamilyChunks::Read(const Position& after, const Position& until, size_t limit) {
  for (Held& h : held_) h = Held{{}, {}, h.width, h.parent_column, 0, 0, 0};
  ++parent_queries_;
  Rows streamed = parents_.Read(after, until, limit);
  // The parents are held, so that the connection is free for the child
  // queries (a streamed result holds it until read to its end) and the
  // chunk's last key is known.
  std::vector<MemoryChunks::Row> parents;
  size_t width = 0;
  Position last = after;
  while (streamed.Next()) {
    width = streamed.size();
    MemoryChunks::Row r(width);
    for (size_t i = 0; i < width; ++i) {
      if (!streamed.IsNull(i)) r[i] = std::string(streamed.Get(i));
    }
    keyset_.Read(streamed, &last);
    parents.push_back(std::move(r));
  }
  streamed = Rows();
  if (parents.empty()) return Rows(std::move(parents), 0);
  const int64_t lo = after[0], hi = last[0];
  size_t held_rows = 0;
  for (size_t c = 0; c < children_.size(); ++c) {
    Held& h = held_[c];
    const ChildSource& src = children_[c];
    ++child_queries_;
    Rows rows = src.reader->Read(std::min(lo, hi), std::max(lo, hi));
    int64_t prev = INT64_MIN;
    size_t run = 0;
    while (rows.Next()) {
      int64_t key;
      if (!ParseKey(rows.Get(h.parent_column), &key)) {
        throw InternalError(src.name + ": the child query's parent column is not an integer: '" +
                            std::string(rows.Get(h.parent_column).substr(0, 40)) + "'");
      }
      if (key < prev) {
        throw InternalError(src.name + ": child rows are not ordered by parent (ORDER BY parent, ...)");
      }
      run = key == prev ? run + 1 : 1;
      prev = key;
      if (run > src.max_per_parent) continue;  // the parent's cap: the first rows in the query's order
      h.parent.push_back(key);
      for (size_t i = 0; i < h.width; ++i) h.cells.emplace_back(rows.Get(i));
    }
    held_rows += h.parent.size();
  }
  peak_child_rows_ = std::max(peak_child_rows_, held_rows);
  return Rows(std::move(parents), width);
}

const RowChildren* FamilyChunks::ChildrenOf(const Position& pos) {
  const int64_t key = pos[0];
  const bool desc = keyset_.direction() == Direction::kDescending;
  for (Held& h : held_) {
    // Child rows come ascending by parent; a descending walk meets its
    // parents from the end, so it looks each one up instead.
    if (desc) {
      auto range = std::equal_range(h.parent.begin(), h.parent.end(), key);
      h.begin = static_cast<size_t>(range.first - h.parent.begin());
      h.end = static_cast<size_t>(range.second - h.parent.begin());
      continue;
    }
    while (h.cursor < h.parent.size() && h.parent[h.cursor] < key) ++h.cursor;
    h.begin = h.cursor;
    while (h.cursor < h.parent.size() && h.parent[h.cursor] == key) ++h.cursor;
    h.end = h.cursor;
  }
  return this;
}

size_t FamilyChunks::Count(size_t child) const { return held_[child].end - held_[child].begin; }

std::string_view FamilyChunks::Get(size_t child, size_t i, size_t column) const {
  const Held& h = held_[child];
  return h.cells[(h.begin + i) * h.width + column];
}

}  // namespace feed
