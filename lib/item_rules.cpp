#include "item_rules.h"

#include <regex>
#include <set>
#include <string_view>

#include "ascii.h"
#include "url.h"

namespace feed {
namespace {

enum Check : unsigned {
  kRequired = 1,  // present, and not blank
  kUrl = 2,       // an absolute http(s) URL
  kUnique = 4,    // no two items with the same value
  kCdata = 8,     // its text stands in CDATA
  kDate = 16,     // an ISO 8601 or an RFC 822 date
};

struct FieldRule {
  const char* path;  // a child of the item, or child/grandchild
  unsigned checks;   // Check bits
};

struct ItemFormat {
  const char* name;
  const char* root;
  const char* item;
  const char* marker;  // an element the first item holds, or "" (the root alone decides)
  std::vector<FieldRule> fields;
};

constexpr const char* kIso8601 =
    "[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?";
constexpr const char* kRfc822 =
    "([A-Z][a-z]{2}, )?[0-9]{1,2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}(:[0-9]{2})? ([A-Z]{1,3}|[+-][0-9]{4})";

// Indeed: docs.indeed.com, "XML feed reference": every job element in
// CDATA; title, date, referencenumber, url, company, city, country and
// description required; referencenumber unique.
// Careerjet: careerjet's "XML Feed" page: jobs > job with id, title, url,
// location (city, region, country), company, description...; a job an
// aggregator cannot place or open is of no use, so id, title, url,
// location/city and description are required here.
const std::vector<ItemFormat>& Formats() {
  static const std::vector<ItemFormat> formats = {
      {"Indeed",
       "source",
       "job",
       "",
       {{"title", kRequired | kCdata},
        {"date", kRequired | kCdata | kDate},
        {"referencenumber", kRequired | kUnique | kCdata},
        {"url", kRequired | kUrl | kCdata},
        {"company", kRequired | kCdata},
        {"city", kRequired | kCdata},
        {"country", kRequired | kCdata},
        {"description", kRequired | kCdata}}},
      {"Careerjet",
       "jobs",
       "job",
       "url",
       {{"id", kRequired | kUnique},
        {"title", kRequired},
        {"url", kRequired | kUrl},
        {"location/city", kRequired},
        {"description", kRequired}}},
  };
  return formats;
}

std::string Name(const xmlNode* n) { return reinterpret_cast<const char*>(n->name); }

const xmlNode* Child(const xmlNode* n, std::string_view name) {
  for (const xmlNode* c = n ? n->children : nullptr; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE && Name(c) == name) return c;
  }
  return nullptr;
}

const xmlNode* Find(const xmlNode* item, std::string_view path) {
  const size_t slash = path.find('/');
  if (slash == std::string_view::npos) return Child(item, path);
  return Child(Child(item, path.substr(0, slash)), path.substr(slash + 1));
}

// The element's text, and whether every non-blank piece of it is CDATA.
std::string Text(const xmlNode* n, bool* all_cdata) {
  std::string out;
  *all_cdata = true;
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_TEXT_NODE && c->type != XML_CDATA_SECTION_NODE) continue;
    const std::string piece = reinterpret_cast<const char*>(c->content);
    if (c->type == XML_TEXT_NODE && !TrimSpace(piece).empty()) *all_cdata = false;
    out += piece;
  }
  return out;
}

bool IsDate(std::string_view text) {
  static const std::regex iso8601(kIso8601), rfc822(kRfc822);
  const std::string t(TrimSpace(text));
  return std::regex_match(t, iso8601) || std::regex_match(t, rfc822);
}

// The fault of one field of one item, or "".
std::string FieldFault(const xmlNode* item, const FieldRule& rule, std::set<std::string>* seen) {
  const xmlNode* field = Find(item, rule.path);
  if (!field) return (rule.checks & kRequired) ? "missing; the format requires it" : "";
  bool cdata = true;
  const std::string text = Text(field, &cdata);
  if (TrimSpace(text).empty()) return (rule.checks & kRequired) ? "empty; the format requires a value" : "";
  if ((rule.checks & kCdata) && !cdata) return "not in CDATA, as the format requires";
  if ((rule.checks & kUrl) && !IsAbsoluteHttpUrl(TrimSpace(text))) return "'" + text + "' is not an absolute http(s) URL";
  if ((rule.checks & kDate) && !IsDate(text)) return "'" + text + "' is not an ISO 8601 or RFC 822 date";
  if ((rule.checks & kUnique) && !seen->insert(text).second) return "'" + text + "' is not unique";
  return "";
}

const ItemFormat* FormatOf(const xmlNode* root) {
  if (!root) return nullptr;
  for (const ItemFormat& f : Formats()) {
    if (Name(root) != f.root) continue;
    const xmlNode* first = Child(root, f.item);
    if (!*f.marker || (first && Child(first, f.marker))) return &f;
  }
  return nullptr;
}

}  // namespace

void CheckItemRules(const xmlNode* root, std::vector<FormatFault>* faults) {
  const ItemFormat* format = FormatOf(root);
  if (!format) return;
  std::vector<std::set<std::string>> seen(format->fields.size());
  std::set<std::string> told;  // path: one fault per field
  for (const xmlNode* item = root->children; item; item = item->next) {
    if (item->type != XML_ELEMENT_NODE || Name(item) != format->item) continue;
    for (size_t i = 0; i < format->fields.size(); ++i) {
      const FieldRule& rule = format->fields[i];
      const std::string fault = FieldFault(item, rule, &seen[i]);
      if (fault.empty() || !told.insert(rule.path).second) continue;
      faults->push_back({static_cast<int>(xmlGetLineNo(item)), rule.path,
                         std::string(format->name) + ": <" + format->item + "> <" + rule.path + "> " + fault});
    }
  }
}

}  // namespace feed
