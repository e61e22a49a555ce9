// The forms feeds write of a time in the site's zone: RFC 822 (RSS) and
// RFC 3339 (sitemaps, Jooble) with the zone's offset. It stands above
// both datetime.h (the zone-free pieces) and time_zone.h (the zone's
// rules), so that neither of those calls the other.
#pragma once

#include <string>

#include "datetime.h"
#include "time_zone.h"

namespace feed {

// The instant `t` as the zone shows it, with the zone's offset then. The
// offset is cut to whole minutes (neither form can say seconds; only
// pre-1900 LMT offsets have them) and the wall time is read with that same
// offset, so the text always names exactly the instant `t`.
std::string FormatRfc822(UnixTime t, const TimeZone& zone);   // "Sun, 01 Nov 2026 12:00:00 +0200"
std::string FormatRfc3339(UnixTime t, const TimeZone& zone);  // "2026-11-01T12:00:00+02:00"

// FormatRfc3339(zone.ToUnix(t), zone) appended to `out`: the wall time a
// board's DATETIME holds, with the site's offset. The sitemaps' dates of
// every row: where the zone shows t, t is written as it is, with no
// conversion.
void AppendRfc3339(std::string& out, const LocalTime& t, const TimeZone& zone);

}  // namespace feed
