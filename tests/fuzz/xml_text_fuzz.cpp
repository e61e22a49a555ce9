// Fuzz target for xml_text: whatever bytes the database hands over, what
// AppendXml writes is well-formed XML in the declared charset and reads back
// as the cleaned input; and AppendXmlCp1251, on the bytes as windows-1251,
// writes what AppendXml writes for them read as UTF-8.
#include <iconv.h>
#include <tinyxml2.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "xml_text.h"
#include "cp1251_reference.h"

namespace {

using feed::testing::Cp1251ToUtf8;

using feed::Charset;
using feed::XmlContext;

void Check(bool ok, const char* what, std::string_view in, std::string_view out) {
  if (ok) return;
  std::fprintf(stderr, "xml_text_fuzz: %s\n  input  (%zu bytes)\n  output \"%.*s\"\n", what, in.size(),
               static_cast<int>(out.size()), out.data());
  std::abort();
}

bool IsCleanUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t len;
    std::optional<char32_t> cp = feed::DecodeUtf8(s.substr(i), &len);
    if (!cp || !feed::IsXmlChar(*cp)) return false;
    i += len;
  }
  return true;
}

bool IsLegalCp1251(std::string_view s) {
  for (unsigned char b : s) {
    if (b == 0x98 || !feed::IsXmlChar(feed::FromCp1251(b))) return false;
  }
  return true;
}

using feed::fuzz::IsValidUtf8;

// AssignCp1251AsUtf8 reads the input as windows-1251 and gives what the
// byte-by-byte Cp1251ToUtf8 gives, valid UTF-8; and the same from every
// start in the first block (its fast path works 16 bytes at a time), into a
// string that held something else before.
void CheckCp1251AsUtf8(std::string_view in) {
  const std::string want = Cp1251ToUtf8(in);
  std::string out = "stale";
  feed::AssignCp1251AsUtf8(out, in);
  Check(out == want, "AssignCp1251AsUtf8 differs from the reference", in, out);
  Check(IsValidUtf8(out), "AssignCp1251AsUtf8 wrote invalid UTF-8", in, out);
  size_t skip = 0;  // UTF-8 bytes of in[0, k)
  for (size_t k = 1; k <= std::min<size_t>(in.size(), 17); ++k) {
    skip += Cp1251ToUtf8(in.substr(k - 1, 1)).size();
    feed::AssignCp1251AsUtf8(out, in.substr(k));
    Check(std::string_view(out) == std::string_view(want).substr(skip),
          "AssignCp1251AsUtf8 differs from the reference on a suffix", in.substr(k), out);
  }
}

// AppendXmlCp1251 writes what AppendXml writes for the input read as
// windows-1251 (Cp1251ToUtf8), in every context, after what `out` may
// already hold ("]]" and "]" matter to a CDATA section); and the same from
// every start in the first block (one context each), for the 16-byte fast
// paths.
void CheckXmlCp1251(std::string_view in) {
  const std::string utf8 = Cp1251ToUtf8(in);
  for (XmlContext ctx : {XmlContext::kText, XmlContext::kAttribute, XmlContext::kCData}) {
    for (const char* prefix : {"", "]", "]]"}) {
      std::string out = prefix, want = prefix;
      feed::AppendXmlCp1251(out, in, ctx);
      feed::AppendXml(want, utf8, ctx, Charset::kWindows1251);
      Check(out == want, "AppendXmlCp1251 differs from AppendXml of the text as UTF-8", in, out);
    }
  }
  for (size_t k = 1; k <= std::min<size_t>(in.size(), 17); ++k) {
    const std::string_view rest = in.substr(k);
    const XmlContext ctx = k % 3 == 0 ? XmlContext::kText : k % 3 == 1 ? XmlContext::kAttribute : XmlContext::kCData;
    std::string out = "]]", want = "]]";
    feed::AppendXmlCp1251(out, rest, ctx);
    feed::AppendXml(want, Cp1251ToUtf8(rest), ctx, Charset::kWindows1251);
    Check(out == want, "AppendXmlCp1251 differs from AppendXml of the text as UTF-8 on a suffix", rest, out);
  }
}

// Every '&' starts &amp; &lt; &gt; &quot; or a decimal reference.
bool AmpersandsStartReferences(std::string_view s) {
  for (size_t i = s.find('&'); i != std::string_view::npos; i = s.find('&', i + 1)) {
    std::string_view rest = s.substr(i);
    if (rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;") ||
        rest.starts_with("&quot;")) {
      continue;
    }
    size_t j = 2;
    if (!rest.starts_with("&#")) return false;
    while (j < rest.size() && rest[j] >= '0' && rest[j] <= '9') ++j;
    if (j == 2 || j == rest.size() || rest[j] != ';') return false;
  }
  return true;
}

std::string WithoutLineEnds(std::string s) {
  std::erase(s, '\r');
  std::erase(s, '\n');
  return s;
}

