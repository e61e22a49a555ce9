#include "time_zone.h"

#include "zoned_time.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <iterator>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace feed {

// Failures print a LocalTime as "2026-03-29 03:30:00".
static void PrintTo(const LocalTime& t, std::ostream* os) { *os << FormatSqlDateTime(t); }

namespace {

using namespace std::string_literals;

// Expected values below are facts about the zones (the published rules),
// with instants worked out by `date -u -d '2026-03-29 01:00:00' +%s` and the
// like; none comes from the code under test.

TimeZone MustLoad(std::string_view name) {
  std::optional<TimeZone> z = TimeZone::Load(name);
  if (!z) {
    ADD_FAILURE() << "cannot load " << name;
    return TimeZone::Utc();
  }
  return *z;
}

// A private directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "time_zone_test.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  void Write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ + "/" + name, std::ios::binary | std::ios::trunc) << bytes;
  }

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- Known facts ----------------------------------------------------------------

constexpr UnixTime kJan2026 = 1768478400;  // 2026-01-15 12:00:00Z
constexpr UnixTime kJul2026 = 1784116800;  // 2026-07-15 12:00:00Z

TEST(TimeZone, KyivUnderBothNames) {
  for (const char* name : {"Europe/Kiev", "Europe/Kyiv"}) {
    SCOPED_TRACE(name);
    const TimeZone z = MustLoad(name);
    EXPECT_EQ(z.name(), name);
    EXPECT_EQ(z.OffsetAt(kJan2026), 7200);
    EXPECT_EQ(z.OffsetAt(kJul2026), 10800);
    EXPECT_EQ(z.FromUnix(kJan2026), (LocalTime{2026, 1, 15, 14, 0, 0}));
    EXPECT_EQ(z.FromUnix(kJul2026), (LocalTime{2026, 7, 15, 15, 0, 0}));
    EXPECT_EQ(z.ToUnix({2026, 1, 15, 14, 0, 0}), kJan2026);
    EXPECT_EQ(z.ToUnix({2026, 7, 15, 15, 0, 0}), kJul2026);
  }
}

// EU rule: summer time from the last Sunday of March to the last Sunday of
// October, switching at 01:00 UTC (2026: 29 March and 25 October).
TEST(TimeZone, Kyiv2026TransitionsToTheSecond) {
  const TimeZone z = MustLoad("Europe/Kiev");
  const UnixTime spring = 1774746000, autumn = 1792890000;
  EXPECT_EQ(z.OffsetAt(spring - 1), 7200);
  EXPECT_EQ(z.OffsetAt(spring), 10800);
  EXPECT_EQ(z.FromUnix(spring - 1), (LocalTime{2026, 3, 29, 2, 59, 59}));
  EXPECT_EQ(z.FromUnix(spring), (LocalTime{2026, 3, 29, 4, 0, 0}));
  EXPECT_EQ(z.OffsetAt(autumn - 1), 10800);
  EXPECT_EQ(z.OffsetAt(autumn), 7200);
  EXPECT_EQ(z.FromUnix(autumn - 1), (LocalTime{2026, 10, 25, 3, 59, 59}));
  EXPECT_EQ(z.FromUnix(autumn), (LocalTime{2026, 10, 25, 3, 0, 0}));
}

// US rule: 02:00 local on the second Sunday of March and the first Sunday of
// November (2026: 8 March 07:00Z, 1 November 06:00Z).
TEST(TimeZone, NewYork2026) {
  const TimeZone z = MustLoad("America/New_York");
  EXPECT_EQ(z.OffsetAt(kJan2026), -18000);
  EXPECT_EQ(z.OffsetAt(kJul2026), -14400);
  EXPECT_EQ(z.FromUnix(1772953200 - 1), (LocalTime{2026, 3, 8, 1, 59, 59}));
  EXPECT_EQ(z.FromUnix(1772953200), (LocalTime{2026, 3, 8, 3, 0, 0}));
  EXPECT_EQ(z.FromUnix(1793512800 - 1), (LocalTime{2026, 11, 1, 1, 59, 59}));
  EXPECT_EQ(z.FromUnix(1793512800), (LocalTime{2026, 11, 1, 1, 0, 0}));
}

