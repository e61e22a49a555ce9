#include "filters.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "ascii.h"
#include "datetime.h"
#include "legacy_html.h"
#include "url.h"
#include "zoned_time.h"

namespace feed {
namespace {

// Legacy HTML to plain text (tags stripped, entities decoded once).
void Plain(std::string_view in, std::string& out, const TimeZone&) { AppendLegacyHtmlToText(out, in); }

void Trim(std::string_view in, std::string& out, const TimeZone&) { out += TrimSpace(in); }

// "1" when the field has a value (a phone, a photo), else "0". A value of
// "0" is no value, so that SQL may compute the flag itself
// (TRIM(phone) <> '' gives 0 or 1) and send one byte instead of the string.
void Flag(std::string_view in, std::string& out, const TimeZone&) {
  std::string_view v = TrimSpace(in);
  out += v.empty() || v == "0" ? '0' : '1';
}

// An instant the engine computed itself (an item's modified date, its
// expiration) reaches the template as "@SECONDS" (Unix seconds), so that it
// never passes through the site's wall time: a moment in the hour repeated
// when summer time ends would otherwise come back an hour early.
std::optional<UnixTime> AsInstant(std::string_view in) {
  std::string_view v = TrimSpace(in);
  if (v.size() < 2 || v.size() > 13 || v[0] != '@') return std::nullopt;
  UnixTime t = 0;
  for (char c : v.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    t = t * 10 + (c - '0');
  }
  // Years 1000 to 9999, as a DATETIME holds.
  if (t > 253402300799) return std::nullopt;
  return t;
}

// A value in the site's wall time: a DATETIME, a DATE, or an instant.
std::optional<LocalTime> AsTime(std::string_view in, const TimeZone& zone) {
  if (auto t = AsInstant(in)) return zone.FromUnix(*t);
  return ParseSqlDateTime(TrimSpace(in), /*allow_date_only=*/true);
}

// The instant a value stands for: a DATETIME in the site's zone, or "@SECONDS".
std::optional<UnixTime> AsUnix(std::string_view in, const TimeZone& zone) {
  if (auto t = AsInstant(in)) return t;
  if (auto t = ParseSqlDateTime(TrimSpace(in), /*allow_date_only=*/true)) return zone.ToUnix(*t);
  return std::nullopt;
}

}  // namespace

bool IsDate(std::string_view v) { return AsInstant(v) || ParseSqlDateTime(TrimSpace(v), /*allow_date_only=*/true); }

namespace {

// A value that is not a date renders empty: a template marks such fields
// required where the format needs them.
void Date(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsTime(in, zone)) out += FormatDate(*t);
}
void DateTime(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsTime(in, zone)) out += FormatSqlDateTime(*t);
}
void DayMonthYear(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsTime(in, zone)) out += FormatDayMonthYear(*t);
}
void Rfc822(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsUnix(in, zone)) out += FormatRfc822(*t, zone);
}
void Rfc3339(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto u = AsInstant(in)) {
    out += FormatRfc3339(*u, zone);
  } else if (auto t = ParseSqlDateTime(TrimSpace(in), /*allow_date_only=*/true)) {
    AppendRfc3339(out, *t, zone);  // the board's wall time, most often written as it is
  }
}
void Rfc3339Utc(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsUnix(in, zone)) out += FormatRfc3339Utc(*t);
}
// "http://www.site/x" -> "www.site/x" (Yads wants the address without it).
// A scheme is a letter, then letters, digits, '+', '-' or '.' (RFC 3986),
// at most 9 of them.
void NoScheme(std::string_view in, std::string& out, const TimeZone&) {
  std::string_view s = TrimSpace(in);
  size_t p = s.find("://");
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto scheme_char = [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'; };
  if (p != std::string_view::npos && p > 0 && p < 10 && letter(s[0]) &&
      std::all_of(s.begin(), s.begin() + p, scheme_char)) {
    s.remove_prefix(p + 3);
  }
  out += s;
}

// A URL for a sitemap or feed: characters outside ASCII, spaces and the
// like percent-encoded as UTF-8 (url.h).
void Url(std::string_view in, std::string& out, const TimeZone&) { AppendUriEncoded(out, in); }

// "YYYY-MM-DDThh:mm:ss", site time without an offset (Baidu's lastmod).
void IsoLocal(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsTime(in, zone)) {
    std::string s = FormatSqlDateTime(*t);
    s[10] = 'T';
    out += s;
  }
}

