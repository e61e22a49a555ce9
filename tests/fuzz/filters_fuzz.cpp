// The template filters take the database's text, and the date filters also
// the engine's instants ("@SECONDS", filters.h): every filter must take any
// bytes without crashing, and an instant must render the moment it names
// (rfc3339utc writes it back in UTC, rfc3339 and rfc822 in the site's
// zone agree with it).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ascii.h"
#include "datetime.h"
#include "filters.h"
#include "time_zone.h"

namespace {

using feed::FilterFn;
using feed::FindFilter;
using feed::TimeZone;

const TimeZone& Kiev() {
  static const TimeZone zone = *TimeZone::Load("Europe/Kiev");
  return zone;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

std::string Apply(const char* name, std::string_view in) {
  FilterFn f = FindFilter(name);
  Check(f != nullptr);
  std::string out;
  f(in, out, Kiev());
  return out;
}

// A plain "@digits" within the years a DATETIME holds.
bool IsInstant(std::string_view s, int64_t* t) {
  if (s.size() < 2 || s.size() > 13 || s[0] != '@') return false;
  *t = 0;
  for (char c : s.substr(1)) {
    if (c < '0' || c > '9') return false;
    *t = *t * 10 + (c - '0');
  }
  return *t <= 253402300799;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!TimeZone::Load("Europe/Kiev")) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  for (const char* name :
       {"plain", "trim", "flag", "date", "datetime", "dmy", "rfc822", "rfc3339", "rfc3339utc", "noscheme", "url"}) {
    Apply(name, in);
  }
  int64_t t;
  const std::string_view trimmed = feed::TrimSpace(in);
  if (IsInstant(trimmed, &t)) {
    Check(Apply("rfc3339utc", in) == feed::FormatRfc3339Utc(t));
    Check(Apply("rfc3339", in) == feed::FormatRfc3339(t, Kiev()));
    Check(Apply("rfc822", in) == feed::FormatRfc822(t, Kiev()));
  } else if (!trimmed.empty() && trimmed[0] == '@') {
    Check(Apply("rfc3339utc", in).empty());
  }
  return 0;
}