// Lord Howe Island: +10:30, and +11 (half an hour of DST) from 02:00 on the
// first Sunday of October to 02:00 on the first Sunday of April.
TEST(TimeZone, LordHoweHalfHourDst) {
  const TimeZone z = MustLoad("Australia/Lord_Howe");
  EXPECT_EQ(z.OffsetAt(kJan2026), 39600);
  EXPECT_EQ(z.OffsetAt(kJul2026), 37800);
  const UnixTime ends = 1775314800, starts = 1791041400;  // 2026-04-04 15:00Z, 2026-10-03 15:30Z
  EXPECT_EQ(z.FromUnix(ends - 1), (LocalTime{2026, 4, 5, 1, 59, 59}));
  EXPECT_EQ(z.FromUnix(ends), (LocalTime{2026, 4, 5, 1, 30, 0}));
  EXPECT_EQ(z.FromUnix(starts - 1), (LocalTime{2026, 10, 4, 1, 59, 59}));
  EXPECT_EQ(z.FromUnix(starts), (LocalTime{2026, 10, 4, 2, 30, 0}));
  // In the 30-minute gap and overlap.
  EXPECT_EQ(z.ToUnix({2026, 10, 4, 2, 15, 0}), 1791042300);  // 15:45Z, shows 02:45
  EXPECT_EQ(z.ToUnix({2026, 4, 5, 1, 45, 0}), 1775313900);   // 14:45Z, the +11 reading
}

TEST(TimeZone, KolkataAndUtc) {
  const TimeZone kolkata = MustLoad("Asia/Kolkata");
  EXPECT_EQ(kolkata.OffsetAt(kJan2026), 19800);
  EXPECT_EQ(kolkata.OffsetAt(kJul2026), 19800);
  EXPECT_EQ(kolkata.FromUnix(kJan2026), (LocalTime{2026, 1, 15, 17, 30, 0}));
  EXPECT_EQ(kolkata.ToUnix({2026, 1, 15, 17, 30, 0}), kJan2026);
  for (const TimeZone& utc : {MustLoad("UTC"), TimeZone::Utc()}) {
    EXPECT_EQ(utc.name(), "UTC");
    for (UnixTime t : {UnixTime{0}, kJan2026, kJul2026, UnixTime{-2208988800}, UnixTime{4102444800}}) {
      EXPECT_EQ(utc.OffsetAt(t), 0);
      EXPECT_EQ(utc.FromUnix(t), FromNaiveSeconds(t));
      EXPECT_EQ(utc.ToUnix(FromNaiveSeconds(t)), t);
    }
  }
}

// The files' transition tables stop in 2037; 2090 comes from the footer.
// 2090: last Sundays 26 March and 29 October; US 12 March and 5 November.
TEST(TimeZone, Year2090FromTheFooter) {
  const TimeZone kyiv = MustLoad("Europe/Kyiv");
  EXPECT_EQ(kyiv.OffsetAt(3794173200 - 1), 7200);
  EXPECT_EQ(kyiv.OffsetAt(3794173200), 10800);
  EXPECT_EQ(kyiv.OffsetAt(3812922000 - 1), 10800);
  EXPECT_EQ(kyiv.OffsetAt(3812922000), 7200);
  EXPECT_EQ(kyiv.FromUnix(3802550400), (LocalTime{2090, 7, 1, 3, 0, 0}));  // 2090-07-01 00:00Z
  EXPECT_EQ(kyiv.ToUnix({2090, 7, 1, 3, 0, 0}), 3802550400);
  const TimeZone ny = MustLoad("America/New_York");
  EXPECT_EQ(ny.FromUnix(3792985200 - 1), (LocalTime{2090, 3, 12, 1, 59, 59}));
  EXPECT_EQ(ny.FromUnix(3792985200), (LocalTime{2090, 3, 12, 3, 0, 0}));
  EXPECT_EQ(ny.FromUnix(3813544800 - 1), (LocalTime{2090, 11, 5, 1, 59, 59}));
  EXPECT_EQ(ny.FromUnix(3813544800), (LocalTime{2090, 11, 5, 1, 0, 0}));
  const TimeZone lord_howe = MustLoad("Australia/Lord_Howe");
  EXPECT_EQ(lord_howe.OffsetAt(3802550400), 37800);
}

// São Paulo kept local mean time (-3:06:28) until 1914-01-01 03:06:28Z, its
// first transition; Kyiv's mean time was +2:02:04 until 1924.
TEST(TimeZone, Year1900BeforeTheFirstTransition) {
  const UnixTime june1900 = -2195942400;  // 1900-06-01 00:00:00Z
  const TimeZone sao_paulo = MustLoad("America/Sao_Paulo");
  EXPECT_EQ(sao_paulo.OffsetAt(june1900), -11188);
  EXPECT_EQ(sao_paulo.FromUnix(june1900), (LocalTime{1900, 5, 31, 20, 53, 32}));
  EXPECT_EQ(sao_paulo.ToUnix({1900, 5, 31, 20, 53, 32}), june1900);
  EXPECT_EQ(sao_paulo.OffsetAt(-1767214412 - 1), -11188);
  EXPECT_EQ(sao_paulo.OffsetAt(-1767214412), -10800);
  EXPECT_EQ(MustLoad("Europe/Kiev").OffsetAt(june1900), 7324);
}

