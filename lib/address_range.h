// Addresses and CIDR ranges, as [status] allow lists them: parsed once at
// load (config.h refuses a list that does not parse) and matched against a
// request's REMOTE_ADDR by the status page's rule (status_access.h). Kept
// apart from both so that neither includes the other.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace feed {

// An IPv4 or IPv6 address with a prefix length: "10.0.0.0/8", "::1",
// "192.168.1.7" (/32). IPv4 is held as IPv4-mapped IPv6 (::ffff:a.b.c.d),
// so that a client seen as ::ffff:127.0.0.1 matches 127.0.0.1.
struct AddressRange {
  std::array<uint8_t, 16> bytes{};
  int bits = 128;  // the prefix length, over the 16 bytes
  // nullopt unless `text` is an address that inet_pton reads, optionally
  // followed by /N (0-32 for IPv4, 0-128 for IPv6) with no spaces.
  static std::optional<AddressRange> Parse(std::string_view text);
  // True when `address` (a plain address, no prefix) lies in the range; a
  // malformed `address` lies in none.
  bool Contains(std::string_view address) const;
};

}  // namespace feed
