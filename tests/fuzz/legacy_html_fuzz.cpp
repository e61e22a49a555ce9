// Fuzz target for legacy_html: whatever users typed, the plain text is clean
// trimmed UTF-8 that XML escaping can take as it is, and markup never
// survives or reassembles into a tag; the windows-1251 way, on the bytes as
// windows-1251, agrees with it.
#include <tinyxml2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "legacy_html.h"
#include "xml_text.h"
#include "cp1251_reference.h"

namespace {

using feed::testing::Cp1251ToUtf8;
using feed::testing::Utf8ToCp1251;

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

// LegacyHtmlToTextCp1251 on the input as windows-1251 bytes gives
// LegacyHtmlToText of them read as UTF-8, written back in windows-1251; or
// nullopt exactly when that holds a character the code page lacks. A
// U+FFFD that a reference (&#65533;) made, not a 0x98 byte, may go either
// way: then only the escaped forms must agree.
void CheckCp1251(std::string_view in) {
  const std::optional<std::string> got = feed::LegacyHtmlToTextCp1251(in);
  const std::string utf8 = feed::LegacyHtmlToText(Cp1251ToUtf8(in));
  const std::optional<std::string> want = Utf8ToCp1251(utf8);
  if (!want) {
    Check(!got, "LegacyHtmlToTextCp1251 gave text where the code page lacks a character of the result", in,
          got ? *got : std::string());
    return;
  }
  std::string no98(in);
  for (char& c : no98) {
    if (c == '\x98') c = '\xC6';
  }
  const bool fffd_from_reference = feed::LegacyHtmlToText(Cp1251ToUtf8(no98)).find("\uFFFD") != std::string::npos;
  if (fffd_from_reference) {
    if (!got) return;
    std::string got_xml, want_xml;
    feed::AppendXmlCp1251(got_xml, *got, feed::XmlContext::kText);
    feed::AppendXml(want_xml, utf8, feed::XmlContext::kText, feed::Charset::kWindows1251);
    Check(got_xml == want_xml, "LegacyHtmlToTextCp1251 escapes otherwise than the UTF-8 way", in, *got);
    return;
  }
  Check(got.has_value(), "LegacyHtmlToTextCp1251 gave nullopt where the code page has every character", in, *want);
  Check(*got == *want, "LegacyHtmlToTextCp1251 differs from the UTF-8 way", in, *got);
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

  CheckCp1251(in);
  return 0;
}
