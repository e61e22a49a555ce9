#include "datetime.h"

#include "time_zone.h"
#include "zoned_time.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace feed {
namespace {

using namespace std::string_literals;

// ---- ParseSqlDateTime -------------------------------------------------------

struct ValidSql {
  std::string text;
  LocalTime want;
};

TEST(ParseSqlDateTime, AcceptsValid) {
  const std::vector<ValidSql> cases = {
      {"2026-01-01 00:00:00", {2026, 1, 1, 0, 0, 0}},     {"2026-12-31 23:59:59", {2026, 12, 31, 23, 59, 59}},
      {"2024-02-29 12:34:56", {2024, 2, 29, 12, 34, 56}}, {"2000-02-29 00:00:00", {2000, 2, 29, 0, 0, 0}},
      {"1000-01-01 00:00:00", {1000, 1, 1, 0, 0, 0}},     {"9999-12-31 23:59:59", {9999, 12, 31, 23, 59, 59}},
      {"1970-01-01 00:00:00", {1970, 1, 1, 0, 0, 0}},     {"2026-04-30 09:05:07", {2026, 4, 30, 9, 5, 7}},
      {"2026-03-29 03:30:00", {2026, 3, 29, 3, 30, 0}},  // in Kiev's DST gap: still a date
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    for (bool date_only : {false, true}) {
      auto t = ParseSqlDateTime(c.text, date_only);
      ASSERT_TRUE(t.has_value());
      EXPECT_EQ(*t, c.want);
      EXPECT_EQ(FormatSqlDateTime(*t), c.text);
    }
  }
}

TEST(ParseSqlDateTime, RejectsInvalid) {
  const std::vector<std::string> cases = {
      "2026-02-30 00:00:00",
      "2026-13-01 00:00:00",
      "2026-01-01T00:00:00",
      "2026-01-01 24:00:00",
      " 2026-01-01 00:00:00",
      "2026-1-01 00:00:00",
      "+026-01-01 00:00:00",
      "2026-01-01 00:00:60",
      "",
      "2026-01-01 00:00:00\0x"s,
      "\0"s
      "026-01-01 00:00:00",
      "2026-01-01\0"s
      "00:00:00",
      "2О26-01-01 00:00:00",      // Cyrillic capital O for the zero
      "2026-01-01 00:00:0З",      // Cyrillic Ze for the three
      "２０２６-01-01 00:00:00",  // fullwidth digits
      "٢٠٢٦-01-01 00:00:00",      // Arabic-Indic digits
      "2026-00-01 00:00:00",
      "2026-01-00 00:00:00",
      "2026-01-32 00:00:00",
      "2026-04-31 00:00:00",
      "2025-02-29 00:00:00",
      "1900-02-29 00:00:00",
      "2100-02-29 00:00:00",
      "0999-12-31 23:59:59",
      "0000-01-01 00:00:00",
      "10000-01-01 00:00:00",
      "2026-01-01 00:60:00",
      "2026-01-01 99:99:99",
      "2026-01-01 00:00",
      "2026-01-01 00:00:00 ",
      "2026-01-01 00:00:00\n",
      "2026-01-01  00:00:00",
      "2026-01-01\t00:00:00",
      "2026/01/01 00:00:00",
      "2026-01-01+00:00:00",
      "2026 01 01 00:00:00",
      "2026-01-01 00.00.00",
      "2026-01-01 00:00:00Z",
      "2026-01-01 00:00:00.000",
      "2026-01-01 0:00:00",
      "2026-01-01 00:00:0a",
      "2026-01-01 00:00:-1",
      "2026-01-01 00:00:+1",
      "2026-01-01 -1:00:00",
      "-2026-01-01 00:00:0",
      "2026-01-01 12:30:5",
      "YYYY-MM-DD HH:MM:SS",
      "2026-01-01",  // date alone, not allowed here
      "20260101000000",
  };
  ASSERT_GE(cases.size(), 30u);
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c));
    EXPECT_FALSE(ParseSqlDateTime(c).has_value());
  }
}

