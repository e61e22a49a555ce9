#include "datetime.h"

#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cstdio>

namespace feed {

static_assert(sizeof(time_t) >= 8, "UnixTime must fit time_t (no 2038 wrap)");

namespace {

constexpr int64_t kSecondsPerDay = 86400;

constexpr std::array<const char*, 7> kDayNames = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char*, 7> kLongDayNames = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                      "Thursday", "Friday", "Saturday"};
constexpr std::array<const char*, 12> kMonthNames = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// Howard Hinnant's days_from_civil / civil_from_days: exact for the whole
// proleptic Gregorian calendar, with no libc (timegm has no portable range
// guarantee and gmtime_r fails past year 2^31).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year;
  int month, day;
};

Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2), m, d};
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a % b < 0) != (b < 0)); }

// 0 = Sunday, as in struct tm; 1970-01-01 was a Thursday.
int WeekdayFromDays(int64_t days) { return static_cast<int>(days - FloorDiv(days + 4, 7) * 7 + 4); }

bool ValidLocalTime(int64_t y, int mo, int d, int h, int mi, int s) {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= DaysInMonth(y, mo) && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 &&
         s >= 0 && s <= 59;
}

// A forward-only reader over [p, end) for the fixed-format parsers below.
// Every method consumes only on success; callers bail out on the first
// failure, so partial consumption never matters.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool AtEnd() const { return pos_ == s_.size(); }
  size_t pos() const { return pos_; }

  bool Literal(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }

  // Exactly `n` ASCII digits: std::isdigit would let locale digits through.
  bool Digits(int n, int* out) {
    if (s_.size() - pos_ < static_cast<size_t>(n)) return false;
    int v = 0;
    for (int i = 0; i < n; ++i) {
      const char c = s_[pos_ + i];
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    pos_ += n;
    *out = v;
    return true;
  }

  // One of `names`, case-sensitively (RFC 9110 5.6.7 names them as %s"...").
  template <size_t N>
  bool Name(const std::array<const char*, N>& names, int* index) {
    for (size_t i = 0; i < N; ++i) {
      if (Literal(names[i])) {
        *index = static_cast<int>(i);
        return true;
      }
    }
    return false;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

bool ParseTimeOfDay(Cursor& c, int* h, int* mi, int* s) {
  return c.Digits(2, h) && c.Literal(":") && c.Digits(2, mi) && c.Literal(":") && c.Digits(2, s);
}

void Put2(char* p, int v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
}

// Whether printf's %02d of `v` is two digits.
bool TwoDigits(int v) { return v >= 0 && v <= 99; }

// Whether t's date has the usual widths (%04d-%02d-%02d of 10 characters).
bool UsualDate(const LocalTime& t) { return t.year >= 0 && t.year <= 9999 && TwoDigits(t.month) && TwoDigits(t.day); }

// "YYYY-MM-DD" into b[0..10). REQUIRES: UsualDate(t).
void PutYmd(char* b, const LocalTime& t) {
  Put2(b, t.year / 100);
  Put2(b + 2, t.year % 100);
  b[4] = '-';
  Put2(b + 5, t.month);
  b[7] = '-';
  Put2(b + 8, t.day);
}

std::string FormatYmdHms(const LocalTime& t, char sep) {
  std::string s;
  AppendDateTime(s, t, sep);
  return s;
}

// "Sun, 06 Nov 1994 08:49:37 " + zone: the IMF date of HTTP and RFC 822's
// of RSS, with the weekday the caller worked out.
std::string FormatImfDate(const LocalTime& u, int weekday, std::string_view zone) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d ", kDayNames[weekday], u.day,
                kMonthNames[u.month - 1], u.year, u.hour, u.minute, u.second);
  std::string s = buf;
  s += zone;
  return s;
}

}  // namespace

std::optional<LocalTime> ParseSqlDateTime(std::string_view s, bool allow_date_only) {
  const bool date_only = allow_date_only && s.size() == 10;
  if (s.size() != 19 && !date_only) return std::nullopt;
  Cursor c(s);
  LocalTime t;
  if (!c.Digits(4, &t.year) || !c.Literal("-") || !c.Digits(2, &t.month) || !c.Literal("-") || !c.Digits(2, &t.day)) {
    return std::nullopt;
  }
  if (!date_only && !(c.Literal(" ") && ParseTimeOfDay(c, &t.hour, &t.minute, &t.second))) {
    return std::nullopt;
  }
  if (!c.AtEnd() || t.year < 1000 || !ValidLocalTime(t.year, t.month, t.day, t.hour, t.minute, t.second)) {
    return std::nullopt;
  }
  return t;
}

std::string FormatSqlDateTime(const LocalTime& t) { return FormatYmdHms(t, ' '); }

int64_t NaiveSeconds(const LocalTime& t) {
  return DaysFromCivil(t.year, t.month, t.day) * kSecondsPerDay + int64_t{t.hour} * 3600 + int64_t{t.minute} * 60 +
         t.second;
}

LocalTime FromNaiveSeconds(int64_t s) {
  // Remainder first: days * 86400 would overflow for s near INT64_MIN.
  int64_t rem = s % kSecondsPerDay;
  int64_t days = s / kSecondsPerDay;
  if (rem < 0) {
    rem += kSecondsPerDay;
    --days;
  }
  const Civil c = CivilFromDays(days);
  // XXX: years outside int wrap (well-defined since C++20); no feed date is
  // anywhere near.
  return {static_cast<int>(c.year),  c.month, c.day, static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60),
          static_cast<int>(rem % 60)};
}

UnixTime Now() { return static_cast<UnixTime>(time(nullptr)); }

