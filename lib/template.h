// A feed format as an XML template, parsed once at start (tinyxml2) and
// compiled to a plan that is rendered row by row for every request.
//
//   <yml_catalog date="{feed.date}" xmlns:feed="urn:feed-fcgi">
//     <ads>
//       <ad feed:each="row" feed:require="id:required id:alnum id:maxlen=32">
//         <title>{title|plain}</title>
//         <tel>{phone|flag}</tel>
//         <url>{url|noscheme}</url>
//       </ad>
//     </ads>
//     <continue feed:if="feed.more">{feed.continue}</continue>
//   </yml_catalog>
//
// - {name|filter|...} stands in text, attribute values and CDATA sections;
//   "{{" and "}}" are literal braces. A name without a dot is a field of the
//   query's row (only inside the feed:each element); "site.KEY" (a [site]
//   key, which must exist) and "value.KEY" (the feed's value.KEY, empty when
//   not set) are filled in at compile time; "feed.date", "feed.more",
//   "feed.continue", "feed.name", "feed.updated" are set per response;
//   "feed.empty", in the tail, is "1" when the document holds no row (a
//   sitemap's fallback URL: a urlset lists at least one). An attribute made
//   only of such compile-time values that come out empty is left out.
// - feed:each="row" marks the one element repeated per row; what comes
//   before it is the head, what follows the tail.
// - feed:if="name" / feed:if="!name" keeps an element only when the value is
//   (or is not) non-empty; on site.KEY or value.KEY this is decided once,
//   when the template is compiled. feed:if="name|filter|..." tests the
//   value after the filters (description|plain: HTML that is only markup
//   is no value).
// - feed:require="FIELD:RULE ..." on the feed:each element leaves out a row
//   that breaks a rule and reports it; feed:key="FIELD" names the field that
//   identifies the row in that report. Rules: required (not blank), alnum
//   (letters and digits only), maxlen=N (characters), url (an absolute http
//   or https URL of at most 2,048 characters once percent-encoded, as the
//   url filter writes it), url=N (the same, at most N characters), filetype
//   (an extension Baidu's file type list knows, see baidu_filetype).
//   feed:past="FIELD ..." on the same element: dates that happened (a
//   publication, a change) are never written in the future: a field's
//   date later than now (the web server's clock stepped back, a board's
//   clock ahead) is written as now.
//   A value longer than 8 MiB (after its filters) is cut at a character
//   boundary and the cut reported as a note: libxml2, which many robots
//   parse with, refuses a text of more than 10 MB in one element.
//   feed:note="FIELD:RULE ..." on the same element reports a row that
//   breaks a rule and writes it all the same (an unknown file type,
//   written as 其他).
// - Repeated elements, inside the feed:each="row" element (not inside one
//   another):
//     feed:each="NAME"   once per row of the feed's child query NAME
//                        (config: child.NAME = FILE) that belongs to the
//                        row; inside it, {field} and feed:if name the
//                        child row's fields
//     feed:split="FIELD" once per piece of the row field FIELD split at
//                        the characters of feed:sep (default , ， ； 、),
//                        pieces trimmed, empty ones dropped; inside it
//                        {FIELD} is the piece, other names row fields
//   feed:require on a repeated element leaves out an item (a child row, a
//   piece) that breaks a rule and reports it with the row's feed:key;
//   feed:min="N" leaves the whole row out (reported) when fewer than N
//   items are kept. Escaping, filters and feed:if work as for the row.
// - Text is escaped for where it stands (text, attribute, CDATA) and encoded
//   in the feed's charset; the structure comes from the parsed template, so
//   no value can break the document. The XML declaration is written by the
//   engine and names the charset used; comments are dropped. An element with
//   element children is followed by a line break after its start tag, and
//   every end tag by one.
// Errors (not well-formed XML, an element or attribute name that is not an
// XML name or, for windows-1251, holds a character the code page lacks,
// unknown filter, directive or rule, no or two feed:each="row", a row field
// outside it, nested repeated elements) throw FeedError(kConfig) "FILE:LINE: ...".
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "database.h"
#include "encoder.h"
#include "filters.h"
#include "xml_text.h"

