#include "row_source.h"

#include <algorithm>

#include "error.h"

namespace feed {

MemoryChunks::MemoryChunks(std::vector<Column> columns, std::vector<Row> rows, Keyset& keyset)
    : columns_(std::move(columns)), rows_(std::move(rows)), keyset_(keyset) {
  keyset_.Bind(columns_, "memory");
}

Rows MemoryChunks::Read(const Position& after, const Position& until, size_t limit) {
  ++reads_;
  std::vector<std::pair<Position, const Row*>> in_range;
  for (const Row& r : rows_) {
    Rows one({r});
    one.Next();
    Position p;
    keyset_.Read(one, &p);
    if (keyset_.Before(after, p) && !keyset_.Before(until, p)) in_range.emplace_back(p, &r);
  }
  std::sort(in_range.begin(), in_range.end(),
            [&](const auto& a, const auto& b) { return keyset_.Before(a.first, b.first); });
  std::vector<Row> out;
  for (size_t i = 0; i < in_range.size() && i < limit; ++i) out.push_back(*in_range[i].second);
  if (out.empty()) return Rows(std::vector<Row>{}, columns_.size());
  return Rows(std::move(out));
}

KeysetRows::KeysetRows(ChunkReader& reader, const Keyset& keyset, Position after, std::optional<Position> until,
                       size_t fetch_rows, size_t max_rows)
    : reader_(reader),
      keyset_(keyset),
      after_(std::move(after)),
      until_(until ? *until : keyset.Last()),
      bounded_(until.has_value()),
      fetch_rows_(fetch_rows),
      max_rows_(max_rows),
      rows_() {}

bool KeysetRows::Next() {
  if (done_) return false;
  if (taken_ >= max_rows_) return done_ = true, false;
  for (;;) {
    if (started_ && rows_.Next()) break;
    // The chunk is used up: a short one was the last.
    if (started_ && in_chunk_ < chunk_limit_) return done_ = true, false;
    started_ = true;
    chunk_limit_ = std::min(fetch_rows_, max_rows_ - taken_);
    in_chunk_ = 0;
    rows_ = Rows();  // a streamed result ends before the next query
    rows_ = reader_.Read(after_, until_, chunk_limit_);
    ++chunks_;
    if (!rows_.Next()) return done_ = true, false;
    break;
  }
  ++in_chunk_;
  keyset_.Read(rows_, &pos_);
  if (taken_ > 0 && !keyset_.Before(after_, pos_) && !keyset_.Before(pos_, after_)) {
    throw InternalError("two rows have the same keyset (" + Keyset::Format(pos_) +
                        "): the keyset must name one row; a join that repeats rows (one per language, a category "
                        "listed twice) does this (feed.fcgi check --deep finds them)");
  }
  if (!keyset_.Before(after_, pos_)) {
    throw InternalError("rows are not in keyset order (the ORDER BY must follow keyset = " +
                        [&] {
                          std::string s;
                          for (const auto& f : keyset_.fields()) s += (s.empty() ? "" : " ") + f;
                          return s;
                        }() +
                        ", and the WHERE must start after :after_FIELD)");
  }
  if (bounded_ && keyset_.Before(until_, pos_)) {
    // Past the end: the query does not bound itself with :until_FIELD.
    return done_ = true, false;
  }
  after_ = pos_;
  ++taken_;
  children_ = reader_.ChildrenOf(pos_);
  return true;
}

}  // namespace feed