// ---- Gaps and overlaps ----------------------------------------------------------

// Kyiv 2026: 03:00 EET -> 04:00 EEST on 29 March (01:00Z); 04:00 EEST ->
// 03:00 EET on 25 October (01:00Z).
TEST(TimeZone, KyivSpringGapMapsToLaterInstant) {
  const TimeZone z = MustLoad("Europe/Kiev");
  EXPECT_EQ(z.ToUnix({2026, 3, 29, 3, 30, 0}), 1774747800);  // 01:30Z: 03:30 read at +02
  EXPECT_EQ(z.FromUnix(1774747800), (LocalTime{2026, 3, 29, 4, 30, 0}));
  EXPECT_EQ(z.ToUnix({2026, 3, 29, 3, 0, 0}), 1774746000);
  EXPECT_EQ(z.ToUnix({2026, 3, 29, 3, 59, 59}), 1774749599);
  EXPECT_EQ(z.ToUnix({2026, 3, 29, 2, 59, 59}), 1774745999);  // the last EET second
  EXPECT_EQ(z.ToUnix({2026, 3, 29, 4, 0, 0}), 1774746000);    // the first EEST second
}

TEST(TimeZone, KyivAutumnOverlapMapsToEarlierInstant) {
  const TimeZone z = MustLoad("Europe/Kiev");
  EXPECT_EQ(z.ToUnix({2026, 10, 25, 3, 30, 0}), 1792888200);  // 00:30Z, the EEST reading
  EXPECT_EQ(z.FromUnix(1792888200), (LocalTime{2026, 10, 25, 3, 30, 0}));
  EXPECT_EQ(z.FromUnix(1792888200 + 3600), (LocalTime{2026, 10, 25, 3, 30, 0}));
  EXPECT_EQ(z.ToUnix({2026, 10, 25, 3, 0, 0}), 1792886400);
  EXPECT_EQ(z.ToUnix({2026, 10, 25, 3, 59, 59}), 1792889999);
  EXPECT_EQ(z.ToUnix({2026, 10, 25, 2, 59, 59}), 1792886399);
  EXPECT_EQ(z.ToUnix({2026, 10, 25, 4, 0, 0}), 1792893600);
}

TEST(TimeZone, NewYorkGapAndOverlap) {
  const TimeZone z = MustLoad("America/New_York");
  EXPECT_EQ(z.ToUnix({2026, 3, 8, 2, 30, 0}), 1772955000);   // 07:30Z, shows 03:30 EDT
  EXPECT_EQ(z.ToUnix({2026, 11, 1, 1, 30, 0}), 1793511000);  // 05:30Z, the EDT reading
}

TEST(TimeZone, ApiaSkippedDayMapsForward) {
  // Samoa skipped 30 December 2011, going from -10 to +14 at 10:00Z.
  const TimeZone z = MustLoad("Pacific/Apia");
  const UnixTime u = z.ToUnix({2011, 12, 30, 12, 0, 0});
  EXPECT_EQ(u, 1325282400);  // 2011-12-30 22:00Z
  EXPECT_EQ(z.FromUnix(u), (LocalTime{2011, 12, 31, 12, 0, 0}));
}

// Every half hour of 2025-2027: ToUnix gives the earliest instant showing
// the wall time, within the hour before.
TEST(TimeZone, ToUnixInvertsFromUnixEverywhere) {
  for (const char* name : {"Europe/Kiev", "America/New_York", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kolkata",
                           "Pacific/Apia", "Pacific/Chatham", "UTC"}) {
    SCOPED_TRACE(name);
    const TimeZone z = MustLoad(name);
    for (UnixTime t = 1735689600; t < 1830297600; t += 1800) {
      const LocalTime lt = z.FromUnix(t);
      const UnixTime u = z.ToUnix(lt);
      ASSERT_EQ(z.FromUnix(u), lt) << t;
      ASSERT_LE(u, t);
      ASSERT_LE(t - u, 3600) << t;
      if (u < t) {
        ASSERT_NE(z.OffsetAt(u), z.OffsetAt(t));
      }
    }
  }
}

// ---- Leap seconds ("right/" zones) ----------------------------------------------

