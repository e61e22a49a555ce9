// Who may see the status page (status.h): the rule, kept apart from the
// page so that it is tested on its own. A request passes when it holds
// every guard the config sets:
//   - the token (when [status] token is set), presented as
//     "Authorization: Bearer TOKEN" (monitoring) or as the query parameter
//     token=TOKEN (a browser), compared in constant time;
//   - the client's address (when [status] allow is set) within one of the
//     listed addresses or CIDR ranges.
// Anything else is refused, and the page answers 403 with an empty body:
// nothing tells a prober which guard failed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config.h"
#include "http.h"

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

// True when `a` equals `b`; the time taken depends on their lengths only,
// never on where they first differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// The token of an "Authorization: Bearer TOKEN" value (scheme in any case,
// one or more spaces), or nullopt for any other value.
std::optional<std::string_view> BearerToken(std::string_view authorization);

// The rule above. `query_token`: the request's token= parameter, when its
// query string parsed and held one.
bool StatusAllowed(const StatusConfig& config, const Request& req, const std::optional<std::string>& query_token);

}  // namespace feed
