// The order a feed's query walks its rows in: 1 to 3 result fields
// (integers, DATE or DATETIME columns), all ascending or all descending.
// A Position is one row's values of those fields (dates as NaiveSeconds),
// so that paging, part bounds and continue tokens compare and carry plain
// integers.
//
// A query is given the range it may return as named parameters:
//   :after_FIELD   the position the range starts after (exclusive)
//   :until_FIELD   the position it ends at (inclusive); the largest value
//                  (smallest when descending) when the range has no end
// Ascending, a two-field keyset (added, id) is written
//   added >= :after_added AND (added > :after_added OR id > :after_id)
// and its end
//   added <= :until_added AND (added < :until_added OR id <= :until_id)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"

namespace feed {

using Position = std::vector<int64_t>;

class Keyset {
 public:
  Keyset(std::vector<std::string> fields, Direction direction);

  // Finds each field among the query's result columns. Throws
  // FeedError(kConfig) naming `query_file` when one is missing or is text.
  void Bind(const std::vector<Column>& columns, const std::string& query_file);

  const std::vector<std::string>& fields() const { return fields_; }
  Direction direction() const { return direction_; }

  // The current row's position. Throws FeedError(kInternal) when a value is
  // NULL or not of its column's kind. REQUIRES: Bind.
  void Read(const Rows& row, Position* pos) const;

  // True when `a` comes strictly before `b` in the walk.
  bool Before(const Position& a, const Position& b) const;

  // The position before every row of a walk: ascending, the since-moment
  // ("YYYY-MM-DD HH:MM:SS", or "" for none) for the first date field and
  // the smallest value for the rest; descending, the largest values.
  Position First(const std::string& since) const;
  // The position after every row: the open end of a range.
  Position Last() const;

  // Why `pos` (from a continue token) cannot be where a walk from
  // First(since) stands, as one line naming the field, or "" when it can:
  // a value outside its column's domain (a DATETIME outside years 1000 to
  // 9999, a DATE with a time of day; integers are taken as they come, the
  // column's width being unknown), the wrong number of values, or, walking
  // ascending, a position before First(since). REQUIRES: Bind.
  std::string Unfit(const Position& pos, const std::string& since) const;

  // :after_FIELD and :until_FIELD for `pos`.
  void BindAfter(const Position& pos, SqlParams* params) const;
  void BindUntil(const Position& pos, SqlParams* params) const;

  // Space-separated decimal text, for the project's state tables.
  static std::string Format(const Position& pos);
  // nullopt unless `text` is `size` decimal integers separated by spaces.
  static std::optional<Position> Parse(const std::string& text, size_t size);

 private:
  void Bind(const Position& pos, const char* prefix, SqlParams* params) const;

  std::vector<std::string> fields_;
  Direction direction_;
  std::vector<size_t> columns_;
  std::vector<ColumnType> types_;
};

}  // namespace feed
