#include "feed_rules.h"

#include <iconv.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "test_env.h"

namespace feed::testing {
namespace {

constexpr size_t kMaxFaults = 20;

struct Faults {
  std::vector<std::string> list;
  void Add(const std::string& what) {
    if (list.size() < kMaxFaults) list.push_back(what);
  }
};

// Each pattern compiled once (a text part has 50,000 lines to match).
bool Matches(const std::string& s, const char* pattern) {
  static std::map<std::string, std::regex> compiled;
  auto it = compiled.find(pattern);
  if (it == compiled.end()) it = compiled.emplace(pattern, std::regex(pattern)).first;
  return std::regex_match(s, it->second);
}

const char* kRfc822 =
    "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} "
    "[0-9]{2}:[0-9]{2}:[0-9]{2} ([+-][0-9]{4}|GMT|UT)";
const char* kRfc3339 = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})";
const char* kRfc3339Utc = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|\\+00:00)";
const char* kAbsoluteUrl = "https?://[^/?#\\s]+([/?#]\\S*)?";
const char* kAlnum32 = "[0-9A-Za-z]{1,32}";

// --- bytes and characters

// The encoding the XML declaration names, or "" when the document does not
// start with one.
std::string DeclaredEncoding(const std::string& bytes) {
  std::smatch m;
  static const std::regex decl("^<\\?xml version=\"1\\.0\" encoding=\"([^\"]+)\"\\?>");
  const std::string head = bytes.substr(0, 100);
  return std::regex_search(head, m, decl) ? m[1].str() : "";
}

bool Decodes(const std::string& bytes, const std::string& charset) {
  iconv_t cd = iconv_open("UTF-8", charset.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  std::string out(bytes.size() * 4 + 16, '\0');
  char* in = const_cast<char*>(bytes.data());
  char* o = out.data();
  size_t il = bytes.size(), ol = out.size();
  const bool ok = iconv(cd, &in, &il, &o, &ol) != static_cast<size_t>(-1);
  iconv_close(cd);
  return ok;
}

bool IsXmlChar(uint32_t c) {
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

// Every code point of UTF-8 text (decoded after parsing, so that numeric
// references are included) is an XML 1.0 character.
std::string FirstNonXmlChar(const std::string& utf8) {
  for (size_t i = 0; i < utf8.size();) {
    const unsigned char b = static_cast<unsigned char>(utf8[i]);
    const size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    uint32_t c = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
    for (size_t k = 1; k < n && i + k < utf8.size(); ++k) c = (c << 6) | (utf8[i + k] & 0x3F);
    if (!IsXmlChar(c)) return "U+" + std::to_string(c);
    i += n;
  }
  return "";
}

// --- the tree

struct DocFree {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using Doc = std::unique_ptr<xmlDoc, DocFree>;

void Quiet(void*, xmlErrorPtr) {}

Doc Parse(const std::string& bytes, Faults* faults) {
  xmlSetStructuredErrorFunc(nullptr, Quiet);
  xmlResetLastError();
  Doc doc(xmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), "document.xml", nullptr,
                        XML_PARSE_NONET | XML_PARSE_NOENT));
  if (!doc) {
    const xmlError* e = xmlGetLastError();
    faults->Add("not well-formed: line " + std::to_string(e ? e->line : 0) + ": " +
                (e && e->message ? std::string(e->message) : "?"));
  }
  return doc;
}

std::string Name(const xmlNode* n) { return reinterpret_cast<const char*>(n->name); }
std::string Ns(const xmlNode* n) { return n->ns ? reinterpret_cast<const char*>(n->ns->href) : ""; }

std::vector<xmlNode*> Children(const xmlNode* n) {
  std::vector<xmlNode*> out;
  for (xmlNode* c = n ? n->children : nullptr; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) out.push_back(c);
  }
  return out;
}

std::vector<xmlNode*> Children(const xmlNode* n, const std::string& name) {
  std::vector<xmlNode*> out;
  for (xmlNode* c : Children(n)) {
    if (Name(c) == name) out.push_back(c);
  }
  return out;
}

