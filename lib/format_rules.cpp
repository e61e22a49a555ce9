#include "format_rules.h"

#include <iconv.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include "ascii.h"
#include "config.h"
#include "item_rules.h"
#include "url.h"
#include "xml_text.h"

// The sitemaps.org schemas, byte for byte from schemas/ (the Makefile makes
// this file depend on them), each followed by a NUL.
asm(R"(
    .section .rodata
feed_sitemap_xsd_bytes:
    .incbin "schemas/sitemap.xsd"
feed_sitemap_xsd_end:
    .byte 0
feed_siteindex_xsd_bytes:
    .incbin "schemas/siteindex.xsd"
feed_siteindex_xsd_end:
    .byte 0
    .previous
)");
extern "C" const char feed_sitemap_xsd_bytes[], feed_sitemap_xsd_end[];
extern "C" const char feed_siteindex_xsd_bytes[], feed_siteindex_xsd_end[];

namespace feed {
namespace {

constexpr const char* kSitemapNs = "http://www.sitemaps.org/schemas/sitemap/0.9";
constexpr size_t kMaxTextLines = 50000;

int LineAt(std::string_view bytes, size_t offset) {
  return 1 + static_cast<int>(std::count(bytes.begin(), bytes.begin() + std::min(offset, bytes.size()), '\n'));
}

bool SameCharset(std::string_view a, std::string_view b) { return EqualsNoCase(a, b); }

// The encoding the XML declaration names: nullopt without a declaration,
// "" for a declaration without encoding.
std::optional<std::string> DeclaredEncoding(std::string_view bytes) {
  if (bytes.substr(0, 5) != "<?xml") return std::nullopt;
  const std::string_view decl = bytes.substr(0, bytes.find("?>"));
  const size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return std::string();
  size_t i = decl.find_first_of("\"'", at);
  if (i == std::string_view::npos) return std::string();
  const size_t end = decl.find(decl[i], i + 1);
  if (end == std::string_view::npos) return std::string();
  return std::string(decl.substr(i + 1, end - i - 1));
}

struct IconvCloser {
  void operator()(void* cd) const { iconv_close(static_cast<iconv_t>(cd)); }
};

// `bytes` from `charset` into UTF-8; on failure nullopt and the byte
// offset where decoding stopped in *bad.
std::optional<std::string> DecodeToUtf8(std::string_view bytes, const std::string& charset, size_t* bad) {
  iconv_t raw = iconv_open("UTF-8", charset.c_str());
  *bad = 0;
  if (raw == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  std::unique_ptr<void, IconvCloser> cd(raw);
  std::string out(bytes.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  char* o = out.data();
  size_t out_left = out.size();
  if (iconv(raw, &in, &in_left, &o, &out_left) == static_cast<size_t>(-1)) {
    *bad = bytes.size() - in_left;
    return std::nullopt;
  }
  out.resize(out.size() - out_left);
  return out;
}

// libxml2 reports through a handler; this one collects its errors while it
// lives and puts the previous handler back (libxml2 keeps it per thread).
class XmlErrors {
 public:
  XmlErrors() {
    prev_ctx_ = xmlStructuredErrorContext;
    prev_ = xmlStructuredError;
    xmlSetStructuredErrorFunc(this, &XmlErrors::Collect);
  }
  ~XmlErrors() { xmlSetStructuredErrorFunc(prev_ctx_, prev_); }
  XmlErrors(const XmlErrors&) = delete;
  XmlErrors& operator=(const XmlErrors&) = delete;

  static void Collect(void* self, xmlErrorPtr e) {
    auto* errors = static_cast<XmlErrors*>(self);
    if (!e || e->level < XML_ERR_ERROR || errors->faults.size() >= kMaxCollected) return;
    FormatFault f;
    f.line = e->line;
    if (e->node) {
      const auto* node = static_cast<const xmlNode*>(e->node);
      if (node->name) f.element = reinterpret_cast<const char*>(node->name);
    }
    std::string m = e->message ? e->message : "an error";
    // "Element '{http://www.sitemaps.org/schemas/sitemap/0.9}changefreq'":
    // the name alone reads better (a set of values "{'always', ...}" stays).
    for (size_t open = 0; (open = m.find("{http", open)) != std::string::npos;) {
      const size_t close = m.find('}', open);
      if (close == std::string::npos) break;
      m.erase(open, close - open + 1);
    }
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    f.what = std::move(m);
    errors->faults.push_back(std::move(f));
  }

  // The faults, the first one per element name (a template writes the
  // same mistake in every row, and libxml2 often says one thing twice), or
  // per message for those about no element.
  std::vector<FormatFault> Grouped() const {
    std::vector<FormatFault> out;
    for (const FormatFault& f : faults) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const FormatFault& o) {
        return o.element == f.element && (!f.element.empty() || o.what == f.what);
      });
      if (!seen) out.push_back(f);
    }
    return out;
  }

