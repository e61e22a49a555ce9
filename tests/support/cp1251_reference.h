// windows-1251 to UTF-8 and back one character at a time, by xml_text's
// FromCp1251 and ToCp1251: the reference the tests of the windows-1251
// ways (AppendXmlCp1251, LegacyHtmlToTextCp1251, the filters') hold them
// to, the UTF-8 ways being the statement of the rules.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "xml_text.h"

namespace feed::testing {

// Every byte as its code point (0x98, undefined, as U+FFFD).
inline std::string Cp1251ToUtf8(std::string_view cp1251) {
  std::string out;
  for (unsigned char b : cp1251) AppendUtf8(out, FromCp1251(b));
  return out;
}

// `utf8` in windows-1251; nullopt when it is not valid UTF-8 or holds a
// character the code page lacks. U+FFFD becomes 0x98 (which reads back as
// it) when `fffd_as_98`.
inline std::optional<std::string> Utf8ToCp1251(std::string_view utf8, bool fffd_as_98 = true) {
  std::string out;
  for (size_t i = 0; i < utf8.size();) {
    size_t len;
    const std::optional<char32_t> cp = DecodeUtf8(utf8.substr(i), &len);
    i += len;
    if (!cp) return std::nullopt;
    if (fffd_as_98 && *cp == 0xFFFD) {
      out += '\x98';
      continue;
    }
    const std::optional<unsigned char> b = ToCp1251(*cp);
    if (!b) return std::nullopt;
    out += static_cast<char>(*b);
  }
  return out;
}

}  // namespace feed::testing