// Parses <a v="attr">[body]</a> (body raw, already escaped or a CDATA
// section) and checks that both read back as `want`. The brackets keep
// tinyxml2 from discarding a whitespace-only text node; line ends in
// element content are compared loosely because end-of-line handling, not
// escaping, decides them.
void CheckParses(std::string_view in, const std::string& attr, const std::string& body, const std::string& want) {
  std::string xml = "<a v=\"" + attr + "\">[" + body + "]</a>";
  tinyxml2::XMLDocument doc;
  Check(doc.Parse(xml.data(), xml.size()) == tinyxml2::XML_SUCCESS, "tinyxml2 rejects the document", in, xml);
  const tinyxml2::XMLElement* root = doc.RootElement();
  Check(root != nullptr, "no root element", in, xml);
  const char* v = root->Attribute("v");
  Check(v != nullptr && want == v, "attribute does not read back", in, xml);
  std::string text;
  for (const tinyxml2::XMLNode* n = root->FirstChild(); n != nullptr; n = n->NextSibling()) {
    const tinyxml2::XMLText* t = n->ToText();
    Check(t != nullptr, "element content is not text", in, xml);
    text += t->Value();
  }
  Check(WithoutLineEnds(text) == WithoutLineEnds("[" + want + "]"), "text does not read back", in, xml);
}

// KOI8-R bytes as UTF-8, by the C library's iconv (every byte is a
// character of the set).
std::string Koi8rToUtf8(const std::string& bytes) {
  static iconv_t cd = iconv_open("UTF-8", "KOI8-R");
  iconv(cd, nullptr, nullptr, nullptr, nullptr);
  std::string out(bytes.size() * 3 + 4, '\0');
  char* ip = const_cast<char*>(bytes.data());
  char* op = out.data();
  size_t il = bytes.size(), ol = out.size();
  Check(iconv(cd, &ip, &il, &op, &ol) != static_cast<size_t>(-1), "iconv cannot read the KOI8-R output", bytes, bytes);
  out.resize(out.size() - ol);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::string clean = feed::CleanUtf8(in);
  Check(IsCleanUtf8(clean), "CleanUtf8 left something", in, clean);
  Check(feed::CleanUtf8(clean) == clean, "CleanUtf8 is not idempotent", in, clean);
  CheckCp1251AsUtf8(in);
  CheckXmlCp1251(in);

  static const Charset koi8 = *Charset::Named("KOI8-R");  // a set of the iconv table kind
  for (const Charset& cs : {Charset::kUtf8, Charset::kWindows1251, koi8}) {
    const bool utf8 = cs == Charset::kUtf8;
    const bool cp1251 = cs == Charset::kWindows1251;
    std::string text, attr, cdata, encoded;
    feed::AppendXml(text, in, XmlContext::kText, cs);
    feed::AppendXml(attr, in, XmlContext::kAttribute, cs);
    feed::AppendXml(cdata, in, XmlContext::kCData, cs);
    feed::AppendEncoded(encoded, in, cs);

    for (const std::string* out : {&text, &attr, &cdata, &encoded}) {
      Check(utf8 ? IsCleanUtf8(*out) : cp1251 ? IsLegalCp1251(*out) : IsCleanUtf8(Koi8rToUtf8(*out)),
            utf8 ? "not clean UTF-8" : cp1251 ? "byte outside windows-1251's legal characters" : "not KOI8-R text", in,
            *out);
    }
    if (utf8) Check(encoded == clean, "AppendEncoded UTF-8 differs from CleanUtf8", in, encoded);

    Check(text.find('<') == std::string::npos, "raw '<' in text", in, text);
    Check(text.find('>') == std::string::npos, "raw '>' in text", in, text);
    Check(AmpersandsStartReferences(text), "bare '&' in text", in, text);
    Check(attr.find_first_of("<>\"\t\n\r") == std::string::npos, "raw character in attribute", in, attr);
    Check(AmpersandsStartReferences(attr), "bare '&' in attribute", in, attr);

    {
      // Only here may the wrapper go around the output untouched: it is
      // the document the brief promises to parse.
      std::string doc_text = "<a>" + (utf8 ? text : cp1251 ? Cp1251ToUtf8(text) : Koi8rToUtf8(text)) + "</a>";
      tinyxml2::XMLDocument doc;
      Check(doc.Parse(doc_text.data(), doc_text.size()) == tinyxml2::XML_SUCCESS, "tinyxml2 rejects <a>text</a>", in,
            doc_text);
    }
    // tinyxml2 reads UTF-8 only; windows-1251 bytes are converted first,
    // which leaves the references for it to resolve.
    auto as_utf8 = [&](const std::string& s) { return utf8 ? s : cp1251 ? Cp1251ToUtf8(s) : Koi8rToUtf8(s); };
    CheckParses(in, as_utf8(attr), as_utf8(text), clean);
    CheckParses(in, as_utf8(attr), "<![CDATA[" + as_utf8(cdata) + "]]>", clean);
  }
  return 0;
}
