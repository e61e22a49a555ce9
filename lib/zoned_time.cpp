#include "zoned_time.h"

#include <optional>

namespace feed {
namespace {

struct ZonedTime {
  LocalTime local;
  int offset;  // seconds, a whole number of minutes
};

ZonedTime InZone(UnixTime t, const TimeZone& zone) {
  const int offset = zone.OffsetAt(t) / 60 * 60;
  return {FromNaiveSeconds(t + offset), offset};
}

}  // namespace

std::string FormatRfc822(UnixTime t, const TimeZone& zone) {
  const ZonedTime z = InZone(t, zone);
  std::string offset;
  AppendUtcOffset(offset, z.offset, false);
  return FormatRfc5322(z.local, offset);
}

std::string FormatRfc3339(UnixTime t, const TimeZone& zone) {
  const ZonedTime z = InZone(t, zone);
  std::string s;
  AppendDateTime(s, z.local, 'T');
  AppendUtcOffset(s, z.offset, true);
  return s;
}

void AppendRfc3339(std::string& out, const LocalTime& t, const TimeZone& zone) {
  // Shown, with an offset of whole minutes: ToUnix gives NaiveSeconds(t) -
  // offset, and InZone reads t back from it.
  if (std::optional<int> offset = zone.EarliestOffset(NaiveSeconds(t)); offset && *offset % 60 == 0) {
    AppendDateTime(out, t, 'T');
    AppendUtcOffset(out, *offset, true);
    return;
  }
  out += FormatRfc3339(zone.ToUnix(t), zone);
}

}  // namespace feed