// The leap second 2016-12-31 23:59:60 UTC is right/UTC's instant
// 1483228826 (1483228800 plus the 26 leap seconds before it).
TEST(TimeZone, LeapSecondReadsAs59) {
  const TimeZone z = MustLoad("right/UTC");
  EXPECT_EQ(z.FromUnix(1483228825), (LocalTime{2016, 12, 31, 23, 59, 59}));
  EXPECT_EQ(z.FromUnix(1483228826), (LocalTime{2016, 12, 31, 23, 59, 59}));
  EXPECT_EQ(z.FromUnix(1483228827), (LocalTime{2017, 1, 1, 0, 0, 0}));
  EXPECT_EQ(z.OffsetAt(1483228826), 0);
  EXPECT_EQ(z.ToUnix({2016, 12, 31, 23, 59, 59}), 1483228825);
  EXPECT_EQ(z.ToUnix({2017, 1, 1, 0, 0, 0}), 1483228827);
}

// ---- Against glibc ----------------------------------------------------------------

// Sets the process's TZ for one comparison and restores it after.
class ScopedProcessTz {
 public:
  explicit ScopedProcessTz(const std::string& tz) {
    if (const char* old = getenv("TZ")) saved_ = old;
    setenv("TZ", tz.c_str(), 1);
    tzset();
  }
  ~ScopedProcessTz() {
    if (saved_) {
      setenv("TZ", saved_->c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  ScopedProcessTz(const ScopedProcessTz&) = delete;
  ScopedProcessTz& operator=(const ScopedProcessTz&) = delete;

 private:
  std::optional<std::string> saved_;
};

struct GlibcReading {
  int offset;
  LocalTime local;
};

GlibcReading Glibc(UnixTime t) {
  const time_t tt = static_cast<time_t>(t);
  struct tm tm {};
  if (localtime_r(&tt, &tm) == nullptr) ADD_FAILURE() << "localtime_r failed at " << t;
  return {static_cast<int>(tm.tm_gmtoff),
          {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec > 59 ? 59 : tm.tm_sec}};
}

// SiteZone's way to ToUnix, on glibc: the candidates are `t` read with the
// offsets glibc shows a day either side and at the first guesses; the
// earliest that glibc shows as `t` wins, else (a gap) the latest.
UnixTime GlibcToUnix(const LocalTime& t) {
  const int64_t naive = NaiveSeconds(t);
  std::vector<int> offsets = {Glibc(naive - 86400).offset, Glibc(naive).offset, Glibc(naive + 86400).offset};
  offsets.push_back(Glibc(naive - offsets[1]).offset);
  offsets.push_back(Glibc(naive - offsets[3]).offset);
  std::optional<UnixTime> earliest;
  UnixTime latest = naive - offsets[0];
  for (const int offset : offsets) {
    const UnixTime u = naive - offset;
    latest = std::max(latest, u);
    if (Glibc(u).local == t && (!earliest || u < *earliest)) earliest = u;
  }
  return earliest.value_or(latest);
}

// Wall time `w` in RFC 3339 as glibc reads it: at the instant GlibcToUnix
// gives, glibc's wall time and offset (nullopt where the offset has seconds,
// which RFC 3339 cannot write: LMT before 1900-ish).
std::optional<std::string> GlibcRfc3339(const LocalTime& w) {
  const GlibcReading g = Glibc(GlibcToUnix(w));
  if (g.offset % 60 != 0) return std::nullopt;
  const int m = (g.offset < 0 ? -g.offset : g.offset) / 60;
  char b[64];
  std::snprintf(b, sizeof b, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", g.local.year, g.local.month, g.local.day,
                g.local.hour, g.local.minute, g.local.second, g.offset < 0 ? '-' : '+', m / 60, m % 60);
  return std::string(b);
}

testing::AssertionResult Rfc3339AgreesWithGlibc(const TimeZone& z, const LocalTime& w) {
  const std::optional<std::string> want = GlibcRfc3339(w);
  if (!want) return testing::AssertionSuccess();
  std::string got = "before:";
  AppendRfc3339(got, w, z);
  if (got == "before:" + *want) return testing::AssertionSuccess();
  return testing::AssertionFailure() << FormatSqlDateTime(w) << " wrote " << got << " where glibc reads " << *want;
}

// For each zone, about 3,000 instants spread over 1900-2100 (a stride of
// about 24 days, shifted by a fixed pseudo-random amount each time), and the
// two seconds around every change of offset glibc shows between them, found
// by bisection with glibc alone. At each instant's wall time, and around each
// change (wall times before, in and after the gap or overlap, every 15
// minutes and to the second at both edges), ToUnix matches GlibcToUnix and
// AppendRfc3339 glibc's reading (not in the "right/" zones, where SiteZone's
// rule ignored the leap correction).
TEST(TimeZone, AgreesWithGlibcLocaltime) {
  const std::vector<std::string> zones = {
      "Europe/Kiev",       "America/New_York",  "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns",
      "America/Sao_Paulo", "Pacific/Apia",      "Pacific/Chatham",     "America/Nuuk",  // footer time -1
      "Asia/Jerusalem",                                                                 // 26 h
      "America/Santiago",                                                               // 24 h, south
      "Asia/Gaza",                                                                      // 50 h
      "Europe/Dublin",                                                                  // negative DST
      "Antarctica/Troll",  "Africa/Casablanca", "Europe/London",       "UTC",          "right/UTC",
      "right/Europe/Kyiv"};
  constexpr UnixTime kFrom = -2208988800, kTo = 4133980799;  // 1900-01-01 .. 2100-12-31
  constexpr UnixTime kStride = (kTo - kFrom) / 3000;
  for (const std::string& name : zones) {
    SCOPED_TRACE(name);
    const TimeZone z = MustLoad(name);
    const ScopedProcessTz tz(name);
    int compared = 0, changes = 0;
    auto agrees = [&](UnixTime t) -> testing::AssertionResult {
      ++compared;
      const GlibcReading want = Glibc(t);
      const int offset = z.OffsetAt(t);
      const LocalTime local = z.FromUnix(t);
      if (offset == want.offset && local == want.local) return testing::AssertionSuccess();
      return testing::AssertionFailure() << "at " << t << ": " << FormatSqlDateTime(local) << " (" << offset
                                         << ") where glibc has " << FormatSqlDateTime(want.local) << " (" << want.offset
                                         << ")";
    };
    uint64_t jitter = 88172645463325252u;  // xorshift64
    UnixTime prev = kFrom;
    int prev_offset = Glibc(prev).offset;
    ASSERT_TRUE(agrees(prev));
    for (UnixTime base = kFrom + kStride; base < kTo; base += kStride) {
      jitter ^= jitter << 13, jitter ^= jitter >> 7, jitter ^= jitter << 17;
      const UnixTime t = base - static_cast<UnixTime>(jitter % kStride);
      ASSERT_TRUE(agrees(t));
      if (name.rfind("right/", 0) != 0) {
        const LocalTime w = Glibc(t).local;
        ASSERT_EQ(z.ToUnix(w), GlibcToUnix(w)) << FormatSqlDateTime(w);
        ASSERT_TRUE(Rfc3339AgreesWithGlibc(z, w));
      }
      if (Glibc(t).offset != prev_offset) {
        UnixTime lo = prev, hi = t;  // glibc's offset differs between lo and hi
        while (hi - lo > 1) {
          const UnixTime mid = lo + (hi - lo) / 2;
          (Glibc(mid).offset == prev_offset ? lo : hi) = mid;
        }
        ASSERT_TRUE(agrees(lo));
        ASSERT_TRUE(agrees(hi));
        const int64_t wall = NaiveSeconds(Glibc(lo).local);
        for (int64_t d = -5400; d <= 5400 && name.rfind("right/", 0) != 0; d += 900) {
          const LocalTime w = FromNaiveSeconds(wall + d);
          ASSERT_EQ(z.ToUnix(w), GlibcToUnix(w)) << FormatSqlDateTime(w);
          ASSERT_TRUE(Rfc3339AgreesWithGlibc(z, w));
        }
        for (int64_t d = -2; d <= 2 && name.rfind("right/", 0) != 0; ++d) {  // to the second at both edges
          for (const LocalTime& edge : {Glibc(lo).local, Glibc(hi).local}) {
            const LocalTime w = FromNaiveSeconds(NaiveSeconds(edge) + d);
            ASSERT_EQ(z.ToUnix(w), GlibcToUnix(w)) << FormatSqlDateTime(w);
            ASSERT_TRUE(Rfc3339AgreesWithGlibc(z, w));
          }
        }
        ++changes;
      }
      prev = t;
      prev_offset = Glibc(t).offset;
    }
    EXPECT_GT(compared, 2900);
    EXPECT_EQ(changes > 0, name != "UTC" && name != "right/UTC");
  }
}

// ---- Refusals and malformed files -------------------------------------------------

TEST(TimeZone, LoadRefusesBadNames) {
  const char* tz_before = getenv("TZ");
  const std::string saved = tz_before ? tz_before : "(unset)";
  for (const std::string& name : {
           ""s, "/etc/passwd"s, "../x"s, "Europe/../UTC"s, "/usr/share/zoneinfo/UTC"s,
           "EST5"s,  // a POSIX rule, not a database entry
           "No/Such_Zone"s,
           "Europe"s,  // a directory
           "Europe/"s, "Europe/Kiev\0x"s,
           "zone.tab"s,  // a regular file, but not TZif
       }) {
    SCOPED_TRACE(testing::PrintToString(name));
    EXPECT_FALSE(TimeZone::Load(name).has_value());
  }
  const char* tz_after = getenv("TZ");
  EXPECT_EQ(tz_after ? tz_after : "(unset)", saved);  // nothing process-wide was touched
}

TEST(TimeZone, LoadRefusesEveryTruncationOfARealFile) {
  const std::string kyiv = ReadFile("/usr/share/zoneinfo/Europe/Kyiv");
  ASSERT_GT(kyiv.size(), 1000u);
  TempDir dir;
  dir.Write("Kyiv", kyiv);
  const std::optional<TimeZone> whole = TimeZone::Load("Kyiv", dir.path());
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->OffsetAt(kJul2026), 10800);
  for (size_t n = 0; n < kyiv.size(); ++n) {
    // A new file each time: truncating one that holds data makes ext4 flush.
    const std::string name = "Kyiv-" + std::to_string(n);
    dir.Write(name, kyiv.substr(0, n));
    ASSERT_FALSE(TimeZone::Load(name, dir.path()).has_value()) << n << " bytes";
  }
}

TEST(TimeZone, LoadRefusesGarbage) {
  TempDir dir;
  const std::string kyiv = ReadFile("/usr/share/zoneinfo/Europe/Kyiv");
  std::vector<std::string> files = {
      "TZif",
      "TZif2",
      "TZif2" + std::string(39, '\0'),  // no types
      kyiv + "x",                       // bytes after the footer
      kyiv.substr(0, kyiv.rfind('\n', kyiv.size() - 2)) + "\nnot a rule\n",
      kyiv.substr(0, kyiv.rfind('\n', kyiv.size() - 2)) + "\nEET-2EEST\n",  // DST without rules
  };
  uint64_t x = 0x9E3779B97F4A7C15u;
  for (size_t size : {1, 7, 40, 44, 100, 1000, 5000}) {
    std::string garbage = "TZif";
    for (size_t i = 0; i < size; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      garbage += static_cast<char>(x >> 56);
    }
    files.push_back(garbage);
  }
  for (const std::string& bytes : files) {
    SCOPED_TRACE(testing::PrintToString(bytes.substr(0, 60)));
    dir.Write("zone", bytes);
    EXPECT_FALSE(TimeZone::Load("zone", dir.path()).has_value());
  }
}

// ---- Footer rules, on hand-made files ---------------------------------------------

std::string Be(int64_t v, int bytes) {
  std::string s;
  for (int i = bytes - 1; i >= 0; --i) s += static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
  return s;
}

std::string Header(char version, int timecnt, int typecnt) {
  return "TZif"s + version + std::string(15, '\0') + Be(0, 4) + Be(0, 4) + Be(0, 4) + Be(timecnt, 4) + Be(typecnt, 4) +
         Be(1, 4);
}

// A "slim" version 2 file: a stub version 1 block, no transitions, one time
// type of `offset`, and `footer` for all instants.
std::string SlimFile(int offset, const std::string& footer) {
  return Header('2', 0, 1) + Be(0, 4) + "\0\0"s + '\0' + Header('2', 0, 1) + Be(offset, 4) + "\0\0"s + '\0' + "\n" +
         footer + "\n";
}

std::optional<TimeZone> LoadBytes(const std::string& bytes) {
  TempDir dir;
  dir.Write("zone", bytes);
  return TimeZone::Load("zone", dir.path());
}

TEST(TimeZone, SlimFileUsesTheFooterThroughout) {
  const std::optional<TimeZone> z = LoadBytes(SlimFile(7200, "EET-2EEST,M3.5.0/3,M10.5.0/4"));
  ASSERT_TRUE(z.has_value());
  for (UnixTime spring : {UnixTime{1774746000}, UnixTime{3794173200}}) {  // 2026 and 2090
    EXPECT_EQ(z->OffsetAt(spring - 1), 7200);
    EXPECT_EQ(z->OffsetAt(spring), 10800);
  }
  for (UnixTime autumn : {UnixTime{1792890000}, UnixTime{3812922000}}) {
    EXPECT_EQ(z->OffsetAt(autumn - 1), 10800);
    EXPECT_EQ(z->OffsetAt(autumn), 7200);
  }
  EXPECT_EQ(z->ToUnix({2026, 3, 29, 3, 30, 0}), 1774747800);
  EXPECT_EQ(z->ToUnix({2026, 10, 25, 3, 30, 0}), 1792888200);
}

TEST(TimeZone, FooterRuleForms) {
  // Greenland: "M3.5.0/-1" is 23:00 the Saturday before; at -02 that is the
  // EU's 01:00Z on the last Sunday of March. It ends at 00:00 -01, 01:00Z.
  std::optional<TimeZone> z = LoadBytes(SlimFile(-7200, "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"));
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(1774746000 - 1), -7200);
  EXPECT_EQ(z->OffsetAt(1774746000), -3600);
  EXPECT_EQ(z->OffsetAt(1792890000 - 1), -3600);
  EXPECT_EQ(z->OffsetAt(1792890000), -7200);
  // Israel: from 02:00 on the Friday before the last Sunday of March
  // ("M3.4.4/26": the fourth Thursday, plus 26 hours; 2026-03-27 00:00Z) to
  // 02:00 on the last Sunday of October (2026-10-24 23:00Z).
  z = LoadBytes(SlimFile(7200, "IST-2IDT,M3.4.4/26,M10.5.0"));
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(1774569600 - 1), 7200);
  EXPECT_EQ(z->OffsetAt(1774569600), 10800);
  EXPECT_EQ(z->OffsetAt(1792882800 - 1), 10800);
  EXPECT_EQ(z->OffsetAt(1792882800), 7200);
  // Jn never counts February 29: J60 is 1 March, in 2028 too.
  z = LoadBytes(SlimFile(0, "AAA0BBB,J60/0,J305/0"));
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(1835481600 - 1), 0);  // 2028-03-01 00:00Z
  EXPECT_EQ(z->OffsetAt(1835481600), 3600);
  EXPECT_EQ(z->OffsetAt(1793487600 - 1), 3600);  // J305 is 1 November: 00:00 +01 = 2026-10-31 23:00Z
  EXPECT_EQ(z->OffsetAt(1793487600), 0);
  // n counts from zero and counts February 29: 59 is 1 March 2026 but
  // 29 February 2028; 304 is 1 November 2026 but 31 October 2028.
  z = LoadBytes(SlimFile(0, "AAA0BBB,59/0,304/0"));
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(1772323200 - 1), 0);  // 2026-03-01 00:00Z
  EXPECT_EQ(z->OffsetAt(1772323200), 3600);
  EXPECT_EQ(z->OffsetAt(1835395200 - 1), 0);  // 2028-02-29 00:00Z
  EXPECT_EQ(z->OffsetAt(1835395200), 3600);
  EXPECT_EQ(z->OffsetAt(1856559600 - 1), 3600);  // 2028-10-30 23:00Z
  EXPECT_EQ(z->OffsetAt(1856559600), 0);
  // RFC 8536 3.3.1: DST all year when it starts 1 January 00:00 and ends
  // 31 December 24:00 plus the DST difference.
  z = LoadBytes(SlimFile(-18000, "EST5EDT,0/0,J365/25"));
  ASSERT_TRUE(z.has_value());
  for (UnixTime t : {1767243600 - 1, 1767243600, 1767243600 + 1, 1784116800, 946684800}) {
    EXPECT_EQ(z->OffsetAt(t), -14400) << t;  // 1767243600 is 2026-01-01 05:00Z
  }
}

