#include "address_range.h"

#include <arpa/inet.h>

#include <cstring>
#include <string>

namespace feed {
namespace {

// `text` as 16 bytes (IPv4 mapped), and whether it was IPv4.
std::optional<std::pair<std::array<uint8_t, 16>, bool>> ParseAddress(std::string_view text) {
  if (text.empty() || text.size() > 45) return std::nullopt;
  const std::string s(text);  // inet_pton wants a terminated string
  std::array<uint8_t, 16> b{};
  in_addr v4;
  if (inet_pton(AF_INET, s.c_str(), &v4) == 1) {
    b[10] = b[11] = 0xff;
    std::memcpy(b.data() + 12, &v4, 4);
    return std::pair(b, true);
  }
  in6_addr v6;
  if (inet_pton(AF_INET6, s.c_str(), &v6) == 1) {
    std::memcpy(b.data(), &v6, 16);
    return std::pair(b, false);
  }
  return std::nullopt;
}

}  // namespace

std::optional<AddressRange> AddressRange::Parse(std::string_view text) {
  const size_t slash = text.find('/');
  auto a = ParseAddress(text.substr(0, slash));
  if (!a) return std::nullopt;
  AddressRange r;
  r.bytes = a->first;
  const int max = a->second ? 32 : 128;
  int bits = max;
  if (slash != std::string_view::npos) {
    std::string_view n = text.substr(slash + 1);
    if (n.empty() || n.size() > 3 || n.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    bits = 0;
    for (char c : n) bits = bits * 10 + (c - '0');
    if (bits > max) return std::nullopt;
  }
  r.bits = a->second ? bits + 96 : bits;
  return r;
}

bool AddressRange::Contains(std::string_view address) const {
  auto a = ParseAddress(address);
  if (!a) return false;
  for (int i = 0; i < 16; ++i) {
    const int left = bits - i * 8;
    if (left <= 0) break;
    const uint8_t mask = left >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - left));
    if ((a->first[i] & mask) != (bytes[i] & mask)) return false;
  }
  return true;
}

}  // namespace feed
