#include "keyset.h"

#include <charconv>
#include <climits>
#include <sstream>

#include "datetime.h"
#include "error.h"

namespace feed {
namespace {

// The DATETIME range MariaDB accepts, as bounds that every row lies within.
const int64_t kMinDate = NaiveSeconds({1000, 1, 1, 0, 0, 0});
const int64_t kMaxDate = NaiveSeconds({9999, 12, 31, 23, 59, 59});

bool ParseInt64(std::string_view v, int64_t* n) {
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), *n);
  return ec == std::errc() && p == v.data() + v.size() && !v.empty();
}

}  // namespace

Keyset::Keyset(std::vector<std::string> fields, Direction direction)
    : fields_(std::move(fields)), direction_(direction) {}

void Keyset::Bind(const std::vector<Column>& columns, const std::string& query_file) {
  columns_.clear();
  types_.clear();
  for (const std::string& k : fields_) {
    size_t i = 0;
    while (i < columns.size() && columns[i].name != k) ++i;
    if (i == columns.size()) throw ConfigError(query_file + ": keyset field '" + k + "' is not a column of the query");
    if (columns[i].type == ColumnType::kText) {
      throw ConfigError(query_file + ": keyset field '" + k + "' must be an integer, DATE or DATETIME column");
    }
    columns_.push_back(i);
    types_.push_back(columns[i].type);
  }
}

void Keyset::Read(const Rows& row, Position* pos) const {
  pos->resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) {
    std::string_view v = row.Get(columns_[i]);
    if (types_[i] == ColumnType::kInteger) {
      if (!ParseInt64(v, &(*pos)[i])) {
        throw InternalError("keyset field '" + fields_[i] + "' is not an integer: '" + std::string(v.substr(0, 40)) +
                            "'");
      }
    } else {
      auto t = ParseSqlDateTime(v, /*allow_date_only=*/true);
      if (!t) {
        throw InternalError("keyset field '" + fields_[i] + "' is NULL or not a date: '" +
                            std::string(v.substr(0, 40)) + "'");
      }
      (*pos)[i] = NaiveSeconds(*t);
    }
  }
}

bool Keyset::Before(const Position& a, const Position& b) const {
  return direction_ == Direction::kAscending ? a < b : b < a;
}

namespace {
Position Extreme(const std::vector<ColumnType>& types, bool largest) {
  Position pos(types.size());
  for (size_t i = 0; i < pos.size(); ++i) {
    if (types[i] == ColumnType::kInteger) {
      pos[i] = largest ? INT64_MAX : INT64_MIN;
    } else {
      pos[i] = largest ? kMaxDate : kMinDate;
    }
  }
  return pos;
}
}  // namespace

Position Keyset::First(const std::string& since) const {
  if (direction_ == Direction::kDescending) return Extreme(types_, true);
  Position pos = Extreme(types_, false);
  for (size_t i = 0; i < pos.size(); ++i) {
    if (types_[i] != ColumnType::kInteger) {
      if (!since.empty()) pos[i] = NaiveSeconds(*ParseSqlDateTime(since));
      break;  // later fields stay at their minimum
    }
  }
  return pos;
}

std::string Keyset::Unfit(const Position& pos, const std::string& since) const {
  if (pos.size() != types_.size()) {
    return std::to_string(pos.size()) + " keyset values for " + std::to_string(types_.size()) + " keyset fields";
  }
  for (size_t i = 0; i < pos.size(); ++i) {
    if (types_[i] == ColumnType::kInteger) continue;
    if (pos[i] < kMinDate || pos[i] > kMaxDate) {
      return "keyset field '" + fields_[i] + "' is a date outside the years 1000 to 9999";
    }
    if (types_[i] == ColumnType::kDate && (pos[i] - kMinDate) % 86400 != 0) {
      return "keyset field '" + fields_[i] + "' is a DATE with a time of day";
    }
  }
  if (Before(pos, First(since))) {
    return "the keyset position lies before the start of the walk" + (since.empty() ? "" : " (" + since + ")");
  }
  return "";
}

Position Keyset::Last() const { return Extreme(types_, direction_ == Direction::kAscending); }

void Keyset::Bind(const Position& pos, const char* prefix, SqlParams* params) const {
  for (size_t i = 0; i < pos.size(); ++i) {
    const std::string name = prefix + fields_[i];
    if (types_[i] == ColumnType::kInteger) {
      (*params)[name] = pos[i];
    } else {
      int64_t s = pos[i] < kMinDate ? kMinDate : pos[i] > kMaxDate ? kMaxDate : pos[i];
      (*params)[name] = FormatSqlDateTime(FromNaiveSeconds(s));
    }
  }
}

void Keyset::BindAfter(const Position& pos, SqlParams* params) const { Bind(pos, "after_", params); }
void Keyset::BindUntil(const Position& pos, SqlParams* params) const { Bind(pos, "until_", params); }

std::string Keyset::Format(const Position& pos) {
  std::string s;
  for (int64_t v : pos) s += (s.empty() ? "" : " ") + std::to_string(v);
  return s;
}

std::optional<Position> Keyset::Parse(const std::string& text, size_t size) {
  Position pos;
  std::istringstream in(text);
  std::string w;
  while (in >> w) {
    int64_t n;
    if (!ParseInt64(w, &n)) return std::nullopt;
    pos.push_back(n);
  }
  if (pos.size() != size) return std::nullopt;
  return pos;
}

}  // namespace feed