TEST(ParseSqlDateTime, DateOnly) {
  EXPECT_EQ(ParseSqlDateTime("2026-05-17", true), (LocalTime{2026, 5, 17, 0, 0, 0}));
  EXPECT_EQ(ParseSqlDateTime("2024-02-29", true), (LocalTime{2024, 2, 29, 0, 0, 0}));
  EXPECT_FALSE(ParseSqlDateTime("2026-05-17", false));
  const std::vector<std::string> bad = {
      "2026-02-30",  "2026-13-01",       "2026-05-17 ", " 2026-05-17", "2026-05-1",     "2026-5-17",
      "2026-05-17T", "2026-05-17 00:00", "0999-05-17",  "2026/05/17",  "2026-05-17\0"s, "",
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(testing::PrintToString(c));
    EXPECT_FALSE(ParseSqlDateTime(c, true).has_value());
  }
}

// Every day number of every month, for years around every leap rule, against
// an independent oracle: a date is real iff the day count maps back to it.
TEST(ParseSqlDateTime, CalendarMatchesDayArithmetic) {
  for (int year : {1000, 1600, 1700, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999}) {
    for (int month = 0; month <= 13; ++month) {
      for (int day = 0; day <= 32; ++day) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d 12:00:00", year, month, day);
        const LocalTime lt{year, month, day, 12, 0, 0};
        const bool real = month >= 1 && month <= 12 && day >= 1 && FromNaiveSeconds(NaiveSeconds(lt)) == lt;
        EXPECT_EQ(ParseSqlDateTime(buf).has_value(), real) << buf;
      }
    }
  }
}

// ---- Formatting and naive seconds ------------------------------------------

TEST(FormatDateTime, PlainForms) {
  const LocalTime t{2026, 3, 7, 5, 4, 9};
  EXPECT_EQ(FormatSqlDateTime(t), "2026-03-07 05:04:09");
  EXPECT_EQ(FormatDate(t), "2026-03-07");
  EXPECT_EQ(FormatDayMonthYear(t), "07.03.2026");
}

TEST(NaiveSeconds, KnownValues) {
  EXPECT_EQ(NaiveSeconds({1970, 1, 1, 0, 0, 0}), 0);
  EXPECT_EQ(NaiveSeconds({1994, 11, 6, 8, 49, 37}), 784111777);
  EXPECT_EQ(NaiveSeconds({2000, 3, 1, 0, 0, 0}), 951868800);
  EXPECT_EQ(NaiveSeconds({1900, 1, 1, 0, 0, 0}), -2208988800);
  EXPECT_EQ(NaiveSeconds({1000, 1, 1, 0, 0, 0}), -30610224000);
  EXPECT_EQ(NaiveSeconds({9999, 12, 31, 23, 59, 59}), 253402300799);
  EXPECT_EQ(FromNaiveSeconds(-1), (LocalTime{1969, 12, 31, 23, 59, 59}));
  EXPECT_EQ(FromNaiveSeconds(-86400), (LocalTime{1969, 12, 31, 0, 0, 0}));
  EXPECT_EQ(FromNaiveSeconds(951868799), (LocalTime{2000, 2, 29, 23, 59, 59}));
}

TEST(NaiveSeconds, ConsecutiveDaysAndRoundTrip) {
  // Walk every day from 1000 to 9999: each is the previous plus 86400 and
  // maps back to itself.
  LocalTime prev = FromNaiveSeconds(NaiveSeconds({1000, 1, 1, 0, 0, 0}));
  int64_t s = NaiveSeconds(prev);
  while (prev.year < 10000) {
    s += 86400;
    const LocalTime next = FromNaiveSeconds(s);
    ASSERT_EQ(NaiveSeconds(next), s);
    const bool same_month = next.month == prev.month && next.day == prev.day + 1;
    const bool new_month = next.day == 1 && (next.month == prev.month % 12 + 1);
    ASSERT_TRUE(same_month || new_month) << FormatSqlDateTime(next);
    prev = next;
  }
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> any(-30610224000, 253402300799);
  for (int i = 0; i < 100000; ++i) {
    const int64_t v = any(rng);
    ASSERT_EQ(NaiveSeconds(FromNaiveSeconds(v)), v);
  }
}

