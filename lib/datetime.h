// Dates and times as the feeds need them. The board stores naive DATETIME
// values in the site's time zone; HTTP speaks UTC. A LocalTime is a naive
// calendar time (no zone); a UnixTime is seconds since the epoch, UTC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace feed {

using UnixTime = int64_t;

struct LocalTime {
  int year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  friend bool operator==(const LocalTime&, const LocalTime&) = default;
};

// Parses exactly "YYYY-MM-DD HH:MM:SS" (the Yads `date` parameter and MySQL's
// DATETIME text form). Rejects anything else: other lengths, other
// separators, signs, spaces around, month 13, February 30, hour 24, leap
// seconds, years before 1000. Also accepts "YYYY-MM-DD" alone when
// `allow_date_only` is true (meaning 00:00:00).
std::optional<LocalTime> ParseSqlDateTime(std::string_view s, bool allow_date_only = false);

// "YYYY-MM-DD HH:MM:SS".
std::string FormatSqlDateTime(const LocalTime& t);

// Seconds of `t` counted as if it were UTC (a zone-free ordinal: for sorting
// and compact encoding, not for conversion), and back.
int64_t NaiveSeconds(const LocalTime& t);
LocalTime FromNaiveSeconds(int64_t s);

// The site's time zone, by IANA name ("Europe/Kiev"). Conversions use the
// system tz database (/usr/share/zoneinfo) via the TZ environment variable;
// the process serves one site, so the zone is process-wide.
class SiteZone {
 public:
  // Sets the process time zone. Returns false (and changes nothing) when the
  // tz database has no such zone.
  static bool Use(const std::string& iana_name);
  static LocalTime FromUnix(UnixTime t);
  // A local time that does not exist (spring-forward gap) maps to the later
  // instant; an ambiguous one (fall-back) to the earlier.
  static UnixTime ToUnix(const LocalTime& t);
  // The UTC offset in seconds at instant `t` (Kiev in summer: +10800).
  static int OffsetAt(UnixTime t);
};

UnixTime Now();

// HTTP dates (RFC 9110 5.6.7): parses IMF-fixdate ("Sun, 06 Nov 1994
// 08:49:37 GMT"), the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37
// GMT") and asctime ("Sun Nov  6 08:49:37 1994"). std::nullopt for anything
// else. Formats IMF-fixdate.
std::optional<UnixTime> ParseHttpDate(std::string_view s);
std::string FormatHttpDate(UnixTime t);

// Forms feeds write; all but the plain ones take the instant and render it in
// the site's zone (SiteZone).
std::string FormatDate(const LocalTime& t);          // "YYYY-MM-DD"
std::string FormatDayMonthYear(const LocalTime& t);  // "DD.MM.YYYY"
std::string FormatRfc822(UnixTime t);                // "Sun, 01 Nov 2026 12:00:00 +0200"
std::string FormatRfc3339(UnixTime t);               // "2026-11-01T12:00:00+02:00"
std::string FormatRfc3339Utc(UnixTime t);            // "2026-11-01T10:00:00Z"

}  // namespace feed
