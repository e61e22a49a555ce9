// A rendered document checked against its format's own rules, as `check`
// does with a sample of every feed (check.h): the bytes a robot would get,
// not the template.
//
// - XML: the document opens with an XML declaration that names the
//   encoding the feed writes; its bytes decode from that encoding (iconv);
//   it is well-formed (tinyxml2) and holds only XML 1.0 characters. A
//   <urlset> or <sitemapindex> in the sitemaps.org namespace is also valid
//   against sitemap.xsd or siteindex.xsd (libxml2's XML Schema validator;
//   the schemas, copies of schemas/*.xsd, are built into the program, so
//   that check needs no file beside it). A document of a format with no
//   schema (Indeed, Careerjet) is held to that format's item rules
//   (item_rules.h).
// - A text sitemap: UTF-8, one absolute http(s) URL per line (at most 2,048
//   characters), nothing else, at most 50,000 lines and kMaxTextPartBytes.
//
// Nothing here throws for what it finds; each function returns the faults,
// at most kMaxFormatFaults of them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace feed {

constexpr size_t kMaxFormatFaults = 5;

struct FormatFault {
  int line = 0;         // the document's line (1-based); 0: the whole document
  std::string element;  // the element it is about ("changefreq"), or ""
  std::string what;     // what is wrong, in words a site owner reads
};

// `encoding`: the charset the feed writes (CharsetName), which the
// declaration must name (compared without regard to case).
std::vector<FormatFault> CheckXmlDocument(std::string_view bytes, std::string_view encoding);

std::vector<FormatFault> CheckTextSitemap(std::string_view bytes);

// The sitemaps.org schemas as built into the program (tests compare them
// with schemas/).
std::string_view SitemapXsd();
std::string_view SiteindexXsd();

}  // namespace feed