// "2013-7-9 19:48": month and day without a leading zero, hour and minute
// with (Baidu's datePublished and commentTime, as the seed writes them).
void YmdHm(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsTime(in, zone)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04d-%d-%d %02d:%02d", t->year, t->month, t->day, t->hour, t->minute);
    out += buf;
  }
}

// A byte count as a size of at least three characters, 1024-based:
// 10 to 1023 bytes as "512B"; from 1 KB on the largest unit of KB, MB, GB
// that gives at least 1, with one decimal below 10 ("3.4MB") and whole
// above ("112KB"), rounded half up (1023.5 KB is "1.0MB"); under 10 bytes
// in hundredths of a KB, rounded up ("0.01KB": "9B" is two characters short).
// A value that is not a whole number of bytes renders empty.
void FileSize(std::string_view in, std::string& out, const TimeZone&) {
  std::string_view v = TrimSpace(in);
  if (v.empty() || v.size() > 17 || v.find_first_not_of("0123456789") != std::string_view::npos) return;
  const uint64_t n = std::stoull(std::string(v));
  char buf[48];
  if (n < 10) {
    std::snprintf(buf, sizeof buf, "0.%02dKB", static_cast<int>((n * 100 + 1023) / 1024));
    out += buf;
    return;
  }
  if (n < 1024) {
    out += std::to_string(n) + "B";
    return;
  }
  static const char* const kUnits[] = {"KB", "MB", "GB"};
  int unit = 0;
  uint64_t base = 1024;
  while (unit < 2 && n >= base * 1024) {
    base *= 1024;
    ++unit;
  }
  // Tenths, rounded half up, in integers (no binary fractions to round).
  uint64_t tenths = (n * 10 + base / 2) / base;
  if (tenths >= 100) {
    uint64_t whole = (n + base / 2) / base;
    if (whole >= 1024 && unit < 2) {
      ++unit;
      base *= 1024;
      tenths = (n * 10 + base / 2) / base;  // 1.0 of the next unit
      std::snprintf(buf, sizeof buf, "%llu.%llu%s", static_cast<unsigned long long>(tenths / 10),
                    static_cast<unsigned long long>(tenths % 10), kUnits[unit]);
    } else {
      std::snprintf(buf, sizeof buf, "%llu%s", static_cast<unsigned long long>(whole), kUnits[unit]);
    }
  } else {
    std::snprintf(buf, sizeof buf, "%llu.%llu%s", static_cast<unsigned long long>(tenths / 10),
                  static_cast<unsigned long long>(tenths % 10), kUnits[unit]);
  }
  out += buf;
}

// A file's extension as one of the file types Baidu's document sitemap
// knows (seed 002): the upper-case extension where its list has it,
// otherwise the family (images, HTML/CHM, archives, Flash), else 其他
// ("other"). Case, spaces and a leading dot do not matter.
struct BaiduKind {
  const char* ext;
  const char* type;
};
constexpr BaiduKind kBaiduKinds[] = {
    {"pdf", "PDF"},        {"ppt", "PPT"},        {"pptx", "PPTX"},      {"doc", "DOC"},        {"docx", "DOCX"},
    {"xls", "XLS"},        {"xlsx", "XLSX"},      {"txt", "TXT"},        {"rtf", "RTF"},        {"exe", "EXE"},
    {"zip", "ZIP"},        {"rar", "RAR"},        {"jpg", "图片"},       {"jpeg", "图片"},      {"png", "图片"},
    {"gif", "图片"},       {"bmp", "图片"},       {"webp", "图片"},      {"tif", "图片"},       {"tiff", "图片"},
    {"svg", "图片"},       {"html", "HTML/CHM"},  {"htm", "HTML/CHM"},   {"chm", "HTML/CHM"},   {"mht", "HTML/CHM"},
    {"mhtml", "HTML/CHM"}, {"7z", "压缩文件"},    {"gz", "压缩文件"},    {"tgz", "压缩文件"},   {"tar", "压缩文件"},
    {"bz2", "压缩文件"},   {"xz", "压缩文件"},    {"cab", "压缩文件"},   {"iso", "压缩文件"},   {"swf", "Flash"},
};

