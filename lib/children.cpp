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

FamilyChunks::FamilyChunks(ChunkReader& parents, const Keyset& keyset, std::vector<ChildSource> children,
                           bool read_ahead)
    : parents_(parents),
      keyset_(keyset),
      children_(std::move(children)),
      held_(children_.size()),
      descending_(keyset.direction() == Direction::kDescending),
      read_ahead_(read_ahead) {
  if (keyset_.fields().size() != 1) {
    throw ConfigError("a feed with child queries walks a keyset of one integer field (the parent's id)");
  }
  for (size_t c = 0; c < children_.size(); ++c) {
    held_[c].width = children_[c].columns.size();
    held_[c].parent_column = ParentColumn(children_[c].columns, children_[c].name);
  }
}

// A chunk read ahead and never asked for is waited for: its thread uses
// `parents_`, which may go with this object.
FamilyChunks::~FamilyChunks() {
  if (ahead_) ahead_->parents.wait();
}

FamilyChunks::Parents FamilyChunks::ReadParents(const Position& after, const Position& until, size_t limit) {
  Parents p;
  p.last = after;
  Rows streamed = parents_.Read(after, until, limit);
  while (streamed.Next()) {
    p.width = streamed.size();
    MemoryChunks::Row r(p.width);
    for (size_t i = 0; i < p.width; ++i) {
      if (!streamed.IsNull(i)) r[i] = std::string(streamed.Get(i));
    }
    keyset_.Read(streamed, &p.last);
    p.rows.push_back(std::move(r));
  }
  return p;
}

bool FamilyChunks::Advance(size_t c) {
  Held& h = held_[c];
  h.pending = false;
  if (h.exhausted) return false;
  if (!h.source.Next()) {
    h.exhausted = true;
    return false;
  }
  int64_t key;
  if (!ParseKey(h.source.Get(h.parent_column), &key)) {
    throw InternalError(children_[c].name + ": the child query's parent column is not an integer: '" +
                        std::string(h.source.Get(h.parent_column).substr(0, 40)) + "'");
  }
  if (key < h.last_key) {
    throw InternalError(children_[c].name + ": child rows are not ordered by parent (ORDER BY parent, ...)");
  }
  h.last_key = key;
  h.pending = true;
  h.pending_key = key;
  return true;
}

void FamilyChunks::Keep(size_t c, size_t* run) {
  Held& h = held_[c];
  // The parent's cap: the first rows in the query's order.
  if (++*run > children_[c].max_per_parent) return;
  h.parent.push_back(h.pending_key);
  for (size_t i = 0; i < h.width; ++i) h.cells.emplace_back(h.source.Get(i));
}

Rows FamilyChunks::Read(const Position& after, const Position& until, size_t limit) {
  for (Held& h : held_) {
    h.source = Rows();  // the last chunk's rest (a streamed result ends here)
    h.pending = false;
    h.exhausted = false;
    h.last_key = INT64_MIN;
    h.parent.clear();
    h.cells.clear();
    h.begin = h.end = 0;
  }
  // The parents are held, so that the connection is free for the next
  // chunk and the chunk's last key is known.
  Parents chunk;
  if (ahead_ && ahead_->after == after && ahead_->until == until && ahead_->limit == limit) {
    std::future<Parents> ready = std::move(ahead_->parents);
    ahead_.reset();
    chunk = ready.get();  // a failure there is this Read's
    ++taken_ahead_;
  } else {
    if (ahead_) {
      ahead_->parents.wait();  // not the chunk asked for: its result goes
      ahead_.reset();
    }
    ++parent_queries_;
    chunk = ReadParents(after, until, limit);
  }
  // A full chunk: more may follow. The next one is read while this renders.
  if (read_ahead_ && chunk.rows.size() == limit && limit > 0) {
    ++parent_queries_;
    ahead_ = Ahead{chunk.last, until, limit, std::async(std::launch::async, [this, from = chunk.last, until, limit] {
                     return ReadParents(from, until, limit);
                   })};
  }
  std::vector<MemoryChunks::Row>& parents = chunk.rows;
  const size_t width = chunk.width;
  const Position& last = chunk.last;
  if (parents.empty()) return Rows(std::move(parents), 0);
  // The chunk's keys: (after, last] ascending, [last, after) descending.
  const int64_t lo = descending_ ? last[0] - 1 : after[0];
  const int64_t hi = descending_ ? after[0] - 1 : last[0];
  for (size_t c = 0; c < children_.size(); ++c) {
    ++child_queries_;
    held_[c].source = children_[c].reader->Read(lo, hi);
    if (!descending_) continue;
    // Descending: the chunk's rows held whole, looked up per parent.
    size_t run = 0;
    int64_t prev = INT64_MIN;
    while (Advance(c)) {
      run = held_[c].pending_key == prev ? run : 0;
      prev = held_[c].pending_key;
      Keep(c, &run);
    }
    held_[c].source = Rows();
  }
  if (descending_) {
    size_t held_rows = 0;
    for (const Held& h : held_) held_rows += h.parent.size();
    peak_child_rows_ = std::max(peak_child_rows_, held_rows);
  }
  return Rows(std::move(parents), width);
}

const RowChildren* FamilyChunks::ChildrenOf(const Position& pos) {
  const int64_t key = pos[0];
  size_t held_rows = 0;
  for (size_t c = 0; c < held_.size(); ++c) {
    Held& h = held_[c];
    if (descending_) {
      auto range = std::equal_range(h.parent.begin(), h.parent.end(), key);
      h.begin = static_cast<size_t>(range.first - h.parent.begin());
      h.end = static_cast<size_t>(range.second - h.parent.begin());
      continue;
    }
    // Ascending: this parent's rows, taken from the result as it comes;
    // rows of parents the chunk does not hold are passed over.
    h.parent.clear();
    h.cells.clear();
    if (!h.pending) Advance(c);
    while (h.pending && h.pending_key < key) Advance(c);
    size_t run = 0;
    while (h.pending && h.pending_key == key) {
      Keep(c, &run);
      Advance(c);
    }
    h.begin = 0;
    h.end = h.parent.size();
    held_rows += h.parent.size();
  }
  if (!descending_) peak_child_rows_ = std::max(peak_child_rows_, held_rows);
  return this;
}

size_t FamilyChunks::Count(size_t child) const { return held_[child].end - held_[child].begin; }

std::string_view FamilyChunks::Get(size_t child, size_t i, size_t column) const {
  const Held& h = held_[child];
  return h.cells[(h.begin + i) * h.width + column];
}

}  // namespace feed
