// Small ASCII text operations the modules share: trimming the whitespace a
// config line, a header value or a database field may carry, and
// case-insensitive comparison of ASCII words (content codings, robot names).
#pragma once

#include <algorithm>
#include <cctype>
#include <string_view>

namespace feed {

inline bool IsAsciiSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// `s` without leading and trailing spaces, tabs, CRs and LFs.
inline std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

inline bool SameLetterNoCase(char x, char y) {
  return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
}

inline bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), SameLetterNoCase);
}

// True when `needle` occurs in `hay`, ignoring ASCII case ("JoobleBot" in a
// User-Agent).
inline bool ContainsNoCase(std::string_view hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), SameLetterNoCase) != hay.end();
}

}  // namespace feed
