// What several fuzz targets share: the input read as structured values (for
// targets that build well-formed inputs from the bytes they are given), and
// checks of what the code under test wrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "xml_text.h"

namespace feed::fuzz {

// Reads the input front to back; zeros once it runs out.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  // The next `n` bytes (at most 8) as a big-endian number.
  uint64_t Take(int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | (pos_ < size_ ? data_[pos_++] : 0);
    return v;
  }
  bool Empty() const { return pos_ >= size_; }
  // What has not been taken yet.
  std::string_view Rest() const {
    return {reinterpret_cast<const char*>(data_) + (pos_ < size_ ? pos_ : size_), pos_ < size_ ? size_ - pos_ : 0};
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Every byte starts or continues a well-formed UTF-8 sequence (XML legality
// aside: a control byte is valid UTF-8).
inline bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t len;
    if (!feed::DecodeUtf8(s.substr(i), &len)) return false;
    i += len;
  }
  return true;
}

}  // namespace feed::fuzz
