#include "filters.h"

#include "ascii.h"
#include "datetime.h"
#include "legacy_html.h"
#include "url.h"

namespace feed {
namespace {

// Legacy HTML to plain text (tags stripped, entities decoded once).
void Plain(std::string_view in, std::string& out, const TimeZone&) { out += LegacyHtmlToText(in); }

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
  if (auto t = AsUnix(in, zone)) out += FormatRfc3339(*t, zone);
}
void Rfc3339Utc(std::string_view in, std::string& out, const TimeZone& zone) {
  if (auto t = AsUnix(in, zone)) out += FormatRfc3339Utc(*t);
}
// "http://www.site/x" -> "www.site/x" (Yads wants the address without it).
void NoScheme(std::string_view in, std::string& out, const TimeZone&) {
  std::string_view s = TrimSpace(in);
  size_t p = s.find("://");
  if (p != std::string_view::npos && p > 0 && p < 10) s.remove_prefix(p + 3);
  out += s;
}

// A URL for a sitemap or feed: characters outside ASCII, spaces and the
// like percent-encoded as UTF-8 (url.h).
void Url(std::string_view in, std::string& out, const TimeZone&) { AppendUriEncoded(out, in); }

struct Entry {
  const char* name;
  FilterFn fn;
};
constexpr Entry kFilters[] = {
    {"plain", Plain},           {"trim", Trim},         {"flag", Flag},     {"date", Date},
    {"datetime", DateTime},     {"dmy", DayMonthYear},  {"rfc822", Rfc822}, {"rfc3339", Rfc3339},
    {"rfc3339utc", Rfc3339Utc}, {"noscheme", NoScheme},   {"url", Url},
};

}  // namespace

FilterFn FindFilter(std::string_view name) {
  for (const Entry& e : kFilters) {
    if (name == e.name) return e.fn;
  }
  return nullptr;
}

std::string FilterNames() {
  std::string s;
  for (const Entry& e : kFilters) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

}  // namespace feed
