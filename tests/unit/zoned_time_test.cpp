#include "zoned_time.h"

#include <gtest/gtest.h>

#include <string>

namespace feed {
namespace {

// Expected values are the zones' published offsets, written out by hand.
TimeZone Zone(const std::string& name) {
  std::optional<TimeZone> z = TimeZone::Load(name);
  if (!z) ADD_FAILURE() << "no zone " << name;
  return z.value_or(TimeZone::Utc());
}

constexpr UnixTime kKievSummer = 1782896400;  // 2026-07-01 09:00:00Z
constexpr UnixTime kKievWinter = 1793527200;  // 2026-11-01 10:00:00Z

TEST(FormatZoned, KievSummerAndWinter) {
  const TimeZone kiev = Zone("Europe/Kiev");
  EXPECT_EQ(FormatRfc822(kKievWinter, kiev), "Sun, 01 Nov 2026 12:00:00 +0200");
  EXPECT_EQ(FormatRfc3339(kKievWinter, kiev), "2026-11-01T12:00:00+02:00");
  EXPECT_EQ(FormatRfc3339Utc(kKievWinter), "2026-11-01T10:00:00Z");
  EXPECT_EQ(FormatRfc822(kKievSummer, kiev), "Wed, 01 Jul 2026 12:00:00 +0300");
  EXPECT_EQ(FormatRfc3339(kKievSummer, kiev), "2026-07-01T12:00:00+03:00");
  // Near midnight the local day differs from the UTC one.
  EXPECT_EQ(FormatRfc822(NaiveSeconds({2026, 12, 31, 23, 30, 0}), kiev), "Fri, 01 Jan 2027 01:30:00 +0200");
  // Kiev mean time was +2:02:04; the forms cannot say seconds.
  EXPECT_EQ(FormatRfc3339(NaiveSeconds({1900, 1, 1, 0, 0, 0}), kiev), "1900-01-01T02:02:00+02:02");
}

TEST(FormatZoned, NegativeAndHalfHourOffsets) {
  const UnixTime t = NaiveSeconds({2026, 1, 15, 12, 0, 0});
  const TimeZone st_johns = Zone("America/St_Johns");
  EXPECT_EQ(FormatRfc822(t, st_johns), "Thu, 15 Jan 2026 08:30:00 -0330");
  EXPECT_EQ(FormatRfc3339(t, st_johns), "2026-01-15T08:30:00-03:30");
  const TimeZone kolkata = Zone("Asia/Kolkata");
  EXPECT_EQ(FormatRfc822(t, kolkata), "Thu, 15 Jan 2026 17:30:00 +0530");
  EXPECT_EQ(FormatRfc3339(t, kolkata), "2026-01-15T17:30:00+05:30");
  const TimeZone utc = Zone("UTC");
  EXPECT_EQ(FormatRfc822(t, utc), "Thu, 15 Jan 2026 12:00:00 +0000");
  EXPECT_EQ(FormatRfc3339(t, utc), "2026-01-15T12:00:00+00:00");
  EXPECT_EQ(FormatRfc3339Utc(t), "2026-01-15T12:00:00Z");
}

// A board's wall time the zone shows is written as it is, with the offset
// then; one in a gap is the instant ToUnix gives (the later one), read back.
TEST(FormatZoned, WallTimesAsTheBoardHoldsThem) {
  const TimeZone kiev = Zone("Europe/Kiev");
  std::string out = "x";
  AppendRfc3339(out, {2026, 7, 1, 12, 0, 0}, kiev);
  EXPECT_EQ(out, "x2026-07-01T12:00:00+03:00");
  out.clear();
  AppendRfc3339(out, {2026, 3, 29, 3, 30, 0}, kiev);  // clocks went 03:00 -> 04:00
  EXPECT_EQ(out, "2026-03-29T04:30:00+03:00");
  out.clear();
  AppendRfc3339(out, {2026, 10, 25, 3, 30, 0}, kiev);  // shown twice: the earlier, still summer time
  EXPECT_EQ(out, "2026-10-25T03:30:00+03:00");
}

}  // namespace
}  // namespace feed
