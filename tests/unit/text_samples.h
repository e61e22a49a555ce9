// Sample text shared by the unit tests of the text fast paths.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace feed::testing {

// Turns invisible bytes into \xNN so that a failing case reads in the log.
inline std::string Visible(std::string_view s) {
  std::string v;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F) {
      v.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02X", c);
      v += buf;
    }
  }
  return v;
}

// Whole characters, `bytes` long: Cyrillic letters (two bytes each) with
// spaces and ASCII at positions that depend on `variant`, so that the
// letters straddle 16-byte blocks both ways.
inline std::string PlainText(size_t bytes, int variant) {
  static const std::vector<std::string> kLetters = {"П", "р", "о", "д", "а", "м", "Ж", "я",
                                                    "Ё", "ё", "Щ", "ъ", "А", "п", "Р", "ю"};
  std::string s;
  size_t k = static_cast<size_t>(variant);
  while (s.size() + 2 <= bytes) {
    if (variant > 0 && k % (2 + variant) == 0 && s.size() + 1 < bytes) {
      s += variant % 2 == 0 ? " " : "x";
    } else {
      s += kLetters[k % kLetters.size()];
    }
    ++k;
  }
  if (s.size() < bytes) s += "z";
  return s;
}

}  // namespace feed::testing
