// The back-off the 16-byte SSE2 fast paths share (xml_text.cpp's scans and
// conversion, legacy_html.cpp's copy). A fast path tried on text it cannot
// help (an escape, markup or a letter it leaves to the byte-by-byte path
// every few bytes) costs its set-up and returns where it started; after two
// such tries in a row it is not tried again until 16 bytes further on.
#pragma once

#include <cstddef>

namespace feed {

class ScanBackOff {
 public:
  // `scan(i)` (the fast path from i: where the bytes it handles end, i
  // when it handles none) when it is worth trying at i; else i.
  template <typename Scan>
  inline size_t Skip(size_t i, Scan&& scan) {
    if (i < from_) return i;
    const size_t j = scan(i);
    if (j > i) {
      misses_ = 0;
    } else if (++misses_ == 2) {
      misses_ = 0;
      from_ = i + 16;
    }
    return j;
  }

 private:
  size_t from_ = 0;  // no try before this
  int misses_ = 0;   // tries in a row that advanced nothing
};

}  // namespace feed
