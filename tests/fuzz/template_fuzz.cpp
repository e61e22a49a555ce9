// Template compilation on arbitrary text, and rendering of what compiles
// with arbitrary values (two child rows for each child query it names, and
// split pieces of the value): compile errors are kConfig with file and
// line, and a compiled template's output, in either charset, always parses
// as XML.
#include <tinyxml2.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "children.h"
#include "error.h"
#include "template.h"
#include "xml_text.h"

namespace {

// Every child query has two rows, each cell the same value.
class TwoChildren : public feed::RowChildren {
 public:
  explicit TwoChildren(std::string v) : v_(std::move(v)) {}
  size_t Count(size_t) const override { return 2; }
  std::string_view Get(size_t, size_t, size_t) const override { return v_; }

 private:
  std::string v_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string value = text.substr(0, 64);
  for (feed::Charset cs : {feed::Charset::kUtf8, feed::Charset::kWindows1251}) {
    try {
      feed::Template t = feed::Template::Parse(text, "fuzz.xml", cs, {{"site.url", value}, {"value.v", value}});
      std::vector<feed::Column> cols;
      std::vector<std::optional<std::string>> cells;
      for (const std::string& f : t.Fields()) {
        cols.push_back({f, feed::ColumnType::kText});
        cells.push_back(value);
      }
      t.BindColumns(cols, "fuzz.sql");
      for (const std::string& child : t.Children()) {
        std::vector<feed::Column> cc;
        for (const std::string& f : t.ChildFields(child)) cc.push_back({f, feed::ColumnType::kText});
        t.BindChildColumns(child, cc, "child.sql");
      }
      TwoChildren children(value);
      std::vector<feed::RowRejection> dropped;
      feed::DocumentValues doc{value, value, !value.empty(), value, value};
      std::string out;
      t.RenderHead(out, doc);
      feed::Rows rows({cells});
      if (!cells.empty() && rows.Next()) t.RenderRow(out, rows, &children, nullptr, &dropped);
      t.RenderTail(out, doc);
      // tinyxml2 reads UTF-8 only: windows-1251 output is converted first.
      std::string utf8;
      if (cs == feed::Charset::kWindows1251) feed::AssignCp1251AsUtf8(utf8, out);
      const std::string& xml = cs == feed::Charset::kUtf8 ? out : utf8;
      tinyxml2::XMLDocument parsed;
      if (parsed.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) std::abort();
    } catch (const feed::FeedError& e) {
      if (e.kind() != feed::ErrorKind::kConfig) std::abort();
      if (std::string(e.what()).rfind("fuzz.xml:", 0) != 0) std::abort();
    }
  }
  return 0;
}
