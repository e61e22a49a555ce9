// Which feed answers a path, and in what role: the route table. Patterns
// are literal paths with at most one {section} (a name from a given list)
// and one {n} (a part number, 1 to 999999, no leading zero):
//   /yads                          a document
//   /sitemap.xml                   a set's index
//   /sitemap-{section}-{n}.xml     a part of one of the set's sections
//   /sitemap-{section}-{n}.xml.gz  the same part, always gzip
// Adding a feed or a set adds entries; matching is a walk of the table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feed {

enum class Role { kDocument, kIndex, kPart, kItems };  // kItems: an MSN feed (msn_feed.h)

struct Route {
  std::string pattern;
  Role role = Role::kDocument;
  size_t target = 0;                  // which feed or set, for the caller
  std::vector<std::string> sections;  // the names {section} may take
  bool gzip = false;                  // the path always answers gzip (.gz)
};

struct RouteMatch {
  const Route* route = nullptr;
  std::string section;  // the matched {section}, or ""
  int part = 0;         // the matched {n}, or 0
};

class RouteTable {
 public:
  // Throws FeedError(kConfig) when `pattern` is malformed or another route
  // could answer one of the same paths.
  void Add(Route route);
  // The route that answers `path`, or nullopt.
  std::optional<RouteMatch> Match(std::string_view path) const;
  const std::vector<Route>& routes() const { return routes_; }

  // The path of part `n` of `section` by `pattern` (inverse of Match).
  static std::string Expand(const std::string& pattern, const std::string& section, int n);

 private:
  std::vector<Route> routes_;
};

}  // namespace feed
