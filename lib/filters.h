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

// The names, for error messages: "plain, trim, flag, ...".
std::string FilterNames();

// True when baidu_filetype knows `ext` (it writes 其他 for the others).
bool IsKnownBaiduFileType(std::string_view ext);

}  // namespace feed
