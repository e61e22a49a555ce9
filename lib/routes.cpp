#include "routes.h"

#include "error.h"

namespace feed {
namespace {

constexpr std::string_view kSection = "{section}";
constexpr std::string_view kNumber = "{n}";

// A part number: 1 to 6 digits, no leading zero.
bool ParseNumber(std::string_view s, int* n) {
  if (s.empty() || s.size() > 6 || s[0] == '0') return false;
  *n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    *n = *n * 10 + (c - '0');
  }
  return true;
}

// Matches `path` against `pattern` given the section, if any: the pattern
// with {section} replaced is compared literally around {n}.
bool MatchWith(std::string_view pattern, std::string_view path, std::string_view section, int* n) {
  std::string p(pattern);
  if (size_t s = p.find(kSection); s != std::string::npos) p.replace(s, kSection.size(), section);
  size_t at = p.find(kNumber);
  if (at == std::string::npos) return p == path;
  std::string_view before = std::string_view(p).substr(0, at), after = std::string_view(p).substr(at + kNumber.size());
  if (path.size() <= before.size() + after.size()) return false;
  if (path.substr(0, before.size()) != before || path.substr(path.size() - after.size()) != after) return false;
  return ParseNumber(path.substr(before.size(), path.size() - before.size() - after.size()), n);
}

}  // namespace

void RouteTable::Add(Route route) {
  const std::string& p = route.pattern;
  const bool has_section = p.find(kSection) != std::string::npos, has_n = p.find(kNumber) != std::string::npos;
  if (p.empty() || p[0] != '/' || (has_section && route.sections.empty()) || (has_section && !has_n)) {
    throw ConfigError("route '" + p + "': a path starts with '/' and a {section} comes with {n}");
  }
  // Two routes clash when a path of one matches the other.
  auto sample = [](const Route& r) {
    std::vector<std::string> paths;
    for (const std::string& s : r.sections.empty() ? std::vector<std::string>{""} : r.sections) {
      paths.push_back(Expand(r.pattern, s, 1));
    }
    return paths;
  };
  RouteTable probe;
  probe.routes_.push_back(route);
  for (const Route& r : routes_) {
    for (const std::string& path : sample(r)) {
      if (probe.Match(path)) throw ConfigError("two feeds answer " + path);
    }
    RouteTable other;
    other.routes_.push_back(r);
    for (const std::string& path : sample(route)) {
      if (other.Match(path)) throw ConfigError("two feeds answer " + path);
    }
  }
  routes_.push_back(std::move(route));
}

std::optional<RouteMatch> RouteTable::Match(std::string_view path) const {
  for (const Route& r : routes_) {
    int n = 0;
    if (r.sections.empty()) {
      if (MatchWith(r.pattern, path, "", &n)) return RouteMatch{&r, "", n};
      continue;
    }
    for (const std::string& s : r.sections) {
      if (MatchWith(r.pattern, path, s, &n)) return RouteMatch{&r, s, n};
    }
  }
  return std::nullopt;
}

std::string RouteTable::Expand(const std::string& pattern, const std::string& section, int n) {
  std::string p = pattern;
  if (size_t s = p.find(kSection); s != std::string::npos) p.replace(s, kSection.size(), section);
  if (size_t s = p.find(kNumber); s != std::string::npos) p.replace(s, kNumber.size(), std::to_string(n));
  return p;
}

}  // namespace feed
