// The template filters take the database's text, and the date filters also
// the engine's instants ("@SECONDS", filters.h): every filter must take any
// bytes without crashing, and an instant must render the moment it names
// (rfc3339utc writes it back in UTC, rfc3339 and rfc822 in the site's
// zone agree with it). Each filter's windows-1251 way, on the bytes as
// windows-1251, agrees with the UTF-8 filter.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "ascii.h"
#include "datetime.h"
#include "filters.h"
#include "time_zone.h"
#include "xml_text.h"
#include "zoned_time.h"
#include "cp1251_reference.h"

namespace {

using feed::testing::Cp1251ToUtf8;
using feed::testing::Utf8ToCp1251;

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

// Each filter's windows-1251 way, on the input as windows-1251 bytes, gives
// the UTF-8 filter's output for them read as UTF-8, written back in
// windows-1251; or false, appending nothing, when that holds a character
// the code page lacks. (plain may also refuse a U+FFFD that &#65533; made:
// skipped when the input holds "65533" or "fffd".)
void CheckCp1251Ways(std::string_view in) {
  Check(feed::FindCp1251Filter("url") == nullptr && feed::FindCp1251Filter("baidu_filetype") == nullptr);
  const std::string utf8_in = Cp1251ToUtf8(in);
  std::string lower(in);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const bool fffd_reference = lower.find("65533") != std::string::npos || lower.find("fffd") != std::string::npos;
  for (const char* name : {"plain", "trim", "flag", "date", "datetime", "dmy", "rfc822", "rfc3339", "rfc3339utc",
                           "noscheme", "isolocal", "ymdhm", "filesize"}) {
    feed::Cp1251FilterFn f = feed::FindCp1251Filter(name);
    Check(f != nullptr);
    std::string out = "pre";
    const bool ok = f(in, out, Kiev());
    std::string utf8_out;
    FindFilter(name)(utf8_in, utf8_out, Kiev());
    const std::optional<std::string> want = Utf8ToCp1251(utf8_out);
    if (!want) {
      Check(!ok && out == "pre");
    } else if (!ok && fffd_reference) {
      Check(out == "pre");
    } else {
      Check(ok && out == "pre" + *want);
    }
  }
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
  CheckCp1251Ways(in);
  return 0;
}