  std::vector<FormatFault> faults;

 private:
  static constexpr size_t kMaxCollected = 10000;
  void* prev_ctx_;
  xmlStructuredErrorFunc prev_;
};

struct DocFree {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
struct SchemaParserFree {
  void operator()(xmlSchemaParserCtxt* c) const { xmlSchemaFreeParserCtxt(c); }
};
struct SchemaFree {
  void operator()(xmlSchema* s) const { xmlSchemaFree(s); }
};
struct ValidFree {
  void operator()(xmlSchemaValidCtxt* c) const { xmlSchemaFreeValidCtxt(c); }
};

// `doc` against `xsd`; the faults, prefixed with what was checked.
void Validate(xmlDoc* doc, std::string_view xsd, const char* name, std::vector<FormatFault>* faults) {
  XmlErrors errors;
  std::unique_ptr<xmlSchemaParserCtxt, SchemaParserFree> pc(
      xmlSchemaNewMemParserCtxt(xsd.data(), static_cast<int>(xsd.size())));
  std::unique_ptr<xmlSchema, SchemaFree> schema(pc ? xmlSchemaParse(pc.get()) : nullptr);
  if (!schema) {
    faults->push_back({0, "", std::string("the built-in ") + name + " does not load (a bug)"});
    return;
  }
  std::unique_ptr<xmlSchemaValidCtxt, ValidFree> vc(xmlSchemaNewValidCtxt(schema.get()));
  xmlSchemaSetValidStructuredErrors(vc.get(), &XmlErrors::Collect, &errors);
  const int rc = xmlSchemaValidateDoc(vc.get(), doc);
  for (FormatFault& f : errors.Grouped()) {
    f.what = std::string("not valid against the sitemaps.org ") + name + ": " + f.what;
    faults->push_back(std::move(f));
  }
  if (rc != 0 && errors.faults.empty()) faults->push_back({0, "", std::string("not valid against ") + name});
}

bool IsBlank(std::string_view s) { return std::all_of(s.begin(), s.end(), IsAsciiSpace); }

}  // namespace

std::string_view SitemapXsd() {
  return {feed_sitemap_xsd_bytes, static_cast<size_t>(feed_sitemap_xsd_end - feed_sitemap_xsd_bytes)};
}

std::string_view SiteindexXsd() {
  return {feed_siteindex_xsd_bytes, static_cast<size_t>(feed_siteindex_xsd_end - feed_siteindex_xsd_bytes)};
}

std::vector<FormatFault> CheckXmlDocument(std::string_view bytes, std::string_view encoding) {
  std::vector<FormatFault> faults;
  // What a reader decodes it as: the declaration's encoding, else UTF-8.
  const std::optional<std::string> declared = DeclaredEncoding(bytes);
  std::string reads_as = declared && !declared->empty() ? *declared : "UTF-8";
  if (!declared) {
    if (!SameCharset(encoding, "UTF-8")) {
      faults.push_back(
          {1, "", "no XML declaration, so readers take it for UTF-8, but the feed writes " + std::string(encoding)});
    }
  } else if (!SameCharset(reads_as, encoding)) {
    faults.push_back({1, "",
                      "the XML declaration names " + (declared->empty() ? "no encoding (UTF-8)" : reads_as) +
                          " but the feed writes " + std::string(encoding)});
  }
  size_t bad = 0;
  std::optional<std::string> text = DecodeToUtf8(bytes, reads_as, &bad);
  if (!text) {
    faults.push_back({LineAt(bytes, bad), "",
                      "byte " + std::to_string(bad) + " and on are not " + reads_as + " (" +
                          (bad < bytes.size() ? "a byte that cannot start a character there" : "unknown encoding") +
                          ")"});
    return faults;
  }
  for (size_t i = 0; i < text->size();) {
    size_t len = 1;
    std::optional<char32_t> cp = DecodeUtf8(std::string_view(*text).substr(i), &len);
    if (cp && !IsXmlChar(*cp)) {
      faults.push_back({LineAt(*text, i), "", "it holds U+" + [&] {
                          char hex[16];
                          std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(*cp));
                          return std::string(hex);
                        }() + ", a character XML 1.0 does not allow"});
      break;
    }
    i += len;
  }

