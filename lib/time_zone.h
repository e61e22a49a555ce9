// A time zone of the system's tz database as a value, for converting between
// the board's naive DATETIMEs and instants without touching the process's TZ
// (which SiteZone set with setenv+tzset). The rules are glibc's localtime_r
// ones for the same file, and ToUnix settles gaps and overlaps as SiteZone
// does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "datetime.h"

namespace feed {

inline constexpr char kZoneArchiveMagic[] = "feed-zones 1";

// A time zone of the system's tz database (/usr/share/zoneinfo), read once
// from its TZif file (RFC 8536, versions 1-4: the 64-bit data block and the
// POSIX TZ footer for instants after the last transition). A value: copying is
// cheap enough, conversions are const and thread-safe; nothing process-wide.
class TimeZone {
 public:
  // `zoneinfo` is a folder of TZif files (/usr/share/zoneinfo) or a zone
  // archive: one file holding many, for a release that must not spend a
  // host's inode quota on 600 files (tools/dist.sh makes it). Its first
  // line is kZoneArchiveMagic, then one line "NAME OFFSET LENGTH" per zone
  // (decimal; OFFSET counted from the first byte after the blank line that
  // ends the list), a blank line, then the TZif bytes.
  // nullopt when `iana_name` is empty, absolute, holds "..", NUL, a space or
  // a line break, or names no readable TZif file there (a POSIX rule string
  // such as "EST5" is not a zone name).
  static std::optional<TimeZone> Load(std::string_view iana_name,
                                      const std::string& zoneinfo = "/usr/share/zoneinfo");
  // Where the zones are: `tzdir` (the TZDIR environment variable, as glibc
  // reads it; the release's launcher points it at its zone archive) when
  // set and not empty, else /usr/share/zoneinfo.
  static std::string DefaultSource(const char* tzdir);
  static TimeZone Utc();
  // Copies share the parsed file. There is deliberately no move: a move
  // copies, so no TimeZone is ever left without rules.
  TimeZone(const TimeZone&) = default;
  TimeZone& operator=(const TimeZone&) = default;
  const std::string& name() const;
  int OffsetAt(UnixTime t) const;        // UTC offset in seconds at instant t
  LocalTime FromUnix(UnixTime t) const;  // wall time at instant t
  // The instant showing wall time t: a time in a spring-forward gap maps to
  // the later instant (t read with the offset from before the gap), an
  // ambiguous one (fall-back) to the earlier.
  UnixTime ToUnix(const LocalTime& t) const;
  // The UTC offset at the earliest instant that shows wall time `naive`
  // (NaiveSeconds of a LocalTime), the one ToUnix returns, from a table made
  // when the zone is loaded: one binary search. nullopt for a wall time no
  // instant shows (a gap), and where the table does not tell: outside the
  // years 1900 to 2199, and in a "right/" zone (ask ToUnix).
  std::optional<int> EarliestOffset(int64_t naive) const;

  // Totality, as SiteZone's: FromUnix never fails. A leap second of a
  // "right/" zone reads as :59 (OffsetAt excludes the leap correction, as
  // tm_gmtoff does; ToUnix includes it, which SiteZone did not). Instants
  // more than about a billion years from 1970 read as UTC (offset 0), as
  // where localtime_r gives up. ToUnix takes any field values (month 13
  // counts on, as in NaiveSeconds) and, for a time the zone shows, returns
  // the earliest instant that shows it.

 private:
  struct Rules;  // the parsed file; immutable, so copies share it
  TimeZone(std::string name, std::shared_ptr<const Rules> rules);

  std::string name_;
  std::shared_ptr<const Rules> rules_;
};

}  // namespace feed