TEST(TimeZone, VersionOneFile) {
  // Two types, +01 then +02 from 2001-09-09 01:46:40Z; no footer, so the
  // last type holds on.
  const std::string file =
      Header('\0', 1, 2) + Be(1000000000, 4) + '\1' + Be(3600, 4) + "\0\0"s + Be(7200, 4) + "\0\0"s + '\0';
  const std::optional<TimeZone> z = LoadBytes(file);
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(999999999), 3600);
  EXPECT_EQ(z->OffsetAt(1000000000), 7200);
  EXPECT_EQ(z->OffsetAt(4000000000), 7200);
}

// ---- Values and totality ----------------------------------------------------------

TEST(TimeZone, CopiesAndThreadsShareNothingMutable) {
  const TimeZone kyiv = MustLoad("Europe/Kiev");
  TimeZone copy = kyiv;
  copy = MustLoad("America/New_York");
  EXPECT_EQ(kyiv.OffsetAt(kJul2026), 10800);
  EXPECT_EQ(copy.OffsetAt(kJul2026), -14400);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      const TimeZone& z = i % 2 ? kyiv : copy;
      const int want = i % 2 ? 10800 : -14400;
      bool all = true;
      for (int k = 0; k < 20000; ++k) all = all && z.OffsetAt(kJul2026 + k) == want;
      ok[i] = all;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, (std::vector<int>{1, 1, 1, 1}));
}