TEST(NaiveSeconds, ExtremesDoNotCrash) {
  for (int64_t v : {INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1, int64_t{0}}) {
    (void)FromNaiveSeconds(v);
  }
  (void)NaiveSeconds({INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX});
  (void)NaiveSeconds({INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN});
}

// ---- The site's zone -----------------------------------------------------------

// These tests were written against a process-wide SiteZone; the same
// conversions now go through a TimeZone value this adapter holds.
struct SiteZone {
  static TimeZone& Current() {
    static TimeZone zone = TimeZone::Utc();
    return zone;
  }
  static bool Use(const std::string& name) {
    auto z = TimeZone::Load(name);
    if (z) Current() = *z;
    return z.has_value();
  }
  static LocalTime FromUnix(UnixTime t) { return Current().FromUnix(t); }
  static UnixTime ToUnix(const LocalTime& t) { return Current().ToUnix(t); }
  static int OffsetAt(UnixTime t) { return Current().OffsetAt(t); }
};

constexpr UnixTime kKievSummer = 1782896400;  // 2026-07-01 09:00:00Z
constexpr UnixTime kKievWinter = 1793527200;  // 2026-11-01 10:00:00Z

TEST(SiteZone, UseRejectsUnknownAndUnsafeNamesAndKeepsZone) {
  ASSERT_TRUE(SiteZone::Use("Europe/Kiev"));
  const std::vector<std::string> bad = {
      "",
      "No/Such_Zone",
      "Europe",  // a directory
      "Europe/",
      "../../../etc/passwd",
      "Europe/../UTC",
      "/usr/share/zoneinfo/UTC",
      "/etc/localtime",
      "EST5",  // a POSIX rule, not a database entry
      "Europe/Kiev\0x"s,
      "zone.tab",  // a regular file, but not TZif
  };
  for (const auto& name : bad) {
    SCOPED_TRACE(testing::PrintToString(name));
    EXPECT_FALSE(SiteZone::Use(name));
    EXPECT_EQ(SiteZone::OffsetAt(kKievSummer), 10800);
  }
  EXPECT_TRUE(SiteZone::Use("UTC"));
  EXPECT_EQ(SiteZone::OffsetAt(kKievSummer), 0);
}

TEST(SiteZone, KievOffsetsAndConversions) {
  ASSERT_TRUE(SiteZone::Use("Europe/Kiev"));
  EXPECT_EQ(SiteZone::OffsetAt(kKievSummer), 10800);
  EXPECT_EQ(SiteZone::OffsetAt(kKievWinter), 7200);
  EXPECT_EQ(SiteZone::FromUnix(kKievSummer), (LocalTime{2026, 7, 1, 12, 0, 0}));
  EXPECT_EQ(SiteZone::FromUnix(kKievWinter), (LocalTime{2026, 11, 1, 12, 0, 0}));
  EXPECT_EQ(SiteZone::ToUnix({2026, 7, 1, 12, 0, 0}), kKievSummer);
  EXPECT_EQ(SiteZone::ToUnix({2026, 11, 1, 12, 0, 0}), kKievWinter);
}

// Kiev 2026: clocks go 03:00 EET -> 04:00 EEST on 29 March (01:00Z), and
// 04:00 EEST -> 03:00 EET on 25 October (01:00Z).
TEST(SiteZone, KievSpringGapMapsToLaterInstant) {
  ASSERT_TRUE(SiteZone::Use("Europe/Kiev"));
  const UnixTime kGap0330 = 1774747800;  // 01:30Z: 03:30 read at +02, shown as 04:30
  EXPECT_EQ(SiteZone::ToUnix({2026, 3, 29, 3, 30, 0}), kGap0330);
  EXPECT_EQ(SiteZone::FromUnix(kGap0330), (LocalTime{2026, 3, 29, 4, 30, 0}));
  EXPECT_EQ(SiteZone::ToUnix({2026, 3, 29, 3, 0, 0}), 1774746000);  // 01:00Z
  EXPECT_EQ(SiteZone::ToUnix({2026, 3, 29, 3, 59, 59}), 1774749599);
  EXPECT_EQ(SiteZone::ToUnix({2026, 3, 29, 2, 59, 59}), 1774745999);  // last EET second
  EXPECT_EQ(SiteZone::ToUnix({2026, 3, 29, 4, 0, 0}), 1774746000);    // first EEST second
}