// RFC 9110 5.6.7. Every field is checked: exact widths, case-sensitive
// names, a real calendar date, and a day name that matches it (the formatter
// writes the true one, so anything else did not come from a well-behaved
// cache). Second 60 is in the RFC's grammar for a leap second; POSIX time
// has no such second, so it reads as :59 (earlier, so an If-Modified-Since
// never claims more than it saw). Years before 1900 are refused, as RFC
// 5322 3.3 refuses them. No surrounding whitespace: the caller strips OWS.
std::optional<UnixTime> ParseHttpDate(std::string_view s, UnixTime at) {
  Cursor c(s);
  int wday = -1, day = 0, month = 0, year = 0, hour = 0, minute = 0, second = 0;
  if (s.size() > 3 && s[3] == ',') {  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
    if (!(c.Name(kDayNames, &wday) && c.Literal(", ") && c.Digits(2, &day) && c.Literal(" ") &&
          c.Name(kMonthNames, &month) && c.Literal(" ") && c.Digits(4, &year) && c.Literal(" ") &&
          ParseTimeOfDay(c, &hour, &minute, &second) && c.Literal(" GMT"))) {
      return std::nullopt;
    }
  } else if (s.size() > 3 && s[3] == ' ') {  // asctime: "Sun Nov  6 08:49:37 1994"
    if (!(c.Name(kDayNames, &wday) && c.Literal(" ") && c.Name(kMonthNames, &month) && c.Literal(" ") &&
          (c.Digits(2, &day) || (c.Literal(" ") && c.Digits(1, &day))) && c.Literal(" ") &&
          ParseTimeOfDay(c, &hour, &minute, &second) && c.Literal(" ") && c.Digits(4, &year))) {
      return std::nullopt;
    }
  } else {  // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"
    int yy = 0;
    if (!(c.Name(kLongDayNames, &wday) && c.Literal(", ") && c.Digits(2, &day) && c.Literal("-") &&
          c.Name(kMonthNames, &month) && c.Literal("-") && c.Digits(2, &yy) && c.Literal(" ") &&
          ParseTimeOfDay(c, &hour, &minute, &second) && c.Literal(" GMT"))) {
      return std::nullopt;
    }
    // RFC 9110: a two-digit year more than 50 years in the future means the
    // most recent past year with those digits. Take the latest century whose
    // reading is not beyond now + 50 years.
    const LocalTime now = FromNaiveSeconds(at);
    const int64_t limit = NaiveSeconds({now.year + 50, now.month, now.day, now.hour, now.minute, now.second});
    const int base = now.year / 100 * 100;
    year = base - 100 + yy;
    for (int candidate : {base + 100 + yy, base + yy}) {
      const int64_t when = NaiveSeconds({candidate, month + 1, day, hour, minute, 0});
      if (when <= limit) {
        year = candidate;
        break;
      }
    }
  }
  ++month;
  if (!c.AtEnd() || year < 1900 || second > 60) return std::nullopt;
  if (second == 60) second = 59;
  if (!ValidLocalTime(year, month, day, hour, minute, second)) return std::nullopt;
  if (WeekdayFromDays(DaysFromCivil(year, month, day)) != wday) return std::nullopt;
  return NaiveSeconds({year, month, day, hour, minute, second});
}

std::string FormatHttpDate(UnixTime t) {
  return FormatImfDate(FromNaiveSeconds(t), WeekdayFromDays(FloorDiv(t, kSecondsPerDay)), "GMT");
}

std::string FormatDate(const LocalTime& t) {
  // Every Yads row has a date: the usual case without printf, as in
  // AppendDateTime.
  if (UsualDate(t)) {
    char b[10];
    PutYmd(b, t);
    return std::string(b, sizeof b);
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", t.year, t.month, t.day);
  return buf;
}

std::string FormatDayMonthYear(const LocalTime& t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02d.%02d.%04d", t.day, t.month, t.year);
  return buf;
}

std::string FormatRfc3339Utc(UnixTime t) {
  const LocalTime l = FromNaiveSeconds(t);
  return FormatYmdHms(l, 'T') + 'Z';
}

// Every feed writes dates of every row, so the usual case (years 0 to
// 9999) is done without printf.
void AppendDateTime(std::string& out, const LocalTime& t, char sep) {
  if (!UsualDate(t) || !TwoDigits(t.hour) || !TwoDigits(t.minute) || !TwoDigits(t.second)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d%c%02d:%02d:%02d", t.year, t.month, t.day, sep, t.hour, t.minute,
                  t.second);
    out += buf;
    return;
  }
  char b[19];
  PutYmd(b, t);
  b[10] = sep;
  Put2(b + 11, t.hour);
  b[13] = ':';
  Put2(b + 14, t.minute);
  b[16] = ':';
  Put2(b + 17, t.second);
  out.append(b, sizeof b);
}

// Zones' offsets are under 26 hours (time_zone.h).
void AppendUtcOffset(std::string& out, int offset, bool colon) {
  const int abs_minutes = (offset < 0 ? -offset : offset) / 60;
  char b[6];
  b[0] = offset < 0 ? '-' : '+';
  Put2(b + 1, abs_minutes / 60 % 100);
  if (colon) b[3] = ':';
  Put2(b + (colon ? 4 : 3), abs_minutes % 60);
  out.append(b, colon ? 6 : 5);
}

std::string FormatRfc5322(const LocalTime& t, std::string_view zone) {
  return FormatImfDate(t, WeekdayFromDays(DaysFromCivil(t.year, t.month, t.day)), zone);
}

}  // namespace feed
