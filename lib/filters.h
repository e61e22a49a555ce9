// The filters a template applies to a value: {field|plain}, {added|date}.
// Each takes UTF-8 text and appends UTF-8 text; escaping for XML happens
// after the last filter, once. Adding a filter is one entry in the table in
// filters.cpp.
#pragma once

#include <string>
#include <string_view>

#include "time_zone.h"

namespace feed {

// `zone` is the site's: the zone DATETIME values are in. The date filters
// (date, datetime, dmy, rfc822, rfc3339, rfc3339utc) read a DATETIME or DATE
// in that zone, or "@SECONDS", an instant in Unix seconds (the moments the
// engine computes itself, such as an MSN item's modified date); anything
// else renders empty.
using FilterFn = void (*)(std::string_view in, std::string& out, const TimeZone& zone);

// The filter named `name`, or nullptr.
FilterFn FindFilter(std::string_view name);

// A filter's way with windows-1251 text (a cp1251 connection's bytes going
// to a windows-1251 feed), giving windows-1251 text: byte for byte what the
// UTF-8 filter gives for the text read as UTF-8, written back in
// windows-1251. False, having appended nothing, when the result would hold
// a character the code page lacks (`plain` meeting &#128512;): the caller
// then takes the UTF-8 way.
using Cp1251FilterFn = bool (*)(std::string_view in, std::string& out, const TimeZone& zone);

// The windows-1251 way of the filter named `name`, or nullptr for a filter
// that has none (`url` percent-encodes UTF-8, `baidu_filetype` writes
// Chinese): values through it always take the UTF-8 way.
Cp1251FilterFn FindCp1251Filter(std::string_view name);

// The names, for error messages: "plain, trim, flag, ...".
std::string FilterNames();

// True when the date filters read `v` as a date (a DATETIME or DATE of the
// years 1000 to 9999, or "@SECONDS"): not a zero date ("0000-00-00"),
// NULL or anything else, which they render empty.
bool IsDate(std::string_view v);

// True when baidu_filetype knows `ext` (it writes 其他 for the others).
bool IsKnownBaiduFileType(std::string_view ext);

}  // namespace feed