  tinyxml2::XMLDocument doc;
  if (doc.Parse(text->data(), text->size()) != tinyxml2::XML_SUCCESS) {
    faults.push_back({doc.ErrorLineNum(), "", std::string("not well-formed XML: ") + doc.ErrorStr()});
    return faults;
  }
  int roots = 0;
  for (const tinyxml2::XMLNode* n = doc.FirstChild(); n; n = n->NextSibling()) {
    if (n->ToElement()) {
      if (++roots == 2) {
        faults.push_back({n->GetLineNum(), n->ToElement()->Name(),
                          "not well-formed XML: a second root element <" + std::string(n->ToElement()->Name()) +
                              "> (a document has one root: the feed:each element must be inside it)"});
      }
    } else if (n->ToText() && !IsBlank(n->Value())) {
      faults.push_back({n->GetLineNum(), "", "not well-formed XML: text outside the root element"});
    }
  }
  if (roots == 0) faults.push_back({0, "", "not well-formed XML: no root element"});
  if (roots != 1) return faults;

  // libxml2 too: it also checks namespaces (a prefix used but not declared)
  // and entity references, and validates.
  XmlErrors errors;
  std::unique_ptr<xmlDoc, DocFree> x(
      xmlReadMemory(text->data(), static_cast<int>(text->size()), "sample.xml", "UTF-8", XML_PARSE_NONET));
  for (FormatFault& f : errors.Grouped()) {
    f.what = "not well-formed XML: " + f.what;
    faults.push_back(std::move(f));
  }
  if (!x || !errors.faults.empty()) return faults;
  const xmlNode* root = xmlDocGetRootElement(x.get());
  if (root && root->ns && root->ns->href &&
      std::string_view(reinterpret_cast<const char*>(root->ns->href)) == kSitemapNs) {
    const std::string_view name(reinterpret_cast<const char*>(root->name));
    if (name == "urlset") Validate(x.get(), SitemapXsd(), "sitemap.xsd", &faults);
    if (name == "sitemapindex") Validate(x.get(), SiteindexXsd(), "siteindex.xsd", &faults);
  }
  CheckItemRules(root, &faults);
  if (faults.size() > kMaxFormatFaults) faults.resize(kMaxFormatFaults);
  return faults;
}

std::vector<FormatFault> CheckTextSitemap(std::string_view bytes) {
  std::vector<FormatFault> faults;
  if (bytes.size() > static_cast<size_t>(kMaxTextPartBytes)) {
    faults.push_back({0, "",
                      std::to_string(bytes.size()) + " bytes, more than the " + std::to_string(kMaxTextPartBytes) +
                          " a text sitemap may hold"});
  }
  size_t lines = 0;
  for (size_t at = 0; at < bytes.size();) {
    size_t end = bytes.find('\n', at);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view line = bytes.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++lines;
    if (faults.size() < kMaxFormatFaults) {
      const bool printable = std::all_of(line.begin(), line.end(), [](char c) { return c > ' ' && c < 0x7f; });
      if (line.empty()) {
        faults.push_back({static_cast<int>(lines), "", "an empty line (each line is one URL)"});
      } else if (!printable || !IsAbsoluteHttpUrl(line)) {
        faults.push_back({static_cast<int>(lines), "",
                          "'" + std::string(line.substr(0, 80)) + (line.size() > 80 ? "..." : "") +
                              "' is not an absolute http(s) URL of at most 2,048 characters, percent-encoded"});
      }
    }
    at = end + 1;
  }
  if (lines > kMaxTextLines) {
    faults.push_back({0, "", std::to_string(lines) + " lines, more than the 50,000 URLs a text sitemap may hold"});
  }
  if (faults.size() > kMaxFormatFaults) faults.resize(kMaxFormatFaults);
  return faults;
}

}  // namespace feed
