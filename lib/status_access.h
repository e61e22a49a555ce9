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

#include <optional>
#include <string>
#include <string_view>

#include "address_range.h"
#include "config.h"
#include "http.h"

namespace feed {

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
