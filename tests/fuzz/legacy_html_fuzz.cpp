// Fuzz target for legacy_html: whatever users typed, the plain text is clean
// trimmed UTF-8 that XML escaping can take as it is, and markup never
// survives or reassembles into a tag.
#include <tinyxml2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "legacy_html.h"
#include "xml_text.h"

namespace {

void Check(bool ok, const char* what, std::string_view in, std::string_view out) {
  if (ok) return;
  std::fprintf(stderr, "legacy_html_fuzz: %s\n  input  (%zu bytes)\n  output \"%.*s\"\n", what, in.size(),
               static_cast<int>(out.size()), out.data());
  std::abort();
}

bool IsTagStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '/' || c == '!' || c == '?'; }

void CheckPlainText(std::string_view in, const std::string& out) {
  Check(feed::CleanUtf8(out) == out, "output is not clean UTF-8", in, out);
  for (unsigned char c : out) {
    Check(c >= 0x20 || c == '\n', "control character in output", in, out);
  }
  if (!out.empty()) {
    Check(out.front() != ' ' && out.front() != '\n', "output not trimmed at the start", in, out);
    Check(out.back() != ' ' && out.back() != '\n', "output not trimmed at the end", in, out);
  }
  for (std::string_view run : {"  ", "\n\n", " \n", "\n "}) {
    Check(out.find(run) == std::string::npos, "whitespace run not collapsed", in, out);
  }

  std::string xml = "<a>";
  feed::AppendXml(xml, out, feed::XmlContext::kText, feed::Charset::kUtf8);
  xml += "</a>";
  tinyxml2::XMLDocument doc;
  Check(doc.Parse(xml.data(), xml.size()) == tinyxml2::XML_SUCCESS, "escaped output does not parse", in, xml);
}

// With no '&' in the input nothing is decoded, so a '<' followed by what
// would open a tag (and "<script" in particular) can only come from the
// conversion itself.
void CheckNoTags(std::string_view in, const std::string& out) {
  for (size_t i = out.find('<'); i != std::string::npos; i = out.find('<', i + 1)) {
    Check(i + 1 == out.size() || !IsTagStart(out[i + 1]), "a tag survives", in, out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::string out = feed::LegacyHtmlToText(in);
  CheckPlainText(in, out);
  if (in.find('&') == std::string_view::npos) CheckNoTags(in, out);

  // "&lt;script&gt;" rightly decodes to the text "<script>", so the tag
  // check runs again on the input with its references defused.
  std::string defused(in);
  for (char& c : defused) {
    if (c == '&') c = ' ';
  }
  const std::string defused_out = feed::LegacyHtmlToText(defused);
  CheckPlainText(defused, defused_out);
  CheckNoTags(defused, defused_out);
  return 0;
}