xmlNode* Child(const xmlNode* n, const std::string& name) {
  auto all = Children(n, name);
  return all.empty() ? nullptr : all.front();
}

std::string Text(const xmlNode* n) {
  if (!n) return "";
  xmlChar* c = xmlNodeGetContent(n);
  std::string s = c ? reinterpret_cast<const char*>(c) : "";
  xmlFree(c);
  return s;
}

std::string Attr(const xmlNode* n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  std::string s = v ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return s;
}

std::vector<std::string> AttrNames(const xmlNode* n) {
  std::vector<std::string> out;
  for (xmlAttr* a = n->properties; a; a = a->next) out.push_back(reinterpret_cast<const char*>(a->name));
  return out;
}

// Every text of the document, for the character check.
void AllText(const xmlNode* n, std::string* out) {
  for (const xmlNode* c = n; c; c = c->next) {
    if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) && c->content) {
      *out += reinterpret_cast<const char*>(c->content);
    }
    if (c->type == XML_ELEMENT_NODE) {
      for (xmlAttr* a = c->properties; a; a = a->next) *out += Attr(c, reinterpret_cast<const char*>(a->name));
      AllText(c->children, out);
    }
  }
}

bool DeclaresNamespace(const xmlNode* n, const char* href) {
  for (xmlNs* ns = n->nsDef; ns; ns = ns->next) {
    if (std::strcmp(reinterpret_cast<const char*>(ns->href), href) == 0) return true;
  }
  return false;
}

// --- schemas

struct SchemaFree {
  void operator()(xmlSchema* s) const { xmlSchemaFree(s); }
};

xmlSchema* Schema(const std::string& file) {
  static std::map<std::string, std::unique_ptr<xmlSchema, SchemaFree>> cache;
  auto& s = cache[file];
  if (!s) {
    const std::string path = Env("FEED_TEST_ROOT") + "/schemas/" + file;
    xmlSchemaParserCtxt* p = xmlSchemaNewParserCtxt(path.c_str());
    s.reset(xmlSchemaParse(p));
    xmlSchemaFreeParserCtxt(p);
  }
  return s.get();
}

void CheckSchema(xmlDoc* doc, const std::string& file, Faults* faults) {
  xmlSchema* schema = Schema(file);
  if (!schema) {
    faults->Add("cannot read the schema " + file);
    return;
  }
  xmlSchemaValidCtxt* v = xmlSchemaNewValidCtxt(schema);
  xmlResetLastError();
  const int rc = xmlSchemaValidateDoc(v, doc);
  xmlSchemaFreeValidCtxt(v);
  if (rc != 0) {
    const xmlError* e = xmlGetLastError();
    faults->Add("not valid against " + file + ": line " + std::to_string(e ? e->line : 0) + ": " +
                (e && e->message ? std::string(e->message) : "?"));
  }
}

// --- each kind

