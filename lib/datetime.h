// Dates and times as the feeds need them. The board stores naive DATETIME
// values in the site's time zone; HTTP speaks UTC. A LocalTime is a naive
// calendar time (no zone); a UnixTime is seconds since the epoch, UTC. The
// site's zone is a TimeZone value (time_zone.h), never the process's TZ.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace feed {

class TimeZone;  // time_zone.h

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

UnixTime Now();

// HTTP dates (RFC 9110 5.6.7): parses IMF-fixdate ("Sun, 06 Nov 1994
// 08:49:37 GMT"), the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37
// GMT") and asctime ("Sun Nov  6 08:49:37 1994"). std::nullopt for anything
// else. Formats IMF-fixdate.
std::optional<UnixTime> ParseHttpDate(std::string_view s);
std::string FormatHttpDate(UnixTime t);

// Forms feeds write; all but the plain ones take the instant and render it in
// the site's zone.
std::string FormatDate(const LocalTime& t);          // "YYYY-MM-DD"
std::string FormatDayMonthYear(const LocalTime& t);  // "DD.MM.YYYY"
std::string FormatRfc822(UnixTime t, const TimeZone& zone);   // "Sun, 01 Nov 2026 12:00:00 +0200"
std::string FormatRfc3339(UnixTime t, const TimeZone& zone);  // "2026-11-01T12:00:00+02:00"
std::string FormatRfc3339Utc(UnixTime t);            // "2026-11-01T10:00:00Z"
// FormatRfc3339(zone.ToUnix(t), zone) appended to `out`: the wall time a
// board's DATETIME holds, with the site's offset. The sitemaps' dates of
// every row: where the zone shows t, t is written as it is, with no
// conversion.
void AppendRfc3339(std::string& out, const LocalTime& t, const TimeZone& zone);

}  // namespace feed
