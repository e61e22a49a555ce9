#include "legacy_html.h"

#include <gtest/gtest.h>

#include "text_samples.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "xml_text.h"
#include "cp1251_reference.h"

namespace feed {
namespace {

using feed::testing::Cp1251ToUtf8;
using feed::testing::Utf8ToCp1251;

using feed::testing::PlainText;
using feed::testing::Visible;

using namespace std::string_literals;

struct Case {
  std::string name;
  std::string in;
  std::string want;
};

void ExpectConversions(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    EXPECT_EQ(Visible(LegacyHtmlToText(c.in)), Visible(c.want)) << c.name << ": \"" << Visible(c.in) << "\"";
  }
}

TEST(LegacyHtmlTest, RealBoardText) {
  ExpectConversions({
      {"board sample",
       "  <b>Срочно!</b> Продам &quot;Жигули&quot;<br>тел. &#8470;5 &#128512;\x01 "
       "<script>alert(1)</script>  ",
       "Срочно! Продам \"Жигули\"\nтел. №5 😀"},
      {"plain text untouched", "Продам гараж, 3х6 м.", "Продам гараж, 3х6 м."},
      {"empty", "", ""},
      {"only markup", "<p><br></p>", ""},
  });
}

TEST(LegacyHtmlTest, Tags) {
  ExpectConversions({
      {"inline tags removed", "<b>bold</b> <i>it</i>", "bold it"},
      {"tags join words", "a<span>b</span>c", "abc"},
      {"attributes", "<a href=\"http://x/?a=1&b=2\" target=_blank>link</a>", "link"},
      {"upper case", "<IMG SRC=x.jpg>pic<FONT color=red>!</FONT>", "pic!"},
      {"up to the next '>' even in quotes", "<a title=\"x>y\">z</a>", "y\">z"},
      {"doctype", "<!DOCTYPE html>x", "x"},
      {"processing instruction", "<?xml version=\"1.0\"?>x", "x"},
      {"close tag only", "x</b>y", "xy"},
      {"close tag of script alone", "</script>text", "text"},
      {"cyrillic after '<' is text", "<Цена> 100", "<Цена> 100"},
      {"nested '<' inside a tag", "<scr<script>x</script>ipt>y", "xipt>y"},
  });
}

TEST(LegacyHtmlTest, ElementsRemovedWithTheirContent) {
  ExpectConversions({
      {"script", "a<script>alert(1)</script>b", "ab"},
      {"script mixed case with attributes", "a<SCRIPT type=\"text/javascript\">x</ScRiPt >b", "ab"},
      {"script containing markup", "<script>if (a<b && c>d) {}</script>ok", "ok"},
      {"script containing a split close tag", "<script>document.write('</scr'+'ipt>')</script>ok", "ok"},
      {"two scripts", "<script>a</script>b<script>c</script>d", "bd"},
      {"script never closed", "text<script>alert(1)", "text"},
      {"script tag never closed", "text<script", "text"},
      {"self-closing script still opens", "a<script/>b</script>c", "ac"},
      {"close tag needs a boundary", "a<script>b</scripts>c</script>d", "ad"},
      {"close tag with attribute", "a<style>b</style x=1>c", "ac"},
      {"close tag at the end without '>'", "a<script>b</script", "a"},
      {"scriptx is just a tag", "<scriptx>a</scriptx>b", "ab"},
      {"script-x is just a tag", "<script-x>a</script-x>b", "ab"},
      {"script-x does not close script", "<script>a</script-x>b</script>c", "c"},
      {"close tag with whitespace", "<script>a</script\n>b", "b"},
      {"style", "<style>p { color: red }</style>text", "text"},
      {"noscript", "a<noscript>enable JS</noscript>b", "ab"},
      {"iframe", "a<iframe src=x>fallback</iframe>b", "ab"},
      {"object", "a<object data=x><param name=y>fallback</object>b", "ab"},
      {"template", "a<template><p>t</p></template>b", "ab"},
      {"evasion by nesting", "<<script>script>alert(1)<</script>/script>", "< /script>"},
  });
}

TEST(LegacyHtmlTest, Comments) {
  ExpectConversions({
      {"comment", "a<!-- hidden -->b", "ab"},
      {"comment with dashes", "a<!-- x -- y --->b", "ab"},
      {"empty comment", "a<!---->b", "ab"},
      {"abrupt empty comment", "a<!-->b", "ab"},
      {"abrupt empty comment with three dashes", "a<!--->b", "ab"},
      {"comment hides markup", "a<!-- <script>alert(1)</script> -->b", "ab"},
      {"unterminated comment", "a<!-- never closed <b>x</b>", "a"},
      {"multi-line comment", "a<!--\nline\n-->b", "ab"},
  });
}

TEST(LegacyHtmlTest, LineBreakTags) {
  ExpectConversions({
      {"br", "a<br>b", "a\nb"},
      {"br self-closing", "a<br/>b", "a\nb"},
      {"br self-closing with space", "a<br />b", "a\nb"},
      {"br upper case", "a<BR>b", "a\nb"},
      {"br mixed case with attribute", "a<bR clear=all>b", "a\nb"},
      {"close br", "a</br>b", "a\nb"},
      {"brx is not br", "a<brx>b", "ab"},
      {"br- is not br", "a<br->b", "ab"},
      {"several br collapse", "a<br><br><br>b", "a\nb"},
      {"br with spaces around", "a <br> b", "a\nb"},
      {"br at the ends trimmed", "<br>a<br>", "a"},
      {"paragraphs", "<p>a</p><p>b</p>", "a\nb"},
      {"div", "<div class=x>a</div>b", "a\nb"},
      {"list items", "<ul><li>a<li>b</ul>", "a\nb"},
      {"headings", "<h1>T</h1>text<h6>U</h6>", "T\ntext\nU"},
      {"h7 is not a heading", "a<h7>b", "ab"},
      {"table rows", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "ab\nc"},
  });
}

TEST(LegacyHtmlTest, NamedEntities) {
  ExpectConversions({
      {"the five", "&quot;&amp;&lt;&gt;&apos;", "\"&<>'"},
      {"guillemets", "&laquo;Ёлка&raquo;", "«Ёлка»"},
      {"dashes", "a&mdash;b&ndash;c&hellip;", "a—b–c…"},
      {"signs", "&copy;&euro;&trade;&reg;&deg;&plusmn;&sect;", "©€™®°±§"},
      {"quotes", "&bdquo;x&ldquo; &lsquo;y&rsquo;", "„x“ ‘y’"},
      {"case matters", "&Alpha;&alpha;&Dagger;&dagger;", "Αα‡†"},
      {"first and last in the table", "&AElig;&zwnj;", "Æ\u200C"},
      {"longest name", "&thetasym;", "ϑ"},
      {"latin", "&eacute;&Uuml;&szlig;&ntilde;", "éÜßñ"},
      {"math", "&le;&ge;&ne;&infin;&sum;&radic;", "≤≥≠∞∑√"},
      {"arrows", "&larr;&rarr;&hArr;", "←→⇔"},
      {"nbsp is a space", "a&nbsp;b", "a b"},
      {"nbsp collapses", "a&nbsp;&nbsp; &nbsp;b", "a b"},
      {"nbsp trimmed", "&nbsp;a&nbsp;", "a"},
      {"decoded '<' is text, not a tag", "&lt;b&gt;bold&lt;/b&gt;", "<b>bold</b>"},
  });
}

TEST(LegacyHtmlTest, NumericReferences) {
  ExpectConversions({
      {"decimal numero", "&#8470;5", "№5"},
      {"hex numero", "&#x2116;", "№"},
      {"hex upper X", "&#X2116;", "№"},
      {"hex upper digits", "&#x1F600;", "😀"},
      {"hex lower digits", "&#x1f600;", "😀"},
      {"decimal emoji", "&#128512;", "😀"},
      {"leading zeros", "&#65;&#x41;&#0065;&#x00041;", "AAAA"},
      {"cyrillic", "&#1046;&#x436;", "Жж"},
      {"largest", "&#1114111;", "\U0010FFFF"},
      {"windows-1252 en dash", "&#150;", "–"},
      {"windows-1252 em dash", "&#151;", "—"},
      {"windows-1252 ellipsis", "&#133;", "…"},
      {"windows-1252 euro", "&#x80;", "€"},
      {"tab reference is a space", "a&#9;b", "a b"},
      {"LF references collapse", "a&#10;&#10;b", "a\nb"},
      {"CR LF references", "a&#13;&#10;b", "a\nb"},
      {"nbsp reference", "a&#160;&#xA0;b", "a b"},
  });
}

TEST(LegacyHtmlTest, DecodesOnce) {
  ExpectConversions({
      {"double-encoded quote", "&amp;quot;", "&quot;"},
      {"double-encoded amp", "&amp;amp;", "&amp;"},
      {"double-encoded numeric", "&amp;#8470;", "&#8470;"},
      {"double-encoded tag", "&amp;lt;b&amp;gt;", "&lt;b&gt;"},
      {"reference decoded to '&' does not start another", "&#38;quot;", "&quot;"},
      {"reference decoded to '<' does not start a tag", "&#60;script&#62;", "<script>"},
  });
}

TEST(LegacyHtmlTest, ReferencesKeptAsTyped) {
  ExpectConversions({
      {"unknown name", "&foo;", "&foo;"},
      {"HTML 4 names are case-sensitive", "&AMP;&Quot;", "&AMP;&Quot;"},
      {"bare ampersand", "AT&T", "AT&T"},
      {"spaced ampersand", "a & b", "a & b"},
      {"ampersand at the end", "a&", "a&"},
      {"no semicolon", "&quot", "&quot"},
      {"no semicolon before text", "&quotx", "&quotx"},
      {"decimal without semicolon", "&#8470 ", "&#8470"},
      {"no digits", "&#;", "&#;"},
      {"no hex digits", "&#x;", "&#x;"},
      {"bad hex digits", "&#xZZ;", "&#xZZ;"},
      {"letters after digits", "&#12a;", "&#12a;"},
      {"empty name", "&;", "&;"},
      {"name too long", "&thetasymx;", "&thetasymx;"},
      {"very long name", "&abcdefghijklmnopqrstuvwxyz;", "&abcdefghijklmnopqrstuvwxyz;"},
      {"unknown then known", "&foo;&amp;", "&foo;&"},
      {"ampersand before a reference", "&&amp;", "&&"},
  });
}

TEST(LegacyHtmlTest, InvalidReferencesDropped) {
  ExpectConversions({
      {"zero", "a&#0;b", "ab"},
      {"surrogate", "a&#xD800;b", "ab"},
      {"low surrogate", "a&#57343;b", "ab"},
      {"past U+10FFFF", "a&#1114112;b", "ab"},
      {"past U+10FFFF hex", "a&#x110000;b", "ab"},
      {"huge", "a&#99999999999999999999999;b", "ab"},
      {"huge hex", "a&#xFFFFFFFFFFFFFFFF41;b", "ab"},
      {"control", "a&#1;b", "ab"},
      {"control hex", "a&#x1F;b", "ab"},
      {"DEL", "a&#127;b", "ab"},
      {"windows-1252 hole", "a&#129;b", "ab"},
      {"U+FFFE", "a&#xFFFE;b", "ab"},
      {"U+FFFF", "a&#65535;b", "ab"},
  });
}

TEST(LegacyHtmlTest, LessThanThatIsText) {
  ExpectConversions({
      {"spaced", "a < b", "a < b"},
      {"digit", "5<6", "5<6"},
      {"operator", "1 <= 2", "1 <= 2"},
      {"arrow", "a <- b", "a <- b"},
      {"heart", "I <3 it", "I <3 it"},
      {"alone", "<", "<"},
      {"at the end", "x<", "x<"},
      {"before space and '>'", "< >", "< >"},
      {"doubled before a tag", "<<b>x", "< x"},
      {"doubled before a digit", "<<b>5", "<5"},
      {"before a dropped control", "<\x01script>", "< script>"},
      {"before a dropped byte", "<\xFFscript>", "< script>"},
      {"before a comment", "<<!-- -->script>", "< script>"},
  });
}

TEST(LegacyHtmlTest, Whitespace) {
  ExpectConversions({
      {"trim and collapse", "  a   b  ", "a b"},
      {"tabs", "a\t\tb", "a b"},
      {"spaces and tabs", "a \t b", "a b"},
      {"blank lines", "a\n\n\nb", "a\nb"},
      {"lines of spaces", "a \n \n b", "a\nb"},
      {"CR LF", "a\r\nb", "a\nb"},
      {"lone CR", "a\rb", "a\nb"},
      {"CR LF blank lines", "a\r\n\r\nb", "a\nb"},
      {"leading and trailing lines", "\n\na\n\n", "a"},
      {"only whitespace", " \t\r\n ", ""},
      {"literal nbsp is a character", "a\u00A0b", "a\u00A0b"},
      {"removed tag keeps the spaces around it", "a <b> </b> b", "a b"},
  });
}

TEST(LegacyHtmlTest, ControlCharactersAndInvalidBytes) {
  ExpectConversions({
      {"C0 controls",
       "a\x01"
       "b\x08"
       "c\x0B"
       "d\x0C"
       "e\x1F"
       "f\x7F"
       "g",
       "abcdefg"},
      {"NUL",
       "a\x00"
       "b"s,
       "ab"},
      {"C1 control", "a\u0085b\u009Fc", "abc"},
      {"control between spaces", "a \x01 b", "a b"},
      {"overlong",
       "a\xC0\xAF"
       "b",
       "ab"},
      {"FF byte",
       "a\xFF"
       "b",
       "ab"},
      {"stray continuation",
       "a\x80"
       "b",
       "ab"},
      {"truncated at the end", "Ж\xE2\x82", "Ж"},
      {"surrogate",
       "a\xED\xA0\x80"
       "b",
       "ab"},
      {"U+FFFE",
       "a\xEF\xBF\xBE"
       "b",
       "ab"},
      {"F5 lead",
       "a\xF5\x80\x80\x80"
       "b",
       "ab"},
  });
}

TEST(LegacyHtmlTest, UnterminatedTagAtTheEnd) {
  ExpectConversions({
      {"open tag", "text <b", "text"},
      {"open tag with attribute", "text <a href=\"x", "text"},
      {"close tag start", "a</", "a"},
      {"bang", "a<!", "a"},
      {"question mark", "a<?", "a"},
      {"script", "a<script", "a"},
      {"comment start", "a<!--", "a"},
  });
}

// Random inputs over an alphabet of the things board text is made of.
std::string RandomHtml(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {
      "a",      "Ж",       "😀",    " ",         "  ",        "\t",       "\n",           "\r",       "\r\n",
      "\x01",   "\x00"s,   "\x7F", "\xC2\x85",  "\xFF",      "\xE2\x82", "\xED\xA0\x80", "<",        ">",
      "/",      "!",       "?",    "-",         "=",         "\"",       "<b>",          "</b>",     "<br>",
      "<br />", "<p>",     "<li>", "<script>",  "</script>", "<SCRIPT",  "script",       "<style>",  "</style>",
      "<!--",   "-->",     "&",    ";",         "#",         "x",        "&amp;",        "&quot;",   "&nbsp;",
      "&lt;",   "&#8470;", "&#0;", "&#x1F600;", "&#150;",    "&#9;",     "&#10;",        "&#xD800;", "&foo;",
  };
  std::uniform_int_distribution<size_t> count(0, 20);
  std::uniform_int_distribution<size_t> pick(0, kPieces.size() - 1);
  std::string s;
  for (size_t n = count(rng); n > 0; --n) s += kPieces[pick(rng)];
  return s;
}

TEST(LegacyHtmlTest, OutputIsCleanTrimmedText) {
  std::mt19937 rng(8470);
  for (int iter = 0; iter < 20000; ++iter) {
    std::string in = RandomHtml(rng);
    std::string out = LegacyHtmlToText(in);
    ASSERT_EQ(CleanUtf8(out), out) << Visible(in);
    if (out.empty()) continue;
    EXPECT_NE(out.front(), ' ') << Visible(in);
    EXPECT_NE(out.front(), '\n') << Visible(in);
    EXPECT_NE(out.back(), ' ') << Visible(in);
    EXPECT_NE(out.back(), '\n') << Visible(in);
    for (std::string_view bad : {"  ", "\n\n", " \n", "\n ", "\t", "\r"}) {
      EXPECT_EQ(out.find(bad), std::string::npos) << Visible(in) << " -> " << Visible(out);
    }
    if (in.find('&') == std::string::npos) {
      // Without references nothing can spell a tag back into the text.
      for (size_t i = 0; i + 1 < out.size(); ++i) {
        char c = out[i + 1];
        bool tag_start = std::isalpha(static_cast<unsigned char>(c)) || c == '/' || c == '!' || c == '?';
        EXPECT_FALSE(out[i] == '<' && tag_start) << Visible(in) << " -> " << Visible(out);
      }
    }
  }
}

// LegacyHtmlToText for text with no markup and no references, one code
// point at a time as the header describes it: the oracle for the fast path.
// Markup and references in the tests below are replaced by what they amount
// to: a dropped control for removed markup, LF for a line break, the
// character for a reference.
std::string ReferencePlain(std::string_view in) {
  enum class Gap { kNone, kSpace, kLine } gap = Gap::kNone;
  bool guard = false;  // a '<' before something removed
  std::string out;
  for (size_t i = 0; i < in.size();) {
    size_t len;
    std::optional<char32_t> cp = DecodeUtf8(in.substr(i), &len);
    i += len;
    const char32_t c = cp.value_or(0);
    if (c == ' ' || c == '\t') {
      if (gap == Gap::kNone) gap = Gap::kSpace;
    } else if (c == '\n' || c == '\r') {
      gap = Gap::kLine;
    } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || !IsXmlChar(c)) {
      if (gap == Gap::kNone && !out.empty() && out.back() == '<') guard = true;
    } else {
      const bool tag_start = c < 0x80 && (std::isalpha(static_cast<int>(c)) || c == '/' || c == '!' || c == '?');
      if (!out.empty()) {
        if (gap == Gap::kLine) {
          out += '\n';
        } else if (gap == Gap::kSpace || (guard && tag_start)) {
          out += ' ';
        }
      }
      gap = Gap::kNone;
      guard = false;
      AppendUtf8(out, c);
    }
  }
  return out;
}