void CheckYads(const xmlNode* root, Faults* f) {
  if (Name(root) != "yml_catalog") return f->Add("the root is <" + Name(root) + ">, not <yml_catalog>");
  if (!Matches(Attr(root, "date"), "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")) {
    f->Add("yml_catalog date '" + Attr(root, "date") + "' is not YYYY-MM-DD HH:MM:SS");
  }
  const auto top = Children(root);
  if (top.empty() || Name(top[0]) != "ads") f->Add("yml_catalog does not start with <ads>");
  if (top.size() > 2 || (top.size() == 2 && Name(top[1]) != "continue")) {
    f->Add("yml_catalog holds more than <ads> and one <continue>");
  }
  if (top.size() == 2 && !Matches(Text(top[1]), kAlnum32)) {
    f->Add("continue '" + Text(top[1]) + "' is not 1 to 32 letters and digits");
  }
  if (top.empty()) return;
  static const std::vector<std::string> order = {"title", "body",  "name", "tip",    "town", "tel", "email",
                                                 "icq",   "pic",   "date", "period", "url",  "id"};
  std::set<std::string> ids;
  int n = 0;
  for (const xmlNode* ad : Children(top[0])) {
    const std::string at = "ad " + std::to_string(++n) + " (id '" + Text(Child(ad, "id")) + "')";
    if (Name(ad) != "ad") {
      f->Add("<ads> holds <" + Name(ad) + ">");
      continue;
    }
    size_t next = 0;
    for (const xmlNode* field : Children(ad)) {
      size_t i = next;
      while (i < order.size() && order[i] != Name(field)) ++i;
      if (i == order.size()) {
        f->Add(at + ": <" + Name(field) + "> is not a field of the format or out of order");
      } else {
        next = i + 1;
      }
    }
    for (const char* required : {"title", "url", "id"}) {
      if (!Child(ad, required)) f->Add(at + ": no <" + required + ">");
    }
    const std::string id = Text(Child(ad, "id"));
    if (!Matches(id, kAlnum32)) f->Add(at + ": id is not 1 to 32 letters and digits");
    if (!ids.insert(id).second) f->Add(at + ": id sent twice");
    if (const xmlNode* tip = Child(ad, "tip"); tip && !Matches(Text(tip), "[12]")) f->Add(at + ": tip is not 1 or 2");
    for (const char* flag : {"tel", "email", "icq", "pic"}) {
      if (const xmlNode* x = Child(ad, flag); x && !Matches(Text(x), "[01]")) f->Add(at + ": " + flag + " is not 0/1");
    }
    if (const xmlNode* d = Child(ad, "date"); d && !Matches(Text(d), "[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
      f->Add(at + ": date '" + Text(d) + "' is not YYYY-MM-DD");
    }
    if (const xmlNode* p = Child(ad, "period"); p && !Matches(Text(p), "[0-9]+")) f->Add(at + ": period is not days");
    const std::string url = Text(Child(ad, "url"));
    if (url.empty() || Matches(url, "[A-Za-z][A-Za-z0-9+.-]*://.*")) f->Add(at + ": url '" + url + "' has a scheme or is empty");
  }
}

void CheckJooble(const xmlNode* root, Faults* f) {
  if (Name(root) != "jobs") return f->Add("the root is <" + Name(root) + ">, not <jobs>");
  for (const std::string& a : AttrNames(root)) {
    if (a != "hide_contacts" || Attr(root, "hide_contacts") != "1") f->Add("jobs has attribute " + a + "='" + Attr(root, a.c_str()) + "'");
  }
  static const std::set<std::string> fields = {"link",     "name",   "region", "salary",  "company", "companyinfo",
                                               "description", "contacts", "expire", "pubdate", "updated"};
  std::set<std::string> ids;
  for (const xmlNode* job : Children(root)) {
    const std::string id = Attr(job, "id");
    const std::string at = "job '" + id + "'";
    if (Name(job) != "job") {
      f->Add("<jobs> holds <" + Name(job) + ">");
      continue;
    }
    if (AttrNames(job) != std::vector<std::string>{"id"} || id.empty()) f->Add(at + ": id is not its only attribute");
    if (!ids.insert(id).second) f->Add(at + ": sent twice");
    for (const xmlNode* field : Children(job)) {
      if (!fields.count(Name(field))) f->Add(at + ": <" + Name(field) + "> is not a field of the format");
    }
    if (!Matches(Text(Child(job, "link")), kAbsoluteUrl)) f->Add(at + ": link is not an absolute URL");
    if (Text(Child(job, "name")).empty()) f->Add(at + ": no name");
    if (Text(Child(job, "contacts")).empty()) f->Add(at + ": no contacts");
    if (!Child(job, "region")) f->Add(at + ": no region");
    for (const char* date : {"expire", "pubdate", "updated"}) {
      if (const xmlNode* d = Child(job, date); d && !Matches(Text(d), "[0-9]{2}\\.[0-9]{2}\\.[0-9]{4}")) {
        f->Add(at + ": " + date + " '" + Text(d) + "' is not DD.MM.YYYY");
      }
    }
  }
}

void CheckLoc(const std::string& at, const std::string& loc, size_t max, Faults* f) {
  if (!Matches(loc, kAbsoluteUrl)) f->Add(at + ": loc '" + loc.substr(0, 80) + "' is not an absolute http(s) URL");
  if (loc.size() > max) f->Add(at + ": loc is " + std::to_string(loc.size()) + " characters");
  for (unsigned char c : loc) {
    if (c >= 0x80) return f->Add(at + ": loc holds a character that is not percent-encoded");
  }
}

void CheckSitemap(xmlDoc* doc, const xmlNode* root, bool index, size_t bytes, Faults* f) {
  CheckSchema(doc, index ? "siteindex.xsd" : "sitemap.xsd", f);
  const auto entries = Children(root, index ? "sitemap" : "url");
  if (entries.size() > 50000) f->Add(std::to_string(entries.size()) + " entries, more than 50,000");
  if (bytes > 52428800) f->Add(std::to_string(bytes) + " bytes, more than 52,428,800");
  int n = 0;
  for (const xmlNode* e : entries) CheckLoc("entry " + std::to_string(++n), Text(Child(e, "loc")), 2047, f);
}

void CheckText(const std::string& bytes, Faults* f) {
  if (!Decodes(bytes, "UTF-8")) f->Add("not UTF-8");
  if (bytes.size() > 10485760) f->Add(std::to_string(bytes.size()) + " bytes, more than 10,485,760");
  size_t lines = 0;
  for (size_t at = 0; at < bytes.size();) {
    size_t end = bytes.find('\n', at);
    if (end == std::string::npos) end = bytes.size();
    std::string line = bytes.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    CheckLoc("line " + std::to_string(++lines), line, 2047, f);
    at = end + 1;
  }
  if (lines > 50000) f->Add(std::to_string(lines) + " lines, more than 50,000");
}

void CheckBaidu(const xmlNode* root, size_t bytes, Faults* f) {
  if (Name(root) != "urlset") return f->Add("the root is <" + Name(root) + ">, not <urlset>");
  if (bytes >= 10485760) f->Add(std::to_string(bytes) + " bytes, not under 10,485,760");
  const auto urls = Children(root, "url");
  if (urls.size() > 50000) f->Add(std::to_string(urls.size()) + " urls, more than 50,000");
  static const std::set<std::string> freqs = {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"};
  int n = 0;
  for (const xmlNode* u : urls) {
    const std::string at = "url " + std::to_string(++n);
    const std::string loc = Text(Child(u, "loc"));
    if (loc.empty() || loc.size() > 256 || !Matches(loc, kAbsoluteUrl)) f->Add(at + ": loc is not 1 to 256 characters of http(s)");
    if (const xmlNode* m = Child(u, "lastmod");
        m && !Matches(Text(m), "[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2})?")) {
      f->Add(at + ": lastmod '" + Text(m) + "'");
    }
    if (const xmlNode* c = Child(u, "changefreq"); c && !freqs.count(Text(c))) f->Add(at + ": changefreq '" + Text(c) + "'");
    if (const xmlNode* p = Child(u, "priority"); p && !Matches(Text(p), "0(\\.[0-9]+)?|1(\\.0+)?")) {
      f->Add(at + ": priority '" + Text(p) + "'");
    }
    const xmlNode* data = Child(u, "data");
    const xmlNode* display = data ? Child(data, "display") : nullptr;
    if (!display) {
      f->Add(at + ": no data/display");
      continue;
    }
    for (const char* required : {"breadcrumb", "name", "filetype", "downloadUrl"}) {
      if (Text(Child(display, required)).empty()) f->Add(at + ": no " + required);
    }
    if (Text(Child(display, "fileSize")).size() < 3) f->Add(at + ": fileSize under 3 characters");
    for (const xmlNode* d : Children(display, "downloadUrl")) {
      if (!Matches(Text(d), kAbsoluteUrl)) f->Add(at + ": downloadUrl '" + Text(d) + "'");
    }
  }
}

void CheckRssItems(const xmlNode* channel, bool msn, Faults* f) {
  std::set<std::string> guids;
  int n = 0;
  for (const xmlNode* item : Children(channel, "item")) {
    const xmlNode* guid = Child(item, "guid");
    const std::string at = "item " + std::to_string(++n) + " (guid '" + Text(guid) + "')";
    if (!guid || Text(guid).empty()) {
      f->Add(at + ": no guid");
    } else {
      if (Attr(guid, "isPermaLink") != "false" && !Matches(Text(guid), kAbsoluteUrl)) {
        f->Add(at + ": a permalink guid that is not a URL");
      }
      if (!guids.insert(Text(guid)).second) f->Add(at + ": guid twice");
    }
    if (const xmlNode* l = Child(item, "link"); l && !Matches(Text(l), kAbsoluteUrl)) f->Add(at + ": link is not absolute");
    if (!Child(item, "title") && !Child(item, "description")) f->Add(at + ": neither title nor description");
    if (const xmlNode* d = Child(item, "pubDate"); d && !Matches(Text(d), kRfc822)) {
      f->Add(at + ": pubDate '" + Text(d) + "' is not RFC 822");
    }
    if (!msn) continue;
    const std::string modified = Text(Child(item, "modified"));
    if (!Matches(modified, kRfc3339Utc)) f->Add(at + ": dcterms:modified '" + modified + "' is not RFC 3339 UTC");
    const xmlNode* valid = Child(item, "valid");
    const xmlNode* expiration = Child(item, "expirationDate");
    if (!valid != !expiration) f->Add(at + ": dcterms:valid and mi:expirationDate not together");
    for (const xmlNode* d : {valid, expiration}) {
      if (d && !Matches(Text(d), kRfc3339Utc)) f->Add(at + ": " + Name(d) + " '" + Text(d) + "' is not RFC 3339 UTC");
    }
  }
}

void CheckRss(const xmlNode* root, bool msn, Faults* f) {
  if (Name(root) != "rss" || Attr(root, "version") != "2.0") return f->Add("the root is not <rss version=\"2.0\">");
  if (msn && (!DeclaresNamespace(root, "http://purl.org/dc/terms/") ||
              !DeclaresNamespace(root, "http://schemas.ingestion.microsoft.com/common/"))) {
    f->Add("the dcterms or mi namespace is not declared");
  }
  const auto channels = Children(root, "channel");
  if (channels.size() != 1) return f->Add("not one <channel>");
  const xmlNode* ch = channels[0];
  for (const char* required : {"title", "link", "description"}) {
    if (!Child(ch, required)) f->Add(std::string("channel has no ") + required);
  }
  bool self = false;
  for (const xmlNode* l : Children(ch, "link")) {
    if (Ns(l) == "http://www.w3.org/2005/Atom" && Attr(l, "rel") == "self" && Matches(Attr(l, "href"), kAbsoluteUrl)) self = true;
  }
  if (!self) f->Add("channel has no atom:link rel=\"self\" with an absolute href");
  CheckRssItems(ch, msn, f);
}

void CheckAtom(const xmlNode* root, Faults* f) {
  const std::string atom = "http://www.w3.org/2005/Atom";
  if (Name(root) != "feed" || Ns(root) != atom) return f->Add("the root is not an Atom <feed>");
  for (const char* required : {"id", "title", "updated"}) {
    if (Text(Child(root, required)).empty()) f->Add(std::string("feed has no ") + required);
  }
  if (!Matches(Text(Child(root, "updated")), kRfc3339)) f->Add("feed updated '" + Text(Child(root, "updated")) + "'");
  bool self = false;
  for (const xmlNode* l : Children(root, "link")) self = self || (Attr(l, "rel") == "self" && Matches(Attr(l, "href"), kAbsoluteUrl));
  if (!self) f->Add("feed has no link rel=\"self\"");
  const bool feed_author = Child(root, "author") != nullptr;
  std::set<std::string> ids;
  int n = 0;
  for (const xmlNode* e : Children(root, "entry")) {
    const std::string id = Text(Child(e, "id"));
    const std::string at = "entry " + std::to_string(++n) + " (id '" + id + "')";
    if (id.empty() || !ids.insert(id).second) f->Add(at + ": no id, or one used twice");
    if (!Child(e, "title")) f->Add(at + ": no title");
    if (!Matches(Text(Child(e, "updated")), kRfc3339)) f->Add(at + ": updated '" + Text(Child(e, "updated")) + "'");
    if (const xmlNode* p = Child(e, "published"); p && !Matches(Text(p), kRfc3339)) f->Add(at + ": published '" + Text(p) + "'");
    if (!Child(e, "link")) f->Add(at + ": no link");
    if (!feed_author && !Child(e, "author")) f->Add(at + ": no author");
  }
}

// The text of each child of `job` that is not in one CDATA section (the
// whole text), by element name.
std::vector<std::string> NotInCdata(const xmlNode* job) {
  std::vector<std::string> out;
  for (const xmlNode* field : Children(job)) {
    bool cdata = false, text = false;
    for (const xmlNode* c = field->children; c; c = c->next) {
      if (c->type == XML_CDATA_SECTION_NODE) cdata = true;
      if (c->type == XML_TEXT_NODE && !Matches(reinterpret_cast<const char*>(c->content), "\\s*")) text = true;
      if (c->type == XML_ENTITY_REF_NODE) text = true;
    }
    if (!cdata || text) out.push_back(Name(field));
  }
  return out;
}

void CheckIndeed(const std::string& bytes, const xmlNode* root, Faults* f) {
  if (Name(root) != "source") return f->Add("the root is <" + Name(root) + ">, not <source>");
  if (const xmlNode* d = Child(root, "lastBuildDate"); d && !Matches(Text(d), kRfc822)) {
    f->Add("lastBuildDate '" + Text(d) + "' is not RFC 822");
  }
  // Indeed reads no HTML entity: a text written as &...; in the bytes is
  // one (the five XML ones included, which CDATA makes needless).
  for (size_t amp = bytes.find('&'); amp != std::string::npos; amp = bytes.find('&', amp + 1)) {
    size_t end = bytes.find(';', amp);
    if (end != std::string::npos && end - amp <= 10 &&
        Matches(bytes.substr(amp + 1, end - amp - 1), "[a-zA-Z]+[0-9]*|#[0-9]+|#x[0-9a-fA-F]+")) {
      f->Add("an entity reference in the bytes: " + bytes.substr(amp, end - amp + 1));
      break;
    }
  }
  std::set<std::string> refs;
  for (const xmlNode* job : Children(root, "job")) {
    const std::string ref = Text(Child(job, "referencenumber"));
    const std::string at = "job '" + ref + "'";
    for (const char* field : {"title", "date", "referencenumber", "url", "company", "city", "country", "description"}) {
      if (Matches(Text(Child(job, field)), "\\s*")) f->Add(at + ": no " + field);
    }
    if (!refs.insert(ref).second) f->Add(at + ": referencenumber sent twice");
    if (!Matches(Text(Child(job, "url")), kAbsoluteUrl)) f->Add(at + ": url is not an absolute URL");
    const std::string date = Text(Child(job, "date"));
    if (!Matches(date, kRfc3339) && !Matches(date, kRfc822)) f->Add(at + ": date '" + date + "' is neither ISO 8601 nor RFC 822");
    for (const std::string& name : NotInCdata(job)) f->Add(at + ": <" + name + "> is not in CDATA");
  }
}

void CheckCareerjet(const xmlNode* root, Faults* f) {
  if (Name(root) != "jobs") return f->Add("the root is <" + Name(root) + ">, not <jobs>");
  std::set<std::string> ids;
  for (const xmlNode* job : Children(root)) {
    if (Name(job) != "job") {
      f->Add("<jobs> holds <" + Name(job) + ">");
      continue;
    }
    const std::string id = Text(Child(job, "id"));
    const std::string at = "job '" + id + "'";
    if (!AttrNames(job).empty()) f->Add(at + ": <job> has attributes");
    if (id.empty() || !ids.insert(id).second) f->Add(at + ": id empty or sent twice");
    for (const char* field : {"title", "description"}) {
      if (Matches(Text(Child(job, field)), "\\s*")) f->Add(at + ": no " + field);
    }
    if (!Matches(Text(Child(job, "url")), kAbsoluteUrl)) f->Add(at + ": url is not an absolute URL");
    if (Matches(Text(Child(Child(job, "location"), "city")), "\\s*")) f->Add(at + ": no location/city");
  }
}

}  // namespace

const char* FeedKindName(FeedKind kind) {
  switch (kind) {
    case FeedKind::kYads: return "yads";
    case FeedKind::kJooble: return "jooble";
    case FeedKind::kSitemap: return "sitemap";
    case FeedKind::kSitemapIndex: return "sitemap index";
    case FeedKind::kText: return "text sitemap";
    case FeedKind::kBaidu: return "baidu";
    case FeedKind::kRss: return "rss";
    case FeedKind::kAtom: return "atom";
    case FeedKind::kMsn: return "msn";
    case FeedKind::kIndeed: return "indeed";
    case FeedKind::kCareerjet: return "careerjet";
  }
  return "?";
}

std::vector<std::string> FeedFaults(FeedKind kind, const std::string& bytes) {
  Faults f;
  if (kind == FeedKind::kText) {
    CheckText(bytes, &f);
    return f.list;
  }
  const std::string encoding = DeclaredEncoding(bytes);
  const bool cp1251 = strcasecmp(encoding.c_str(), "windows-1251") == 0;
  const bool utf8 = strcasecmp(encoding.c_str(), "UTF-8") == 0;
  if (encoding.empty()) {
    f.Add("the first bytes are not an XML declaration naming the encoding");
  } else if (kind == FeedKind::kYads ? !cp1251 : kind == FeedKind::kJooble ? !(cp1251 || utf8) : !utf8) {
    f.Add("encoding " + encoding + " is not one the format allows");
  } else if (!Decodes(bytes, encoding)) {
    f.Add("the bytes are not " + encoding);
  }
  Doc doc = Parse(bytes, &f);
  if (!doc) return f.list;
  const xmlNode* root = xmlDocGetRootElement(doc.get());
  std::string text;
  AllText(root, &text);  // libxml2 keeps the tree in UTF-8 whatever the document's encoding
  if (const std::string bad = FirstNonXmlChar(text); !bad.empty()) f.Add("a character XML 1.0 does not allow: " + bad);
  switch (kind) {
    case FeedKind::kYads: CheckYads(root, &f); break;
    case FeedKind::kJooble: CheckJooble(root, &f); break;
    case FeedKind::kSitemap: CheckSitemap(doc.get(), root, false, bytes.size(), &f); break;
    case FeedKind::kSitemapIndex: CheckSitemap(doc.get(), root, true, bytes.size(), &f); break;
    case FeedKind::kBaidu: CheckBaidu(root, bytes.size(), &f); break;
    case FeedKind::kRss: CheckRss(root, false, &f); break;
    case FeedKind::kMsn: CheckRss(root, true, &f); break;
    case FeedKind::kAtom: CheckAtom(root, &f); break;
    case FeedKind::kIndeed: CheckIndeed(bytes, root, &f); break;
    case FeedKind::kCareerjet: CheckCareerjet(root, &f); break;
    case FeedKind::kText: break;
  }
  return f.list;
}

std::vector<std::string> IndexLocs(const std::string& bytes) {
  Faults f;
  Doc doc = Parse(bytes, &f);
  std::vector<std::string> out;
  if (!doc) return out;
  for (const xmlNode* s : Children(xmlDocGetRootElement(doc.get()), "sitemap")) out.push_back(Text(Child(s, "loc")));
  return out;
}

std::string YadsContinue(const std::string& bytes) {
  Faults f;
  Doc doc = Parse(bytes, &f);
  return doc ? Text(Child(xmlDocGetRootElement(doc.get()), "continue")) : "";
}

}  // namespace feed::testing
