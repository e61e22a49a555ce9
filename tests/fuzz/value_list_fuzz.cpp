// SplitList (feed:split) on arbitrary values and separator sets: never
// crashes, and what it returns keeps its promises: pieces in order, each a
// non-empty view into the value without a separator inside and without a
// space at either end; IsListSeparatorSet never accepts a space, a control
// character or text that is not UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "value_list.h"
#include "xml_text.h"

namespace {

bool HasCodePoint(std::string_view s, char32_t cp) {
  for (size_t i = 0; i < s.size();) {
    size_t len;
    auto c = feed::DecodeUtf8(s.substr(i), &len);
    if (c && *c == cp) return true;
    i += len;
  }
  return false;
}

bool IsSpace(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == 0x0B || cp == 0x0C || cp == 0xA0 ||
         cp == 0x3000;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feed::fuzz::Bytes in(data, size);
  const size_t seps_len = static_cast<size_t>(in.Take(1) % 9);
  const std::string_view rest = in.Rest();
  const std::string_view seps_given = rest.substr(0, std::min(seps_len, rest.size()));
  const std::string_view value = rest.substr(seps_given.size());
  if (feed::IsListSeparatorSet(seps_given)) {
    if (!feed::fuzz::IsValidUtf8(seps_given)) std::abort();
    for (char32_t sp : {U' ', U'\t', U'\n', U'\u3000'}) {
      if (HasCodePoint(seps_given, sp)) std::abort();
    }
  }
  for (std::string_view seps : {seps_given, feed::kDefaultListSeparators}) {
    if (!feed::IsListSeparatorSet(seps)) continue;
    const char* prev_end = value.data();
    for (std::string_view p : feed::SplitList(value, seps)) {
      if (p.empty()) std::abort();
      if (p.data() < prev_end || p.data() + p.size() > value.data() + value.size()) std::abort();
      prev_end = p.data() + p.size();
      size_t len;
      auto first = feed::DecodeUtf8(p, &len);
      if (first && IsSpace(*first)) std::abort();
      // No separator inside a piece (a separator made of valid UTF-8 is
      // found only at a code point boundary of valid text).
      for (size_t i = 0; i < seps.size();) {
        auto cp = feed::DecodeUtf8(seps.substr(i), &len);
        if (cp && feed::fuzz::IsValidUtf8(p) && HasCodePoint(p, *cp)) std::abort();
        i += len;
      }
    }
  }
  return 0;
}
