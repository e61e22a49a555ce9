// Dates and times as the feeds need them. The board stores naive DATETIME
// values in the site's time zone; HTTP speaks UTC. A LocalTime is a naive
// calendar time (no zone); a UnixTime is seconds since the epoch, UTC.
// Nothing here knows a zone: the site's zone is a TimeZone value
// (time_zone.h), and the forms that render an instant in it are
// zoned_time.h's, above both.
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

// The system's clock: only SystemClock (clock.h) reads it; everything
// else is given a Clock or a moment.
UnixTime Now();

// HTTP dates (RFC 9110 5.6.7): parses IMF-fixdate ("Sun, 06 Nov 1994
// 08:49:37 GMT"), the obsolete RFC 850 form ("Sunday, 06-Nov-94 08:49:37
// GMT") and asctime ("Sun Nov  6 08:49:37 1994"). std::nullopt for anything
// else. `now`: the clock's moment, which places an RFC 850 two-digit year
// (at most 50 years after it). Formats IMF-fixdate.
std::optional<UnixTime> ParseHttpDate(std::string_view s, UnixTime now);
std::string FormatHttpDate(UnixTime t);

// Forms feeds write of a wall time or a UTC instant; the ones in the
// site's zone are zoned_time.h's.
std::string FormatDate(const LocalTime& t);          // "YYYY-MM-DD"
std::string FormatDayMonthYear(const LocalTime& t);  // "DD.MM.YYYY"
std::string FormatRfc3339Utc(UnixTime t);            // "2026-11-01T10:00:00Z"

// The pieces zoned_time.h puts together. "YYYY-MM-DD" + `sep` +
// "HH:MM:SS" appended to `out` (a field beyond the usual widths as printf's
// %04d or %02d writes it).
void AppendDateTime(std::string& out, const LocalTime& t, char sep);
// A UTC offset of `offset` seconds, in whole minutes, appended: "+02:00"
// with `colon`, else "+0200" (hours past 99 wrap: no zone comes near).
void AppendUtcOffset(std::string& out, int offset, bool colon);
// RFC 5322 3.3's date-time of the wall time `t`, its weekday worked out,
// then `zone`: "Sun, 01 Nov 2026 12:00:00 " + zone. REQUIRES: t.month in
// 1..12.
std::string FormatRfc5322(const LocalTime& t, std::string_view zone);

}  // namespace feed