// Pieces of board text and what each amounts to for ReferencePlain.
const std::vector<std::pair<std::string, std::string>> kPieces = {
    {" ", " "},
    {"  ", "  "},
    {"\t", "\t"},
    {" \t ", " \t "},
    {"\n", "\n"},
    {"\r\n", "\r\n"},
    {"\r", "\r"},
    {" \n ", " \n "},
    {"\x01", "\x01"},
    {"\x00"s, "\x00"s},
    {"\x7F", "\x7F"},
    {"\xC2\x85", "\xC2\x85"},
    {"\u00A0", "\u00A0"},
    {"«", "«"},
    {"é", "é"},
    {"Ђ", "Ђ"},
    {"—", "—"},
    {"№", "№"},
    {"😀", "😀"},
    {"\xEF\xBF\xBE", "\xEF\xBF\xBE"},
    {"\xFF", "\xFF"},
    {"\x80", "\x80"},
    {"\xD0", "\xD0"},
    {"\xD0x", "\xD0x"},
    {"\xD1 ", "\xD1 "},
    {"\xC3", "\xC3"},
    {"\xE2\x82", "\xE2\x82"},
    {"\xC0\xAF", "\xC0\xAF"},
    {"'\"", "'\""},
    {"<b>", "\x01"},
    {"</b>", "\x01"},
    {"<br>", "\n"},
    {"<br />", "\n"},
    {"<p>", "\n"},
    {"<script>x</script>", "\x01"},
    {"<!-- c -->", "\x01"},
    {"&amp;", "&"},
    {"&lt;", "<"},
    {"&quot;", "\""},
    {"&nbsp;", " "},
    {"&#10;", "\n"},
    {"&#9;", " "},
    {"&#8470;", "№"},
    {"&#128512;", "😀"},
    {"&#0;", "\x01"},
    {" < ", " < "},
    {"&lt;<b>", "<\x01"},
};