TEST(SiteZone, KievAutumnOverlapMapsToEarlierInstant) {
  ASSERT_TRUE(SiteZone::Use("Europe/Kiev"));
  const UnixTime kOverlap0330 = 1792888200;  // 00:30Z, the EEST reading
  EXPECT_EQ(SiteZone::ToUnix({2026, 10, 25, 3, 30, 0}), kOverlap0330);
  EXPECT_EQ(SiteZone::FromUnix(kOverlap0330), (LocalTime{2026, 10, 25, 3, 30, 0}));
  EXPECT_EQ(SiteZone::FromUnix(kOverlap0330 + 3600), (LocalTime{2026, 10, 25, 3, 30, 0}));
  EXPECT_EQ(SiteZone::ToUnix({2026, 10, 25, 3, 0, 0}), 1792886400);  // 00:00Z
  EXPECT_EQ(SiteZone::ToUnix({2026, 10, 25, 3, 59, 59}), 1792889999);
  EXPECT_EQ(SiteZone::ToUnix({2026, 10, 25, 2, 59, 59}), 1792886399);
  EXPECT_EQ(SiteZone::ToUnix({2026, 10, 25, 4, 0, 0}), 1792893600);  // 02:00Z
}

// Every half hour of 2025-2027, in zones with whole-hour, half-hour and
// date-line transitions: ToUnix gives the earliest instant showing the time.
TEST(SiteZone, ToUnixInvertsFromUnixEverywhere) {
  for (const char* zone : {"Europe/Kiev", "America/New_York", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kolkata",
                           "Pacific/Apia", "UTC"}) {
    SCOPED_TRACE(zone);
    ASSERT_TRUE(SiteZone::Use(zone));
    for (UnixTime t = 1735689600; t < 1830297600; t += 1800) {
      const LocalTime lt = SiteZone::FromUnix(t);
      const UnixTime u = SiteZone::ToUnix(lt);
      ASSERT_EQ(SiteZone::FromUnix(u), lt) << t;
      ASSERT_LE(u, t);
      ASSERT_LE(t - u, 3600) << t;
      if (u < t) {
        ASSERT_NE(SiteZone::OffsetAt(u), SiteZone::OffsetAt(t));
      }
    }
  }
}

TEST(SiteZone, ApiaSkippedDayMapsForward) {
  // Samoa skipped 30 December 2011, going from -10 to +14 at 10:00Z.
  ASSERT_TRUE(SiteZone::Use("Pacific/Apia"));
  const UnixTime u = SiteZone::ToUnix({2011, 12, 30, 12, 0, 0});
  EXPECT_EQ(u, NaiveSeconds({2011, 12, 30, 22, 0, 0}));
  EXPECT_EQ(SiteZone::FromUnix(u), (LocalTime{2011, 12, 31, 12, 0, 0}));
}

TEST(SiteZone, ExtremesDoNotCrash) {
  ASSERT_TRUE(SiteZone::Use("Europe/Kiev"));
  for (UnixTime t : {INT64_MIN, INT64_MAX, int64_t{1} << 60, -(int64_t{1} << 60)}) {
    (void)SiteZone::FromUnix(t);
    (void)SiteZone::OffsetAt(t);
    (void)FormatRfc822(t, SiteZone::Current());
    (void)FormatRfc3339(t, SiteZone::Current());
    (void)FormatRfc3339Utc(t);
    (void)FormatHttpDate(t);
  }
  (void)SiteZone::ToUnix({INT32_MAX, 12, 31, 23, 59, 59});
  (void)SiteZone::ToUnix({2026, 13, 45, 99, 99, 99});
}

// ---- HTTP dates -------------------------------------------------------------

