#include "value_list.h"

#include "xml_text.h"

namespace feed {
namespace {

bool IsListSpace(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == 0x0B || cp == 0x0C || cp == 0xA0 ||
         cp == 0x3000;
}

// The code point at `s[i]` and its length; an invalid byte is one unit that
// matches nothing.
char32_t At(std::string_view s, size_t i, size_t* len) {
  if (auto cp = DecodeUtf8(s.substr(i), len)) return *cp;
  *len = 1;
  return 0xFFFFFFFF;
}

// The separators' code points, decoded once for a whole value (at most
// 16 when IsListSeparatorSet holds; more are cut off).
struct Separators {
  explicit Separators(std::string_view seps) {
    for (size_t i = 0; i < seps.size() && n < 16;) {
      size_t len;
      cps[n++] = At(seps, i, &len);
      i += len;
    }
  }
  bool Contains(char32_t cp) const {
    for (size_t k = 0; k < n; ++k) {
      if (cps[k] == cp) return true;
    }
    return false;
  }
  char32_t cps[16];
  size_t n = 0;
};

std::string_view TrimList(std::string_view s) {
  // From the front, code point by code point; from the back, by finding
  // the last code point that is not a space.
  size_t b = 0, len;
  while (b < s.size() && IsListSpace(At(s, b, &len))) b += len;
  size_t e = b, i = b;
  while (i < s.size()) {
    const char32_t cp = At(s, i, &len);
    i += len;
    if (!IsListSpace(cp)) e = i;
  }
  return s.substr(b, e - b);
}

}  // namespace

bool IsListSeparatorSet(std::string_view seps) {
  if (seps.empty()) return false;
  size_t n = 0;
  for (size_t i = 0; i < seps.size(); ++n) {
    size_t len;
    auto cp = DecodeUtf8(seps.substr(i), &len);
    if (!cp || *cp < 0x20 || *cp == 0x7F || IsListSpace(*cp)) return false;
    i += len;
  }
  return n <= 16;
}

std::vector<std::string_view> SplitList(std::string_view value, std::string_view seps) {
  std::vector<std::string_view> out;
  const Separators separators(seps);
  size_t start = 0, i = 0;
  auto piece = [&](size_t end) {
    std::string_view p = TrimList(value.substr(start, end - start));
    if (!p.empty()) out.push_back(p);
  };
  while (i < value.size()) {
    size_t len;
    const char32_t cp = At(value, i, &len);
    if (cp != 0xFFFFFFFF && separators.Contains(cp)) {
      piece(i);
      start = i + len;
    }
    i += len;
  }
  piece(value.size());
  return out;
}

}  // namespace feed
