// The status page's access rule and what it parses, on arbitrary bytes:
// lines of the input are an allow entry, an Authorization value, a query
// string, an Accept value and a client address. Nothing crashes; a range
// holds the address it was written with; a bearer token is a piece of the
// header without spaces; the page is allowed only to the exact token from
// a listed address; the format choice is JSON, HTML or a 400.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "error.h"
#include "http.h"
#include "status.h"
#include "status_access.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  for (size_t at = 0; lines.size() < 5;) {
    const size_t nl = in.find('\n', at);
    lines.push_back(in.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  lines.resize(5);
  const std::string &range_text = lines[0], &authorization = lines[1], &query = lines[2], &accept = lines[3],
                    &address = lines[4];

  if (auto r = feed::AddressRange::Parse(range_text)) {
    if (r->bits < 0 || r->bits > 128) std::abort();
    if (!r->Contains(range_text.substr(0, range_text.find('/')))) std::abort();
  }
  if (auto t = feed::BearerToken(authorization)) {
    if (t->empty() || t->find(' ') != std::string_view::npos || authorization.find(*t) == std::string::npos) {
      std::abort();
    }
  }

  feed::StatusConfig config;
  config.enabled = true;
  config.token = "fuzz-status-token-0123456789";
  config.allow = {"127.0.0.1", "2001:db8::/32"};
  feed::Request req;
  req.authorization = authorization;
  req.query_string = query;
  req.accept = accept;
  req.remote_addr = address;
  std::optional<feed::QueryParams> params;
  try {
    params = feed::QueryParams::Parse(query);
  } catch (const feed::FeedError& e) {
    if (e.kind() != feed::ErrorKind::kBadRequest) std::abort();
  }
  const std::optional<std::string> token = params ? params->Get("token") : std::nullopt;
  if (feed::StatusAllowed(config, req, token)) {
    auto bearer = feed::BearerToken(authorization);
    const bool right = (bearer && *bearer == config.token) || (token && *token == config.token);
    const bool listed = feed::AddressRange::Parse("127.0.0.1")->Contains(address) ||
                        feed::AddressRange::Parse("2001:db8::/32")->Contains(address);
    if (!right || !listed) std::abort();
  }
  if (params) {
    try {
      feed::WantsJson(req, *params);
    } catch (const feed::FeedError& e) {
      if (e.kind() != feed::ErrorKind::kBadRequest) std::abort();
    }
  }
  return 0;
}