TEST(LegacyHtmlTest, FastPathMatchesTheReferenceAtEveryOffset) {
  for (size_t before = 0; before <= 36; ++before) {
    for (int variant = 0; variant < 3; ++variant) {
      const std::string head = PlainText(before, variant);
      ASSERT_EQ(head.size(), before);
      for (const auto& [piece, meaning] : kPieces) {
        for (size_t after : {0, 1, 2, 17, 40}) {
          const std::string tail = PlainText(after, variant);
          const std::string in = head + piece + tail;
          EXPECT_EQ(Visible(LegacyHtmlToText(in)), Visible(ReferencePlain(head + meaning + tail))) << Visible(in);
        }
      }
    }
  }
}

TEST(LegacyHtmlTest, RandomTextMatchesTheReference) {
  static const std::vector<std::string> kCommon = {"а", "я", "Ж", "П", "р", "о", "е", "т",
                                                   "a", "Z", "5", ",", " ", "Ё", "ё"};
  std::mt19937 rng(1251);
  for (int iter = 0; iter < 5000; ++iter) {
    std::string in, meaning;
    const size_t pieces = rng() % (iter % 10 == 0 ? 400 : 60);
    const unsigned rare = 2 + rng() % 30;
    for (size_t k = 0; k < pieces; ++k) {
      if (rng() % rare == 0) {
        const auto& [piece, means] = kPieces[rng() % kPieces.size()];
        in += piece;
        meaning += means;
      } else {
        const std::string& c = kCommon[rng() % kCommon.size()];
        in += c;
        meaning += c;
      }
    }
    ASSERT_EQ(Visible(LegacyHtmlToText(in)), Visible(ReferencePlain(meaning))) << Visible(in);
  }
}

