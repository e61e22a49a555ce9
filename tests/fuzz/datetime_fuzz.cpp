// The date parsers take client text (the Yads `date` parameter,
// If-Modified-Since): they must never crash, and what they accept must be
// what the formatters write. Random bytes rarely form a date, so the input
// also steers a structured path: format a real instant in each form, damage
// it as the bytes say, and check whatever still parses.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "datetime.h"
#include "time_zone.h"

namespace {

using feed::FormatDate;
using feed::FormatHttpDate;
using feed::FormatSqlDateTime;
using feed::FromNaiveSeconds;
using feed::LocalTime;
using feed::NaiveSeconds;
using feed::ParseHttpDate;
using feed::ParseSqlDateTime;
using feed::TimeZone;
using feed::UnixTime;

const TimeZone& Kiev() {
  static const TimeZone zone = *TimeZone::Load("Europe/Kiev");
  return zone;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckSql(std::string_view s) {
  for (bool date_only : {false, true}) {
    auto t = ParseSqlDateTime(s, date_only);
    if (!t) continue;
    const bool short_form = date_only && s.size() == 10;
    Check((short_form ? FormatDate(*t) : FormatSqlDateTime(*t)) == s);
    Check(t->year >= 1000 && t->year <= 9999);
    Check(FromNaiveSeconds(NaiveSeconds(*t)) == *t);
    // Site-zone conversion: the earliest instant showing this time, or, in
    // a gap, a later wall time.
    const UnixTime u = Kiev().ToUnix(*t);
    const LocalTime shown = Kiev().FromUnix(u);
    const int64_t shift = NaiveSeconds(shown) - NaiveSeconds(*t);
    Check(shift >= 0 && shift <= 86400);
    Check(Kiev().ToUnix(shown) == u);
  }
}

// The clock the RFC 850 two-digit years are read against (Wed, 01 Jul
// 2026 09:00:00 GMT): fixed, so that a crash replays the same.
constexpr feed::UnixTime kFuzzNow = 1782896400;

void CheckHttp(std::string_view s) {
  auto t = ParseHttpDate(s, kFuzzNow);
  if (!t) return;
  const std::string imf = FormatHttpDate(*t);
  Check(ParseHttpDate(imf, kFuzzNow) == t);
  if (s.size() > 3 && s[3] == ',') {
    // IMF-fixdate formats back exactly, but for a leap second, read as :59.
    std::string expect(s);
    if (expect.size() == 29 && expect.compare(23, 2, "60") == 0) expect.replace(23, 2, "59");
    Check(imf == expect);
  }
}

void Check(std::string_view s) {
  CheckSql(s);
  CheckHttp(s);
}

using feed::fuzz::Bytes;

std::string Rfc850(UnixTime t) {
  static const char* const kLong[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
  const std::string imf = FormatHttpDate(t);
  std::string day_name;
  for (const char* name : kLong) {
    if (imf.compare(0, 3, name, 3) == 0) day_name = name;
  }
  return day_name + ", " + imf.substr(5, 2) + "-" + imf.substr(8, 3) + "-" + imf.substr(14, 2) + " " +
         imf.substr(17, 8) + " GMT";
}

std::string Asctime(UnixTime t) {
  const std::string imf = FormatHttpDate(t);
  std::string day = imf.substr(5, 2);
  if (day[0] == '0') day[0] = ' ';
  return imf.substr(0, 3) + " " + imf.substr(8, 3) + " " + day + " " + imf.substr(17, 8) + " " + imf.substr(12, 4);
}

void Structured(const uint8_t* data, size_t size) {
  Bytes b(data, size);
  // An instant in 1000-9999; mostly near now, where the gaps and the RFC 850
  // window are.
  constexpr int64_t kLo = -30610224000, kHi = 253402300800;
  const uint64_t raw = b.Take(8);
  const UnixTime t = (raw & 1) ? kLo + static_cast<int64_t>((raw >> 1) % (kHi - kLo))
                               : 1500000000 + static_cast<int64_t>((raw >> 1) % 1000000000);
  std::string s;
  switch (b.Take(1) % 5) {
    case 0:
      s = FormatSqlDateTime(FromNaiveSeconds(t));
      break;
    case 1:
      s = FormatDate(FromNaiveSeconds(t));
      break;
    case 2:
      s = FormatHttpDate(t);
      break;
    case 3:
      s = Rfc850(t);
      break;
    default:
      s = Asctime(t);
      break;
  }
  Check(s);
  // Damage: each step replaces, inserts or deletes one byte.
  while (!b.Empty()) {
    const size_t pos = b.Take(1) % (s.size() + 1);
    const uint64_t op = b.Take(1);
    const char c = static_cast<char>(b.Take(1));
    if (op % 3 == 0 && pos < s.size()) {
      s[pos] = c;
    } else if (op % 3 == 1) {
      s.insert(pos, 1, c);
    } else if (pos < s.size()) {
      s.erase(pos, 1);
    }
    Check(s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (!TimeZone::Load("Europe/Kiev")) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Check(std::string_view(reinterpret_cast<const char*>(data), size));
  Structured(data, size);
  return 0;
}
