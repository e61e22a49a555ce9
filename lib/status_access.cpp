#include "status_access.h"

#include <algorithm>

#include "ascii.h"

namespace feed {

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Every byte of the longer one is looked at, whatever the contents.
  const size_t n = std::max(a.size(), b.size());
  unsigned diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

std::optional<std::string_view> BearerToken(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer";
  if (authorization.size() <= kScheme.size() || !EqualsNoCase(authorization.substr(0, kScheme.size()), kScheme)) {
    return std::nullopt;
  }
  std::string_view rest = authorization.substr(kScheme.size());
  if (rest.front() != ' ') return std::nullopt;
  rest = TrimSpace(rest);
  if (rest.empty() || rest.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  return rest;
}

bool StatusAllowed(const StatusConfig& config, const Request& req, const std::optional<std::string>& query_token) {
  if (!config.enabled || (config.token.empty() && config.allow.empty())) return false;
  if (!config.token.empty()) {
    // Both forms are compared, so that which one was used takes no time to
    // tell either.
    auto bearer = BearerToken(req.authorization);
    const bool by_header = bearer && ConstantTimeEquals(*bearer, config.token);
    const bool by_query = query_token && ConstantTimeEquals(*query_token, config.token);
    if (!by_header && !by_query) return false;
  }
  if (!config.allow.empty()) {
    bool listed = false;
    for (const std::string& a : config.allow) {
      auto r = AddressRange::Parse(a);
      if (r && r->Contains(req.remote_addr)) listed = true;
    }
    if (!listed) return false;
  }
  return true;
}

}  // namespace feed