TEST(LegacyHtmlTest, LongText) {
  // 20 KB bodies: long runs on the fast path, with and without breaks.
  std::string in, want;
  for (int k = 0; k < 2000; ++k) {
    const bool line = k % 97 == 0;
    in += line ? "<br>  Ёлка,\t\tёжик  " : "Продам гараж ";
    if (k > 0) want += line ? "\n" : " ";
    want += line ? "Ёлка, ёжик" : "Продам гараж";
  }
  const std::string out = LegacyHtmlToText(in);
  EXPECT_EQ(out.size(), want.size());
  EXPECT_TRUE(out == want);
}

}  // namespace
}  // namespace feed

// LegacyHtmlToTextCp1251: the same conversion on windows-1251 bytes
// (issue #12). The oracle is the UTF-8 way the header names: the bytes read
// as UTF-8 (FromCp1251 one byte at a time), LegacyHtmlToText, and the
// result written back in windows-1251 (ToCp1251, U+FFFD as 0x98, the byte
// it came from).
namespace feed {
namespace {

// LegacyHtmlToTextCp1251(in) against the UTF-8 way. A U+FFFD in the UTF-8
// result that a reference (&#65533;) made, not a 0x98 byte, may give
// nullopt or 0x98: there only the escaped forms are compared.
void ExpectCp1251MatchesUtf8Way(const std::string& in) {
  auto exact = std::make_unique<char[]>(in.size() + (in.empty() ? 1 : 0));
  std::copy(in.begin(), in.end(), exact.get());
  const std::optional<std::string> got = LegacyHtmlToTextCp1251(std::string_view(exact.get(), in.size()));
  const std::string utf8 = LegacyHtmlToText(Cp1251ToUtf8(in));
  const std::optional<std::string> want = Utf8ToCp1251(utf8, /*fffd_as_98=*/true);
  // With each 0x98 byte made a letter, a U+FFFD left can only be a reference's.
  std::string no98 = in;
  std::replace(no98.begin(), no98.end(), '\x98', '\xC6');
  const bool fffd_from_reference = LegacyHtmlToText(Cp1251ToUtf8(no98)).find("\uFFFD") != std::string::npos;
  if (want && fffd_from_reference) {
    if (!got) return;
    std::string got_xml, want_xml;
    AppendXmlCp1251(got_xml, *got, XmlContext::kText);
    AppendXml(want_xml, utf8, XmlContext::kText, Charset::kWindows1251);
    ASSERT_EQ(Visible(got_xml), Visible(want_xml))
        << "input \"" << Visible(in) << "\" gave \"" << Visible(*got) << "\"";
    return;
  }
  if (!want) {
    ASSERT_FALSE(got.has_value()) << "input \"" << Visible(in) << "\" gave \"" << Visible(*got)
                                  << "\" but the UTF-8 way gives \"" << Visible(utf8) << "\"";
    return;
  }
  ASSERT_TRUE(got.has_value()) << "input \"" << Visible(in) << "\" gave nullopt, want \"" << Visible(*want) << "\"";
  if (*got == *want) return;
  ASSERT_EQ(Visible(*got), Visible(*want)) << "input \"" << Visible(in) << "\" (" << in.size() << " bytes)";
}

struct Cp1251Case {
  std::string name;
  std::string in;
  std::optional<std::string> want;
};

TEST(LegacyHtmlCp1251Test, ByHand) {
  const std::vector<Cp1251Case> cases = {
      {"empty", "", ""},
      {"board sample",
       "  <b>\xD1\xF0\xEE\xF7\xED\xEE!</b> \xCF\xF0\xEE\xE4\xE0\xEC &quot;\xC6\xE8\xE3\xF3\xEB\xE8&quot;<br>"
       "\xF2\xE5\xEB. &#8470;5\x01 <script>alert(1)</script>  ",
       "\xD1\xF0\xEE\xF7\xED\xEE! \xCF\xF0\xEE\xE4\xE0\xEC \"\xC6\xE8\xE3\xF3\xEB\xE8\"\n\xF2\xE5\xEB. \xB9"
       "5"},
      {"tags stripped", "<b>bold</b> <i>\xEA\xF3\xF0</i>", "bold \xEA\xF3\xF0"},
      {"br", "a<br>b<br />c", "a\nb\nc"},
      {"p and div", "<p>a</p><div>b</div>", "a\nb"},
      {"quot", "&quot;x&quot;", "\"x\""},
      {"amp lt gt", "&amp;&lt;&gt;", "&<>"},
      {"decodes once", "&amp;quot;", "&quot;"},
      {"nbsp is a space", "a&nbsp;b", "a b"},
      {"laquo raquo", "&laquo;\xC5\xEB\xEA\xE0&raquo;", "\xAB\xC5\xEB\xEA\xE0\xBB"},
      {"numero decimal", "&#8470;5",
       "\xB9"
       "5"},
      {"numero hex", "&#x2116;", "\xB9"},
      {"mdash", "a&mdash;b",
       "a\x97"
       "b"},
      {"ndash hellip euro", "&ndash;&hellip;&euro;", "\x96\x85\x88"},
      {"copy deg", "&copy;&deg;", "\xA9\xB0"},
      {"cyrillic reference", "&#1046;&#x436;", "\xC6\xE6"},
      {"cyrillic passes", "\xA8\xE6\xE8\xEA \xB8\xEB\xEA\xE0 \xB2\xBF\xBA\xA5",
       "\xA8\xE6\xE8\xEA \xB8\xEB\xEA\xE0 \xB2\xBF\xBA\xA5"},
      {"the high half's signs pass", "\x80\x81\x82\x85\x88\x8A\x99\x9F\xA6\xAB\xB9\xBB",
       "\x80\x81\x82\x85\x88\x8A\x99\x9F\xA6\xAB\xB9\xBB"},
      {"0xA0 byte is a visible character",
       "a\xA0"
       "b",
       "a\xA0"
       "b"},
      {"0xA0 byte is not trimmed", "\xA0", "\xA0"},
      {"0x98 byte is kept", "a\x98z", "a\x98z"},
      {"spaces collapse", "a   b\t\tc", "a b c"},
      {"trimmed", "  \xC0  ", "\xC0"},
      {"blank lines collapse", "a\n\n\nb", "a\nb"},
      {"script removed", "\xC0<script>alert('\xC1')</script>\xC2", "\xC0\xC2"},
      {"style removed", "<style>p{}</style>\xC0", "\xC0"},
      {"comment removed", "a<!-- \xC0 -->b", "ab"},
      {"control chars dropped",
       "a\x01"
       "b\x08"
       "c\x1F"
       "d\x7F"
       "e",
       "abcde"},
      {"NUL dropped",
       "a\x00"
       "b"s,
       "ab"},
      {"CR LF", "a\r\nb", "a\nb"},
      {"lone CR", "a\rb", "a\nb"},
      {"'<' that is text", "a < b, <\xD6\xE5\xED\xE0>", "a < b, <\xD6\xE5\xED\xE0>"},
      {"unknown reference kept", "&foo; AT&T", "&foo; AT&T"},
      {"invalid reference dropped", "a&#0;b", "ab"},
      {"emoji reference", "&#128512;", std::nullopt},
      {"emoji hex reference", "\xC0 &#x1F600; \xC0", std::nullopt},
      {"alpha", "&alpha;", std::nullopt},
      {"latin e acute", "caf&eacute;", std::nullopt},
      {"emoji reference in a script is removed", "<script>&#128512;</script>x", "x"},
      {"emoji reference in a tag is removed", "<b title=\"&#128512;\">x</b>", "x"},
      {"emoji reference double-encoded", "&amp;#128512;", "&#128512;"},
  };
  for (const auto& c : cases) {
    const std::optional<std::string> got = LegacyHtmlToTextCp1251(c.in);
    EXPECT_EQ(got.has_value(), c.want.has_value()) << c.name << ": \"" << Visible(c.in) << "\"";
    if (got && c.want) {
      EXPECT_EQ(Visible(*got), Visible(*c.want)) << c.name << ": \"" << Visible(c.in) << "\"";
    }
    ExpectCp1251MatchesUtf8Way(c.in);
  }
}

TEST(LegacyHtmlCp1251Test, ReplacementCharacterReference) {
  // &#65533; decodes to U+FFFD: either nullopt (the UTF-8 way writes it) or
  // 0x98, which AppendXmlCp1251 writes as the same "&#65533;".
  for (const char* in : {"&#65533;", "&#xFFFD;", "a&#65533;b", "\x98&#65533;"}) {
    const std::optional<std::string> got = LegacyHtmlToTextCp1251(in);
    if (got) {
      std::string xml;
      AppendXmlCp1251(xml, *got, XmlContext::kText);
      std::string want;
      AppendXml(want, LegacyHtmlToText(Cp1251ToUtf8(in)), XmlContext::kText, Charset::kWindows1251);
      EXPECT_EQ(xml, want) << in;
    }
    ExpectCp1251MatchesUtf8Way(in);
  }
}

TEST(LegacyHtmlCp1251Test, EveryByteAloneAndAmongLetters) {
  for (int b = 0; b < 256; ++b) {
    const std::string c(1, static_cast<char>(b));
    for (const std::string& in : {c, "a" + c + "z", " \xC6" + c + "\xFF ", "<" + c + ">x", "&" + c + ";", c + c}) {
      ExpectCp1251MatchesUtf8Way(in);
    }
  }
}

// The samples of the tests above in windows-1251: PlainText and the pieces
// of board text, where the code page has their characters.
std::optional<std::string> Cp1251Sample(std::string_view utf8) { return Utf8ToCp1251(utf8, /*fffd_as_98=*/false); }

TEST(LegacyHtmlCp1251Test, SamplesAtEveryOffsetMatchTheUtf8Way) {
  std::vector<std::string> pieces;
  for (const auto& [piece, meaning] : kPieces) {
    if (std::optional<std::string> p = Cp1251Sample(piece)) pieces.push_back(*p);
  }
  // What only windows-1251 has: bytes that are not UTF-8 characters there.
  for (const char* p : {"\x98", "\xA0", "\xA0\xA0", " \xA0 ", "\x85", "\xC0\xC1", "&#8470;\x98", "<\xC6>", "&\xC6;",
                        "&#x1F600;", "&alpha;", "&#65533;", "<br>\x98<br>", "\r\n\x98\r\n"}) {
    pieces.push_back(p);
  }
  size_t samples = 0;
  for (size_t before = 0; before <= 36; ++before) {
    for (int variant = 0; variant < 3; ++variant) {
      const std::string head = *Cp1251Sample(PlainText(before, variant));
      for (const std::string& piece : pieces) {
        for (size_t after : {0, 1, 2, 17, 40}) {
          ExpectCp1251MatchesUtf8Way(head + piece + *Cp1251Sample(PlainText(after, variant)));
          ++samples;
        }
      }
    }
  }
  EXPECT_GT(samples, 10000u);
  std::mt19937 rng(8470);
  for (int iter = 0; iter < 20000; ++iter) {
    if (std::optional<std::string> in = Cp1251Sample(RandomHtml(rng))) ExpectCp1251MatchesUtf8Way(*in);
  }
}

TEST(LegacyHtmlCp1251Test, RandomBytesMatchTheUtf8Way) {
  static const std::vector<std::string> kWords = {
      "<",
      ">",
      "&",
      ";",
      "#",
      "x",
      "X",
      "/",
      "!",
      "-",
      "=",
      "\"",
      " ",
      "  ",
      "\t",
      "\n",
      "\r",
      "\r\n",
      "0",
      "1",
      "9",
      "a",
      "F",
      "Z",
      "b",
      "br",
      "p",
      "script",
      "style",
      "!--",
      "--",
      "amp",
      "quot",
      "nbsp",
      "laquo",
      "mdash",
      "alpha",
      "8470",
      "128512",
      "65533",
      "x2116",
      "1046",
      "\x98",
      "\xA0",
      "\xC0",
      "\xFF",
      "\xB9",
      "\x85",
      "\x01",
      "\x00"s,
      "\x7F",
      "\x81",
      "\xCF\xF0\xEE\xE4\xE0\xEC",
  };
  std::mt19937 rng(12);
  for (int iter = 0; iter < 20000; ++iter) {
    // Letters of the code page up to around a 16-byte boundary, then a
    // random mix.
    std::string in;
    const size_t lead = rng() % 40;
    for (size_t k = 0; k < lead; ++k) in += static_cast<char>(rng() % 5 == 0 ? ' ' : 0xC0 + rng() % 0x40);
    const size_t words = rng() % (iter % 10 == 0 ? 200 : 25);
    for (size_t k = 0; k < words; ++k) {
      if (rng() % 8 == 0) {
        in += static_cast<char>(rng());  // any byte at all
      } else {
        in += kWords[rng() % kWords.size()];
      }
    }
    ExpectCp1251MatchesUtf8Way(in);
  }
}

TEST(LegacyHtmlCp1251Test, AppendsAfterWhatOutHolds) {
  // The appending forms: the text after what `out` holds, trimmed on its
  // own (a prefix ending in a space or a line break changes nothing), and
  // on false `out` exactly as it was, even after it had to grow.
  std::mt19937 rng(20);
  std::vector<std::string> inputs = {"",
                                     " ",
                                     " \xC0 ",
                                     "<br>a<br>",
                                     "&#128512;",
                                     "\xC0 &alpha;",
                                     "&nbsp;x&nbsp;",
                                     "\x98",
                                     std::string(5000, '\xE0') + "&#x1F600;",
                                     std::string(5000, '&') + "quot;"};
  const std::string bytes = "<&; #x1a\n\r\t\x98\xA0\xC0\xFF\x00"s;
  for (int k = 0; k < 300; ++k) {
    std::string in;
    for (size_t j = rng() % 30; j > 0; --j) in += bytes[rng() % bytes.size()];
    inputs.push_back(in);
  }
  for (const std::string& prefix : {""s, " "s, "\n"s, "x<"s, "\xC6 "s, std::string(3000, '\xC0')}) {
    for (const std::string& in : inputs) {
      const std::optional<std::string> alone = LegacyHtmlToTextCp1251(in);
      std::string out = prefix;
      const bool ok = AppendLegacyHtmlToTextCp1251(out, in);
      EXPECT_EQ(ok, alone.has_value()) << Visible(in);
      EXPECT_EQ(Visible(out), Visible(prefix + alone.value_or(""))) << Visible(in);
      std::string utf8_out = prefix;
      AppendLegacyHtmlToText(utf8_out, Cp1251ToUtf8(in));
      EXPECT_EQ(Visible(utf8_out), Visible(prefix + LegacyHtmlToText(Cp1251ToUtf8(in)))) << Visible(in);
    }
  }
}

TEST(LegacyHtmlCp1251Test, LongText) {
  std::string in;
  for (int k = 0; k < 2000; ++k) {
    in += k % 97 == 0 ? "<br>  \xA8\xEB\xEA\xE0,\t\t\xB8\xE6\xE8\xEA \x98 &laquo;"
                      : "\xCF\xF0\xEE\xE4\xE0\xEC \xE3\xE0\xF0\xE0\xE6 ";
  }
  ExpectCp1251MatchesUtf8Way(in);
  ExpectCp1251MatchesUtf8Way(in + "&#128512;");
  ExpectCp1251MatchesUtf8Way(std::string(100000, '\xE0'));
  ExpectCp1251MatchesUtf8Way(std::string(100000, ' ') + "\xE0" + std::string(100000, '\n'));
}

}  // namespace
}  // namespace feed