// The other two forms of the instant FormatHttpDate writes.
std::string AsRfc850(UnixTime t) {
  static const char* const kLong[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
  const std::string imf = FormatHttpDate(t);  // "Sun, 06 Nov 1994 08:49:37 GMT"
  int wday = 0;
  while (imf.compare(0, 3, std::string(kLong[wday]).substr(0, 3)) != 0) ++wday;
  return std::string(kLong[wday]) + ", " + imf.substr(5, 2) + "-" + imf.substr(8, 3) + "-" + imf.substr(14, 2) + " " +
         imf.substr(17, 8) + " GMT";
}

std::string AsAsctime(UnixTime t) {
  const std::string imf = FormatHttpDate(t);
  std::string day = imf.substr(5, 2);
  if (day[0] == '0') day[0] = ' ';
  return imf.substr(0, 3) + " " + imf.substr(8, 3) + " " + day + " " + imf.substr(17, 8) + " " + imf.substr(12, 4);
}

TEST(ParseHttpDate, AcceptsTheThreeForms) {
  const std::vector<std::pair<std::string, UnixTime>> cases = {
      {"Sun, 06 Nov 1994 08:49:37 GMT", 784111777},
      {"Sunday, 06-Nov-94 08:49:37 GMT", 784111777},
      {"Sun Nov  6 08:49:37 1994", 784111777},
      {"Sun Nov 06 08:49:37 1994", 784111777},  // asctime's day is 2DIGIT / SP DIGIT
      {"Thu, 01 Jan 1970 00:00:00 GMT", 0},
      {"Mon, 01 Jan 1900 00:00:00 GMT", -2208988800},
      {"Fri, 31 Dec 9999 23:59:59 GMT", 253402300799},
      {"Tue, 29 Feb 2000 12:00:00 GMT", 951825600},
      {"Wed, 01 Jul 2026 09:00:00 GMT", kKievSummer},
      {"Sat, 31 Dec 2016 23:59:60 GMT", 1483228799},  // leap second reads as :59
      {"Thu Jan  1 00:00:00 1970", 0},
  };
  for (const auto& [text, want] : cases) {
    SCOPED_TRACE(text);
    auto t = ParseHttpDate(text, kKievSummer);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(*t, want);
  }
}

TEST(ParseHttpDate, Rfc850CenturyIsAtMostFiftyYearsAhead) {
  const UnixTime now = kKievSummer;  // 2026
  const int year = 2026;
  // Ten years ahead stays ahead; the same digits sixty years ahead mean forty
  // years ago. (The weekday must match the reading, so each string names one.)
  for (int want_year : {year + 10, year - 40, year - 49, year + 49}) {
    const UnixTime want = NaiveSeconds({want_year, 1, 1, 12, 0, 0});
    const std::string text = AsRfc850(want);
    SCOPED_TRACE(text);
    EXPECT_EQ(ParseHttpDate(text, now), want);
  }
}

// The century follows the clock given, not the system's: "94" is 1994 in
// 2026, and 2094 once the clock says 2060.
TEST(ParseHttpDate, Rfc850CenturyFollowsTheGivenClock) {
  const std::string text = "Sunday, 06-Nov-94 08:49:37 GMT";
  EXPECT_EQ(ParseHttpDate(text, kKievSummer), 784111777);
  const UnixTime in_2060 = NaiveSeconds({2060, 1, 1, 0, 0, 0});
  EXPECT_EQ(ParseHttpDate("Saturday, 06-Nov-94 08:49:37 GMT", in_2060), NaiveSeconds({2094, 11, 6, 8, 49, 37}));
  EXPECT_EQ(ParseHttpDate(text, in_2060), std::nullopt) << "6 Nov 2094 is a Saturday";
}

TEST(ParseHttpDate, RejectsInvalid) {
  const std::vector<std::string> cases = {
      "",
      "Sun",
      "Sun,",
      "Sun, 06 Nov 1994 08:49:37 GMT ",
      " Sun, 06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37 GMT\0"s,
      "Sun, 06 Nov 1994 08:49:37 GMTX",
      "sun, 06 Nov 1994 08:49:37 GMT",
      "SUN, 06 Nov 1994 08:49:37 GMT",
      "Sun, 06 nov 1994 08:49:37 GMT",
      "Sun, 06 NOV 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37 gmt",
      "Sun, 06 Nov 1994 08:49:37 UTC",
      "Sun, 06 Nov 1994 08:49:37 +0000",
      "Sun, 06 Nov 1994 08:49:37",
      "Sun, 6 Nov 1994 08:49:37 GMT",
      "Sun,  6 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 94 08:49:37 GMT",
      "Sun, 06 Nov 01994 08:49:37 GMT",
      "Mon, 06 Nov 1994 08:49:37 GMT",  // 6 November 1994 was a Sunday
      "Sun, 00 Nov 1994 08:49:37 GMT",
      "Sun, 31 Nov 1994 08:49:37 GMT",
      "Tue, 29 Feb 2100 00:00:00 GMT",
      "Sun, 06 Xyz 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 24:00:00 GMT",
      "Sun, 06 Nov 1994 08:60:37 GMT",
      "Sun, 06 Nov 1994 08:49:61 GMT",
      "Sun, 06 Nov 1994 8:49:37 GMT",
      "Sun, 06 Nov 1994 08:49 GMT",
      "Sun, 06 Nov 1994 08-49-37 GMT",
      "Sun,06 Nov 1994 08:49:37 GMT",
      "Sun 06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994  08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37  GMT",
      "Sun, ０6 Nov 1994 08:49:37 GMT",
      "Mon, 01 Jan 1800 00:00:00 GMT",  // before 1900
      "Sat, 01 Jan 0000 00:00:00 GMT",
      "Sunday, 06 Nov 1994 08:49:37 GMT",
      "Sun, 06-Nov-94 08:49:37 GMT",
      "Sunday, 06-Nov-1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 UTC",
      "Sunday, 06-Nov-94 08:49:37",
      "sunday, 06-Nov-94 08:49:37 GMT",
      "Sunday, 6-Nov-94 08:49:37 GMT",
      "Sunday, 06-nov-94 08:49:37 GMT",
      "Sunday, 06 Nov 94 08:49:37 GMT",
      "Sundae, 06-Nov-94 08:49:37 GMT",
      "Sun Nov 6 08:49:37 1994",
      "Sun Nov  6 08:49:37 94",
      "Sun Nov  6 08:49:37 1994 GMT",
      "Sun Nov  6 08:49:37 1994 ",
      "Sun  Nov  6 08:49:37 1994",
      "Sun Nov   6 08:49:37 1994",
      "Sun Nov  0 08:49:37 1994",
      "Mon Nov  6 08:49:37 1994",
      "Sun Nov 6  08:49:37 1994",
      "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:37 GMT",
      "1994-11-06 08:49:37",
      "784111777",
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c));
    EXPECT_FALSE(ParseHttpDate(c, kKievSummer).has_value());
  }
}

TEST(HttpDate, FormatsImfFixdateAndRoundTrips) {
  EXPECT_EQ(FormatHttpDate(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(FormatHttpDate(0), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(FormatHttpDate(-1), "Wed, 31 Dec 1969 23:59:59 GMT");
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> any(-2208988800, 253402300799);
  const UnixTime now = kKievSummer;
  const int year = 2026;
  const int64_t rfc850_lo = NaiveSeconds({year - 49, 1, 1, 0, 0, 0});
  const int64_t rfc850_hi = NaiveSeconds({year + 49, 1, 1, 0, 0, 0});
  for (int i = 0; i < 20000; ++i) {
    const UnixTime t = any(rng);
    const std::string imf = FormatHttpDate(t);
    ASSERT_EQ(ParseHttpDate(imf, now), t) << imf;
    ASSERT_EQ(ParseHttpDate(AsAsctime(t), now), t) << AsAsctime(t);
    const int64_t span = rfc850_hi - rfc850_lo;
    const UnixTime near = rfc850_lo + (t % span + span) % span;
    ASSERT_EQ(ParseHttpDate(AsRfc850(near), now), near) << AsRfc850(near);
  }
}

}  // namespace
}  // namespace feed
