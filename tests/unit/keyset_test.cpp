#include "keyset.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "error.h"

namespace feed {
namespace {

// NaiveSeconds literals (seconds of a naive calendar time counted as UTC).
constexpr int64_t kYear1000 = -30610224000;    // 1000-01-01 00:00:00
constexpr int64_t kLastOf9999 = 253402300799;  // 9999-12-31 23:59:59
constexpr int64_t kSince = 1790812800;         // 2026-10-01 00:00:00
constexpr int64_t kLate = 1796083198;          // 2026-11-30 23:59:58
constexpr int64_t kP47 = int64_t{1} << 47;

const std::vector<Column> kColumns = {{"id_key", ColumnType::kInteger},
                                      {"added", ColumnType::kDateTime},
                                      {"day", ColumnType::kDate},
                                      {"title", ColumnType::kText}};

Keyset Bound(std::vector<std::string> fields, Direction direction = Direction::kAscending) {
  Keyset k(std::move(fields), direction);
  k.Bind(kColumns, "q.sql");
  return k;
}

TEST(Keyset, BindRefusesTextAndMissingFields) {
  Keyset text({"title"}, Direction::kAscending);
  EXPECT_THROW(text.Bind(kColumns, "q.sql"), FeedError);
  Keyset missing({"nope"}, Direction::kAscending);
  EXPECT_THROW(missing.Bind(kColumns, "q.sql"), FeedError);
}

// A continue token's position: each value in its column's domain, and not
// before where the walk starts.
TEST(Keyset, UnfitPositions) {
  const Keyset yads = Bound({"added", "id_key"});
  const Keyset day = Bound({"day"});
  const Keyset ids = Bound({"id_key"});
  const Keyset newest = Bound({"added", "id_key"}, Direction::kDescending);
  struct Case {
    const Keyset* keyset;
    Position pos;
    std::string since;
    const char* want;  // a part of the reason; "" when the position fits
  } cases[] = {
      {&yads, {kLate, 2345}, "", ""},
      {&yads, {kLate, 2345}, "2026-10-01 00:00:00", ""},
      {&yads, {kYear1000, -kP47}, "", ""},
      {&yads, {kLastOf9999, kP47 - 1}, "", ""},
      {&yads, {kLastOf9999 + 1, 1}, "", "'added' is a date outside the years 1000 to 9999"},  // 10000-01-01
      {&yads, {kYear1000 - 1, 1}, "", "'added' is a date outside the years 1000 to 9999"},
      {&yads, {-kP47, 1}, "", "'added' is a date outside"},
      {&yads, {kP47 - 1, 1}, "", "'added' is a date outside"},
      // Ascending from a since-moment: the walk starts at (since, smallest id).
      {&yads, {kSince, -5}, "2026-10-01 00:00:00", ""},
      {&yads, {kSince - 1, 99999}, "2026-10-01 00:00:00", "before the start of the walk (2026-10-01 00:00:00)"},
      {&yads, {kSince - 1, 99999}, "", ""},
      {&yads, {kLate}, "", "1 keyset values for 2 keyset fields"},
      {&yads, {kLate, 1, 2}, "", "3 keyset values for 2 keyset fields"},
      // A DATE is a whole day.
      {&day, {kSince}, "", ""},
      {&day, {kSince + 3600}, "", "'day' is a DATE with a time of day"},
      {&day, {kLastOf9999 + 1}, "", "'day' is a date outside"},
      // Integers: whatever a token can carry; a since-moment does not bound them.
      {&ids, {-kP47}, "", ""},
      {&ids, {kP47 - 1}, "2026-10-01 00:00:00", ""},
      // Descending: the walk starts at the largest values; dates still in range.
      {&newest, {kSince - 1, 7}, "2026-10-01 00:00:00", ""},
      {&newest, {kLastOf9999 + 1, 7}, "", "'added' is a date outside"},
  };
  for (const Case& c : cases) {
    const std::string why = c.keyset->Unfit(c.pos, c.since);
    SCOPED_TRACE(Keyset::Format(c.pos) + " since '" + c.since + "': " + why);
    if (std::string(c.want).empty()) {
      EXPECT_EQ(why, "");
    } else {
      EXPECT_NE(why.find(c.want), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace feed