namespace feed {

class Clock;        // clock.h
class RowChildren;  // children.h

// Per-response values the template can name as feed.*.
struct DocumentValues {
  std::string date;            // feed.date: the run's moment, site time
  std::string continue_token;  // feed.continue
  bool more = false;           // feed.more
  std::string name;            // feed.name
  std::string updated;         // feed.updated: the newest change (state query), else the run's moment
  bool empty = false;          // feed.empty: in the tail, the document holds no row
};

// A row left out of the feed, and why (for the operator's report).
struct RowRejection {
  std::string field;
  std::string value;  // cleaned, at most 64 characters
  std::string rule;   // "alnum", "maxlen=32", ...
  std::string item;   // the feed:key field's value, when the template names one
  bool note = false;  // a feed:note: reported, the row written all the same
};

class Template {
 public:
  // `fixed` holds the compile-time values by full name: "site.url",
  // "value.hide_contacts".
  static Template Load(const std::string& file, Charset cs, const std::map<std::string, std::string>& fixed);
  static Template Parse(std::string_view xml, const std::string& file, Charset cs,
                        const std::map<std::string, std::string>& fixed);
  // A template for `format`: kText writes no declaration and no markup,
  // only the text inside the feed:each element, one line per row. Date
  // filters read DATETIME values in `zone` (the other Parse: UTC).
  // feed:past reads `clock` (the system's when null), which must outlive
  // the template.
  static Template Parse(std::string_view xml, const std::string& file, Format format, Charset cs,
                        const std::map<std::string, std::string>& fixed, const TimeZone& zone,
                        const Clock* clock = nullptr);

  Template(Template&&) noexcept;
  Template& operator=(Template&&) noexcept;
  ~Template();

  Charset charset() const;
  Format format() const;
  const std::string& file() const;
  // Every row field the template names (placeholders and rules), once each.
  std::vector<std::string> Fields() const;
  // True when the template writes the per-response value `name`
  // ("feed.date") somewhere; feed:if on it alone does not count.
  bool Writes(std::string_view name) const;

  // Resolves row fields to result columns; a field the query does not return
  // throws FeedError(kConfig) naming the template's line and the query file.
  void BindColumns(const std::vector<Column>& columns, const std::string& query_file);

  // The child queries the template's feed:each="NAME" elements name, in
  // the order RowChildren numbers them.
  const std::vector<std::string>& Children() const;
  // The fields the elements of child query `child` name, once each.
  std::vector<std::string> ChildFields(const std::string& child) const;
  // Resolves the fields used inside `child`'s elements to its query's
  // columns, as BindColumns does for the row.
  void BindChildColumns(const std::string& child, const std::vector<Column>& columns, const std::string& query_file);

  // The XML declaration and everything before the repeated element.
  void RenderHead(std::string& out, const DocumentValues& doc) const;
  // One row; returns false (appending nothing) when the row breaks a rule
  // or the encoder refuses one of its values, and says which in *why.
  // REQUIRES: BindColumns was called.
  bool RenderRow(std::string& out, const Rows& row, RowRejection* why) const;
  // The same with the row's child rows (nullptr: none) and, when
  // `dropped` is given, a report appended for each item a repeated element
  // left out by its rules and each feed:note the row breaks (note = true;
  // only when the row itself is written).
  bool RenderRow(std::string& out, const Rows& row, const RowChildren* children, RowRejection* why,
                 std::vector<RowRejection>* dropped) const;
  // The same, for a template bound to the row's columns followed by values
  // the engine computes (an MSN item's guid and dates): column row.size() + i
  // is extra[i]. REQUIRES: extra holds every bound column past the row's.
  // `dates_as_stored`: feed:past dates are written as the row holds them
  // (a fingerprint of the row's content that must not move with the clock).
  bool RenderRow(std::string& out, const Rows& row, const std::vector<std::string_view>& extra,
                 RowRejection* why, bool dates_as_stored = false) const;
  // Everything after the repeated element.
  void RenderTail(std::string& out, const DocumentValues& doc) const;

 public:
  struct Plan;  // the compiled form; defined in template.cpp

 private:
  // Every RenderRow: `extra` (may be null) continues the row's columns,
  // `children` (may be null) are its child rows.
  bool Render(std::string& out, const Rows& row, const std::vector<std::string_view>* extra,
              const RowChildren* children, RowRejection* why, std::vector<RowRejection>* dropped,
              bool dates_as_stored = false) const;

  explicit Template(std::unique_ptr<Plan> plan);
  std::string KeyOf(const Rows& row) const;  // the feed:key field's value, or ""
  std::unique_ptr<Plan> plan_;
};

}  // namespace feed