TEST(TimeZone, ExtremesDoNotCrash) {
  const TimeZone z = MustLoad("Europe/Kiev");
  for (UnixTime t : {INT64_MIN, INT64_MAX, int64_t{1} << 60, -(int64_t{1} << 60)}) {
    EXPECT_EQ(z.OffsetAt(t), 0);  // beyond any year: read as UTC
    EXPECT_EQ(z.FromUnix(t), FromNaiveSeconds(t));
  }
  (void)z.ToUnix({INT32_MAX, 12, 31, 23, 59, 59});
  (void)z.ToUnix({INT32_MIN, 1, 1, 0, 0, 0});
  (void)z.ToUnix({2026, 13, 45, 99, 99, 99});
  (void)z.ToUnix({2026, -5, -45, -99, -99, -99});
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// A zone archive written by hand, as the format in time_zone.h states it.
std::string Archive(const std::vector<std::tuple<std::string, size_t, size_t>>& index, const std::string& data,
                    const std::string& magic = "feed-zones 1") {
  std::string a = magic + "\n";
  for (const auto& [name, offset, length] : index) {
    a += name + " " + std::to_string(offset) + " " + std::to_string(length) + "\n";
  }
  return a + "\n" + data;
}

TEST(TimeZone, LoadReadsAZoneArchiveAsItReadsTheFolder) {
  const std::string kyiv = ReadFile("/usr/share/zoneinfo/Europe/Kyiv");
  const std::string ny = ReadFile("/usr/share/zoneinfo/America/New_York");
  ASSERT_GT(kyiv.size(), 1000u);
  TempDir dir;
  // Europe/Kiev and Europe/Kyiv share one copy of the bytes, as links do.
  dir.Write("zones", Archive({{"America/New_York", kyiv.size(), ny.size()},
                              {"Europe/Kiev", 0, kyiv.size()},
                              {"Europe/Kyiv", 0, kyiv.size()}},
                             kyiv + ny));
  const std::string archive = dir.path() + "/zones";
  for (const char* name : {"Europe/Kiev", "Europe/Kyiv"}) {
    std::optional<TimeZone> z = TimeZone::Load(name, archive);
    ASSERT_TRUE(z.has_value()) << name;
    EXPECT_EQ(z->name(), name);
    EXPECT_EQ(z->OffsetAt(kJul2026), 10800);
    EXPECT_EQ(z->OffsetAt(kJan2026), 7200);
  }
  std::optional<TimeZone> z = TimeZone::Load("America/New_York", archive);
  ASSERT_TRUE(z.has_value());
  EXPECT_EQ(z->OffsetAt(kJul2026), -4 * 3600);
  EXPECT_EQ(z->OffsetAt(kJan2026), -5 * 3600);
  EXPECT_FALSE(TimeZone::Load("Europe/Paris", archive).has_value());
  EXPECT_FALSE(TimeZone::Load("Europe", archive).has_value());
  EXPECT_FALSE(TimeZone::Load("Europe/Kyiv 0", archive).has_value());
}

TEST(TimeZone, LoadRefusesABrokenZoneArchive) {
  const std::string kyiv = ReadFile("/usr/share/zoneinfo/Europe/Kyiv");
  TempDir dir;
  const std::vector<std::string> broken = {
      Archive({{"Europe/Kyiv", 0, kyiv.size()}}, kyiv, "feed-zones 2"),         // another format
      Archive({{"Europe/Kyiv", 0, kyiv.size()}}, kyiv.substr(0, 100)),          // cut short
      Archive({{"Europe/Kyiv", 10, kyiv.size()}}, kyiv),                         // past the end
      Archive({{"Europe/Kyiv", 1, kyiv.size() - 1}}, kyiv),                      // not TZif there
      "feed-zones 1\nEurope/Kyiv 0\n\n" + kyiv,                                  // a line of another form
      "feed-zones 1\nEurope/Kyiv x 9\n\n" + kyiv,                                // not a number
      "feed-zones 1\nEurope/Kyiv 0 " + std::to_string(kyiv.size()) + "\n" + kyiv,  // no blank line
  };
  for (const std::string& bytes : broken) {
    dir.Write("zones", bytes);
    EXPECT_FALSE(TimeZone::Load("Europe/Kyiv", dir.path() + "/zones").has_value()) << bytes.substr(0, 40);
  }
}

TEST(TimeZone, TheDefaultSourceIsTzdirWhenSet) {
  EXPECT_EQ(TimeZone::DefaultSource(nullptr), "/usr/share/zoneinfo");
  EXPECT_EQ(TimeZone::DefaultSource(""), "/usr/share/zoneinfo");
  EXPECT_EQ(TimeZone::DefaultSource("/home/u/feed-files/lib/zones"), "/home/u/feed-files/lib/zones");
}

}  // namespace
}  // namespace feed