// The seed's type of an extension (case, spaces and a leading dot aside),
// or nullptr.
const char* BaiduTypeOf(std::string_view in) {
  std::string_view v = TrimSpace(in);
  if (!v.empty() && v[0] == '.') v.remove_prefix(1);
  std::string ext;
  for (char c : v) ext += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const BaiduKind& k : kBaiduKinds) {
    if (ext == k.ext) return k.type;
  }
  return nullptr;
}

// A file's extension as one of the file types Baidu's document sitemap
// knows (seed 002): the upper-case extension where its list has it,
// otherwise the family (images, HTML/CHM, archives, Flash), else 其他
// ("other").
void BaiduFileType(std::string_view in, std::string& out, const TimeZone&) {
  const char* t = BaiduTypeOf(in);
  out += t ? t : "其他";
}

// The windows-1251 ways (filters.h).
bool PlainCp1251(std::string_view in, std::string& out, const TimeZone&) {
  return AppendLegacyHtmlToTextCp1251(out, in);
}

// A filter that only reads ASCII (spaces, digits, "://") and writes ASCII
// or a piece of its input works on windows-1251 bytes as it does on UTF-8:
// windows-1251 has ASCII where UTF-8 has it, and no byte of a windows-1251
// character is ASCII.
template <FilterFn kFn>
bool SameOnBytes(std::string_view in, std::string& out, const TimeZone& zone) {
  kFn(in, out, zone);
  return true;
}

struct Entry {
  const char* name;
  FilterFn fn;
  Cp1251FilterFn cp1251;  // nullptr: values through it take the UTF-8 way
};
constexpr Entry kFilters[] = {
    {"plain", Plain, PlainCp1251},
    {"trim", Trim, SameOnBytes<Trim>},
    {"flag", Flag, SameOnBytes<Flag>},
    {"date", Date, SameOnBytes<Date>},
    {"datetime", DateTime, SameOnBytes<DateTime>},
    {"dmy", DayMonthYear, SameOnBytes<DayMonthYear>},
    {"rfc822", Rfc822, SameOnBytes<Rfc822>},
    {"rfc3339", Rfc3339, SameOnBytes<Rfc3339>},
    {"rfc3339utc", Rfc3339Utc, SameOnBytes<Rfc3339Utc>},
    {"noscheme", NoScheme, SameOnBytes<NoScheme>},
    {"url", Url, nullptr},  // percent-encodes the UTF-8 of a character
    {"isolocal", IsoLocal, SameOnBytes<IsoLocal>},
    {"ymdhm", YmdHm, SameOnBytes<YmdHm>},
    {"filesize", FileSize, SameOnBytes<FileSize>},
    {"baidu_filetype", BaiduFileType, nullptr},  // writes Chinese
};

const Entry* FindEntry(std::string_view name) {
  for (const Entry& e : kFilters) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace

FilterFn FindFilter(std::string_view name) {
  const Entry* e = FindEntry(name);
  return e ? e->fn : nullptr;
}

Cp1251FilterFn FindCp1251Filter(std::string_view name) {
  const Entry* e = FindEntry(name);
  return e ? e->cp1251 : nullptr;
}

bool IsKnownBaiduFileType(std::string_view ext) { return BaiduTypeOf(ext) != nullptr; }

std::string FilterNames() {
  std::string s;
  for (const Entry& e : kFilters) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

}  // namespace feed
