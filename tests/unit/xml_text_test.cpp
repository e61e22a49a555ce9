#include "xml_text.h"

#include <gtest/gtest.h>
#include <iconv.h>

#include <tinyxml2.h>
#include "text_samples.h"
#include "cp1251_reference.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace feed {
namespace {

using feed::testing::Cp1251ToUtf8;

using feed::testing::PlainText;
using feed::testing::Visible;

using namespace std::string_literals;

std::string Render(std::string_view in, XmlContext ctx, Charset cs) {
  std::string out;
  AppendXml(out, in, ctx, cs);
  return out;
}

struct EscapeCase {
  std::string in;
  XmlContext ctx;
  Charset cs;
  std::string want;
};

constexpr auto kText = XmlContext::kText;
constexpr auto kAttr = XmlContext::kAttribute;
constexpr auto kCData = XmlContext::kCData;
const Charset& kUtf8 = Charset::kUtf8;
const Charset& k1251 = Charset::kWindows1251;

TEST(AppendXmlTest, EscapesForEachContextAndCharset) {
  const std::vector<EscapeCase> cases = {
      // Text: & < > only.
      {"", kText, kUtf8, ""},
      {"plain ascii 123", kText, kUtf8, "plain ascii 123"},
      {"a&b<c>d\"e'f", kText, kUtf8, "a&amp;b&lt;c&gt;d\"e'f"},
      {"\t\n\r", kText, kUtf8, "\t\n\r"},
      {"x]]>y", kText, kUtf8, "x]]&gt;y"},
      {"&amp;", kText, kUtf8, "&amp;amp;"},
      {"Ёжик & ёлка", kText, kUtf8, "Ёжик &amp; ёлка"},
      {"😀中文", kText, kUtf8, "😀中文"},
      // Attribute: also " and the whitespace attribute normalisation eats.
      {"a&b<c>d\"e'f", kAttr, kUtf8, "a&amp;b&lt;c&gt;d&quot;e'f"},
      {"\t\n\r", kAttr, kUtf8, "&#9;&#10;&#13;"},
      {"a b", kAttr, kUtf8, "a b"},
      {"😀", kAttr, kUtf8, "😀"},
      // CDATA: raw, ]]> split.
      {"a&b<c>\"d\"", kCData, kUtf8, "a&b<c>\"d\""},
      {"\t\n\r", kCData, kUtf8, "\t\n\r"},
      {"]]>", kCData, kUtf8, "]]]]><![CDATA[>"},
      {"a]]>b]]>c", kCData, kUtf8, "a]]]]><![CDATA[>b]]]]><![CDATA[>c"},
      {"]]]>", kCData, kUtf8, "]]]]]><![CDATA[>"},
      {"]]]]>>", kCData, kUtf8, "]]]]]]><![CDATA[>>"},
      {"] ]>", kCData, kUtf8, "] ]>"},
      {"]]", kCData, kUtf8, "]]"},
      {">", kCData, kUtf8, ">"},
      // A dropped character between "]]" and ">" must not end the section.
      {"]]\x01>", kCData, kUtf8, "]]]]><![CDATA[>"},
      {"]]\xC0>", kCData, kUtf8, "]]]]><![CDATA[>"},
      // Every legal character fits in UTF-8: no section is closed.
      {"😀中文", kCData, kUtf8, "😀中文"},
      // windows-1251: Cyrillic as single bytes, the rest as references.
      {"Привет", kText, k1251, "\xCF\xF0\xE8\xE2\xE5\xF2"},
      {"ЁЖЯабвэюяё", kText, k1251, "\xA8\xC6\xDF\xE0\xE1\xE2\xFD\xFE\xFF\xB8"},
      {"іїєґ ІЇЄҐ", kText, k1251, "\xB3\xBF\xBA\xB4 \xB2\xAF\xAA\xA5"},
      {"ўЎђЂљЉњЊ", kText, k1251, "\xA2\xA1\x90\x80\x9A\x8A\x9C\x8C"},
      {"№5", kText, k1251,
       "\xB9"
       "5"},
      {"€ — – « » … ™ © ° ± µ §", kText, k1251, "\x88 \x97 \x96 \xAB \xBB \x85 \x99 \xA9 \xB0 \xB1 \xB5 \xA7"},
      {"\u00A0", kText, k1251, "\xA0"},
      {"😀", kText, k1251, "&#128512;"},
      {"中文", kText, k1251, "&#20013;&#25991;"},
      {"café", kText, k1251, "caf&#233;"},
      {"\u0098", kText, k1251, "&#152;"},
      {"\uFFFD", kText, k1251, "&#65533;"},
      {"a&b<😀>", kText, k1251, "a&amp;b&lt;&#128512;&gt;"},
      {"\"Ё\"\t", kAttr, k1251, "&quot;\xA8&quot;&#9;"},
      {"😀", kAttr, k1251, "&#128512;"},
      // windows-1251 CDATA: an unencodable character closes the section.
      {"Ёж 😀!", kCData, k1251, "\xA8\xE6 ]]>&#128512;<![CDATA[!"},
      {"😀😀", kCData, k1251, "]]>&#128512;<![CDATA[]]>&#128512;<![CDATA["},
      {"中", kCData, k1251, "]]>&#20013;<![CDATA["},
      {"]]>", kCData, k1251, "]]]]><![CDATA[>"},
      {"]]😀>", kCData, k1251, "]]]]>&#128512;<![CDATA[>"},
      {"<Ж&>", kCData, k1251, "<\xC6&>"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Visible(Render(c.in, c.ctx, c.cs)), Visible(c.want))
        << "input \"" << Visible(c.in) << "\" context " << static_cast<int>(c.ctx) << " charset " << CharsetName(c.cs);
  }
}

TEST(AppendXmlTest, AppendsAfterExistingContent) {
  std::string out = "<a>";
  AppendXml(out, "x&y", kText, kUtf8);
  AppendXml(out, "Ж", kText, k1251);
  EXPECT_EQ(out, "<a>x&amp;y\xC6");
}

TEST(AppendXmlTest, CDataSplitSpansCalls) {
  // Content handed over in pieces still never closes the section early.
  std::string out = "<![CDATA[";
  AppendXml(out, "a]]", kCData, kUtf8);
  AppendXml(out, ">b", kCData, kUtf8);
  out += "]]>";
  EXPECT_EQ(out, "<![CDATA[a]]]]><![CDATA[>b]]>");
}

// Bytes that must vanish from every context in every charset.
const std::vector<std::pair<std::string, std::string>> kDropped = {
    {"NUL", "\x00"s},
    {"SOH", "\x01"},
    {"BS", "\x08"},
    {"VT", "\x0B"},
    {"FF", "\x0C"},
    {"US", "\x1F"},
    {"U+FFFE", "\xEF\xBF\xBE"},
    {"U+FFFF", "\xEF\xBF\xBF"},
    {"lone high surrogate", "\xED\xA0\x80"},
    {"lone low surrogate", "\xED\xBF\xBF"},
    {"overlong slash", "\xC0\xAF"},
    {"overlong C1", "\xC1\xBF"},
    {"overlong 3-byte", "\xE0\x80\xAF"},
    {"overlong 4-byte", "\xF0\x80\x80\xAF"},
    {"truncated 2-byte", "\xD0"},
    {"truncated 3-byte", "\xE2\x82"},
    {"truncated 4-byte", "\xF0\x9F\x98"},
    {"past U+10FFFF", "\xF4\x90\x80\x80"},
    {"F5 lead", "\xF5\x80\x80\x80"},
    {"F8 lead", "\xF8\x88\x80\x80\x80"},
    {"FF", "\xFF"},
    {"FE", "\xFE"},
    {"stray continuation", "\x80"},
    {"stray continuations", "\xBF\x80\x80"},
    {"lead then ASCII", "\xE2x"},
};

TEST(AppendXmlTest, DropsIllegalCharactersAndInvalidUtf8) {
  for (const auto& [name, bad] : kDropped) {
    for (XmlContext ctx : {kText, kAttr, kCData}) {
      for (Charset cs : {kUtf8, k1251}) {
        std::string want = name == "lead then ASCII" ? "axb" : "ab";
        EXPECT_EQ(Visible(Render("a" + bad + "b", ctx, cs)), want)
            << name << " context " << static_cast<int>(ctx) << " " << CharsetName(cs);
      }
    }
  }
}

TEST(AppendXmlTest, KeepsCharactersRightAfterAnInvalidSequence) {
  // E2 82 starts a euro sign that never finishes; the Ж after it is whole.
  EXPECT_EQ(Render("\xE2\x82\xD0\x96", kText, kUtf8), "Ж");
  EXPECT_EQ(Render("\xE2\x82\xD0\x96", kText, k1251), "\xC6");
  EXPECT_EQ(Render("\xF0\x9F\x98\xF0\x9F\x98\x80", kText, kUtf8), "😀");
}

TEST(AppendXmlTest, KeepsLegalBoundaries) {
  const std::string edges = "\uD7FF\uE000\uFFFD\U00010000\U0010FFFF";
  EXPECT_EQ(Render(edges, kText, kUtf8), edges);
  EXPECT_EQ(Render(edges, kText, k1251), "&#55295;&#57344;&#65533;&#65536;&#1114111;");
  EXPECT_EQ(Render("\x7F", kText, kUtf8), "\x7F");
  EXPECT_EQ(Render("\u0085", kText, kUtf8), "\u0085");
}

TEST(AppendXmlTest, EveryWindows1251CharacterBecomesItsByte) {
  for (int b = 0x20; b < 0x100; ++b) {
    if (b == 0x98 || b == '&' || b == '<' || b == '>' || b == '"') continue;
    std::string utf8;
    AppendUtf8(utf8, FromCp1251(static_cast<unsigned char>(b)));
    for (XmlContext ctx : {kText, kAttr, kCData}) {
      EXPECT_EQ(Render(utf8, ctx, k1251), std::string(1, static_cast<char>(b))) << "byte " << b;
    }
  }
}

TEST(AppendXmlTest, LongRunsAroundSpecialCharacters) {
  std::string ascii(100000, 'x');
  std::string in = ascii + "&" + ascii + "Ж" + ascii + "😀" + ascii;
  EXPECT_EQ(Render(in, kText, kUtf8), ascii + "&amp;" + ascii + "Ж" + ascii + "😀" + ascii);
  EXPECT_EQ(Render(in, kText, k1251), ascii + "&amp;" + ascii + "\xC6" + ascii + "&#128512;" + ascii);
}

TEST(AppendEncodedTest, EncodesWithoutEscaping) {
  struct Case {
    std::string in;
    Charset cs;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"<offer id=\"1\">&amp;</offer>", kUtf8, "<offer id=\"1\">&amp;</offer>"},
      {"<тег>", kUtf8, "<тег>"},
      {"<тег>", k1251, "<\xF2\xE5\xE3>"},
      {"]]>😀", k1251, "]]>&#128512;"},
      {"😀", kUtf8, "😀"},
      {"a\x01\xC0\xEF\xBF\xBE"
       "b",
       kUtf8, "ab"},
      {"a\x01\xC0\xEF\xBF\xBE"
       "b",
       k1251, "ab"},
      {"\t\n\r", k1251, "\t\n\r"},
  };
  for (const auto& c : cases) {
    std::string out = "[";
    AppendEncoded(out, c.in, c.cs);
    EXPECT_EQ(Visible(out), Visible("[" + c.want)) << Visible(c.in) << " " << CharsetName(c.cs);
  }
}

TEST(CharsetTest, FromName) {
  const std::vector<std::pair<std::string, std::optional<Charset>>> cases = {
      {"UTF-8", kUtf8},
      {"utf-8", kUtf8},
      {"Utf-8", kUtf8},
      {"utf8", kUtf8},
      {"UTF8", kUtf8},
      {"windows-1251", k1251},
      {"Windows-1251", k1251},
      {"WINDOWS-1251", k1251},
      {"cp1251", k1251},
      {"CP1251", k1251},
      {"", std::nullopt},
      {"utf-16", std::nullopt},
      {"UTF_8", std::nullopt},
      {" utf-8", std::nullopt},
      {"utf-8 ", std::nullopt},
      {"windows1251", std::nullopt},
      {"utf-8\0"s, std::nullopt},
      {"Shift_JIS", std::nullopt},  // more than one byte a character
      {"UTF-16", std::nullopt},
      {"EBCDIC-US", std::nullopt},  // ASCII written otherwise
      {"no-such-set", std::nullopt},
  };
  for (const auto& [name, want] : cases) {
    EXPECT_EQ(CharsetFromName(name), want) << "\"" << Visible(name) << "\"";
  }
  // Other single-byte sets iconv knows: tables of their own, named as given.
  for (const char* name : {"windows-1252", "koi8-r", "KOI8-R", "ISO-8859-5", "latin1"}) {
    std::optional<Charset> cs = CharsetFromName(name);
    ASSERT_TRUE(cs.has_value()) << name;
    EXPECT_EQ(cs->kind(), Charset::Kind::kTable) << name;
    EXPECT_STREQ(cs->name(), name);
    EXPECT_EQ(*cs, *cs);
    EXPECT_FALSE(*cs == kUtf8 || *cs == k1251) << name;
  }
  std::string why;
  EXPECT_FALSE(Charset::Named("Shift_JIS", &why));
  EXPECT_NE(why.find("more than one byte"), std::string::npos) << why;
  EXPECT_FALSE(Charset::Named("koi9", &why));
  EXPECT_NE(why.find("iconv does not know"), std::string::npos) << why;
}

// Bytes of the sets as their standards give them (RFC 1489 for KOI8-R,
// ISO/IEC 8859-5, Microsoft's table for windows-1252).
TEST(CharsetTest, TableSetsWriteTheirOwnBytes) {
  struct Case {
    const char* charset;
    const char* utf8;
    const char* bytes;
  } cases[] = {
      {"KOI8-R", "А", "\xE1"},  {"KOI8-R", "а", "\xC1"},  {"KOI8-R", "Ё", "\xB3"}, {"KOI8-R", "ё", "\xA3"},
      {"KOI8-R", "я", "\xD1"},  {"KOI8-R", "Я", "\xF1"},  {"KOI8-R", "─", "\x80"}, {"ISO-8859-5", "А", "\xB0"},
      {"ISO-8859-5", "а", "\xD0"}, {"ISO-8859-5", "Ё", "\xA1"}, {"ISO-8859-5", "№", "\xF0"},
      {"ISO-8859-5", "я", "\xEF"}, {"windows-1252", "€", "\x80"}, {"windows-1252", "é", "\xE9"},
      {"windows-1252", "ÿ", "\xFF"},
  };
  for (const Case& c : cases) {
    std::optional<Charset> cs = CharsetFromName(c.charset);
    ASSERT_TRUE(cs) << c.charset;
    std::string out;
    AppendXml(out, c.utf8, kText, *cs);
    EXPECT_EQ(Visible(out), Visible(c.bytes)) << c.charset << " " << c.utf8;
  }
  // What the set lacks: a reference, in every context.
  const Charset koi8 = *CharsetFromName("KOI8-R");
  std::string out;
  AppendXml(out, "Ж€<&>\"", kText, koi8);
  EXPECT_EQ(Visible(out), Visible("\xF6&#8364;&lt;&amp;&gt;\""));
  out.clear();
  AppendXml(out, "Ж€\"\n", kAttr, koi8);
  EXPECT_EQ(Visible(out), Visible("\xF6&#8364;&quot;&#10;"));
  out = "]]";  // a CDATA split across calls
  AppendXml(out, ">€x]]>", kCData, koi8);
  EXPECT_EQ(Visible(out), Visible("]]]]><![CDATA[>]]>&#8364;<![CDATA[x]]]]><![CDATA[>"));
  EXPECT_TRUE(koi8.Has(U'Ж'));
  EXPECT_FALSE(koi8.Has(U'€'));
  EXPECT_TRUE(koi8.Has(U'<'));
}

TEST(CharsetTest, NameIsIana) {
  EXPECT_STREQ(CharsetName(kUtf8), "UTF-8");
  EXPECT_STREQ(CharsetName(k1251), "windows-1251");
  EXPECT_EQ(CharsetFromName(CharsetName(kUtf8)), kUtf8);
  EXPECT_EQ(CharsetFromName(CharsetName(k1251)), k1251);
}

TEST(Cp1251Test, RoundTripsEveryDefinedByte) {
  std::set<char32_t> seen;
  for (int b = 0; b < 0x100; ++b) {
    if (b == 0x98) continue;
    char32_t cp = FromCp1251(static_cast<unsigned char>(b));
    EXPECT_NE(cp, 0xFFFDu) << "byte " << b;
    EXPECT_TRUE(seen.insert(cp).second) << "byte " << b << " maps to a code point twice";
    std::optional<unsigned char> back = ToCp1251(cp);
    ASSERT_TRUE(back.has_value()) << "byte " << b;
    EXPECT_EQ(*back, b) << "byte " << b;
  }
  EXPECT_EQ(seen.size(), 255u);
}

TEST(Cp1251Test, Undefined0x98) {
  EXPECT_EQ(FromCp1251(0x98), 0xFFFDu);
  EXPECT_EQ(ToCp1251(0xFFFD), std::nullopt);
  EXPECT_EQ(ToCp1251(0x98), std::nullopt);
}

TEST(Cp1251Test, KnownCharacters) {
  const std::vector<std::pair<char32_t, unsigned char>> cases = {
      {U'A', 'A'},  {U'\0', 0x00}, {U'\x7F', 0x7F}, {U'А', 0xC0},      {U'я', 0xFF},      {U'Ё', 0xA8}, {U'ё', 0xB8},
      {U'Ґ', 0xA5}, {U'ґ', 0xB4},  {U'І', 0xB2},    {U'і', 0xB3},      {U'Ї', 0xAF},      {U'ї', 0xBF}, {U'Є', 0xAA},
      {U'є', 0xBA}, {U'№', 0xB9},  {U'€', 0x88},    {U'\u00A0', 0xA0}, {U'\u00AD', 0xAD}, {U'„', 0x84}, {U'“', 0x93},
      {U'”', 0x94}, {U'‘', 0x91},  {U'’', 0x92},    {U'‚', 0x82},      {U'†', 0x86},      {U'‡', 0x87}, {U'‰', 0x89},
      {U'‹', 0x8B}, {U'›', 0x9B},  {U'•', 0x95},    {U'™', 0x99},      {U'Ђ', 0x80},      {U'џ', 0x9F},
  };
  for (const auto& [cp, byte] : cases) {
    EXPECT_EQ(ToCp1251(cp), byte) << "U+" << std::hex << static_cast<uint32_t>(cp);
    EXPECT_EQ(FromCp1251(byte), cp) << "byte " << std::hex << static_cast<int>(byte);
  }
}

TEST(Cp1251Test, NothingElseIsInTheCodePage) {
  int mapped = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (std::optional<unsigned char> b = ToCp1251(cp)) {
      ++mapped;
      EXPECT_EQ(FromCp1251(*b), cp);
    }
  }
  EXPECT_EQ(mapped, 255);
  for (char32_t cp : {U'é', U'Ω', U'ß', U'中', U'😀', U'\u0098', U'\u0400', U'\u0450', U'\u0492'}) {
    EXPECT_EQ(ToCp1251(cp), std::nullopt) << "U+" << std::hex << static_cast<uint32_t>(cp);
  }
}

TEST(Utf8Test, Decode) {
  struct Case {
    std::string in;
    std::optional<char32_t> cp;
    size_t len;
  };
  const std::vector<Case> cases = {
      {"A", U'A', 1},
      {"\x00"s, U'\0', 1},
      {"\x7F", 0x7F, 1},
      {"\xC2\x80", 0x80, 2},
      {"Жx", U'Ж', 2},
      {"\xDF\xBF", 0x7FF, 2},
      {"\xE0\xA0\x80", 0x800, 3},
      {"€", U'€', 3},
      {"\xED\x9F\xBF", 0xD7FF, 3},
      {"\xEE\x80\x80", 0xE000, 3},
      {"\xEF\xBF\xBF", 0xFFFF, 3},  // valid UTF-8; IsXmlChar rejects it
      {"\xF0\x90\x80\x80", 0x10000, 4},
      {"😀", 0x1F600, 4},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF, 4},
      {"\x80", std::nullopt, 1},
      {"\xBF", std::nullopt, 1},
      {"\xC0\xAF", std::nullopt, 1},
      {"\xC1\xBF", std::nullopt, 1},
      {"\xC2", std::nullopt, 1},
      {"\xC2x", std::nullopt, 1},
      {"\xC2\xC2\x80", std::nullopt, 1},
      {"\xE0\x80\xAF", std::nullopt, 1},
      {"\xE0\x9F\xBF", std::nullopt, 1},
      {"\xE2\x82", std::nullopt, 1},
      {"\xE2\x82x", std::nullopt, 1},
      {"\xED\xA0\x80", std::nullopt, 1},
      {"\xED\xBF\xBF", std::nullopt, 1},
      {"\xF0\x80\x80\xAF", std::nullopt, 1},
      {"\xF0\x8F\xBF\xBF", std::nullopt, 1},
      {"\xF0\x9F\x98", std::nullopt, 1},
      {"\xF0\x9F\x98x", std::nullopt, 1},
      {"\xF4\x90\x80\x80", std::nullopt, 1},
      {"\xF5\x80\x80\x80", std::nullopt, 1},
      {"\xF8\x88\x80\x80\x80", std::nullopt, 1},
      {"\xFE", std::nullopt, 1},
      {"\xFF", std::nullopt, 1},
  };
  for (const auto& c : cases) {
    size_t len = 99;
    EXPECT_EQ(DecodeUtf8(c.in, &len), c.cp) << Visible(c.in);
    EXPECT_EQ(len, c.len) << Visible(c.in);
  }
}

TEST(Utf8Test, EncodeDecodeEveryScalarValue) {
  std::string buf;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp == 0xD800) cp = 0xE000;
    buf.clear();
    AppendUtf8(buf, cp);
    size_t want_len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    ASSERT_EQ(buf.size(), want_len) << std::hex << static_cast<uint32_t>(cp);
    size_t len = 0;
    ASSERT_EQ(DecodeUtf8(buf, &len), cp) << std::hex << static_cast<uint32_t>(cp);
    ASSERT_EQ(len, want_len);
  }
}

TEST(Utf8Test, IsXmlChar) {
  const std::vector<std::pair<char32_t, bool>> cases = {
      {0x0, false},    {0x1, false},    {0x8, false},     {0x9, true},       {0xA, true},
      {0xB, false},    {0xC, false},    {0xD, true},      {0xE, false},      {0x1F, false},
      {0x20, true},    {0x7F, true},    {0x85, true},     {0xD7FF, true},    {0xD800, false},
      {0xDFFF, false}, {0xE000, true},  {0xFFFD, true},   {0xFFFE, false},   {0xFFFF, false},
      {0x10000, true}, {0x1F600, true}, {0x10FFFF, true}, {0x110000, false}, {0xFFFFFFFF, false},
  };
  for (const auto& [cp, want] : cases) {
    EXPECT_EQ(IsXmlChar(cp), want) << std::hex << static_cast<uint32_t>(cp);
  }
}

TEST(Utf8Test, IsXmlName) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {"a", true},          {"yml_catalog", true}, {"feed:each", true}, {"_x.y-z9", true},    {":", true},
      {"объявление", true}, {"新闻", true},        {"a\u00B7b", true},  {"", false},          {"9a", false},
      {"-a", false},        {".a", false},         {"a b", false},      {"a\u00D7b", false},  {"\u00B7a", false},
      {"a\u2028", false},   {"a\xff", false},      {"\xd0", false},     {"a\xc0\x80", false}, {"a\xed\xa0\x80", false},
  };
  for (const auto& [name, want] : cases) {
    EXPECT_EQ(IsXmlName(name), want) << Visible(name);
  }
}

TEST(CleanUtf8Test, RemovesWhatCannotBeWritten) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"plain <b>&amp;</b>", "plain <b>&amp;</b>"},
      {"Ёжик 😀 中文", "Ёжик 😀 中文"},
      {"\t\n\r", "\t\n\r"},
      {"\x01\x08\x0B\x1F", ""},
      {"a\xC0\xAF"
       "b\xED\xA0\x80"
       "c\xEF\xBF\xBE"
       "d\xF5\x80"
       "e\x80",
       "abcde"},
      {"\xE2\x82", ""},
      {" \x01 ", "  "},
  };
  for (const auto& [in, want] : cases) {
    EXPECT_EQ(Visible(CleanUtf8(in)), Visible(want)) << Visible(in);
  }
  for (const auto& [name, bad] : kDropped) {
    std::string want = name == "lead then ASCII" ? "x" : "";
    EXPECT_EQ(CleanUtf8(bad), want) << name;
  }
}

// Random strings over an alphabet chosen to hit every branch: markup
// characters, ']' and '>', controls, Cyrillic, emoji, broken sequences.
std::string RandomText(std::mt19937& rng, size_t max_pieces) {
  static const std::vector<std::string> kPieces = {
      "a",
      "Z",
      " ",
      "abc def",
      "&",
      "<",
      ">",
      "\"",
      "'",
      "]",
      "]]",
      "]]>",
      "\t",
      "\n",
      "\r",
      "\x01",
      "\x1F",
      "\x00"s,
      "Ж",
      "ё",
      "ґ",
      "№",
      "€",
      "\u00A0",
      "é",
      "中",
      "😀",
      "\uFFFD",
      "\xEF\xBF\xBE",
      "\xED\xA0\x80",
      "\xC0\xAF",
      "\xE2\x82",
      "\xF0\x9F",
      "\x80",
      "\xFF",
      "<![CDATA[",
      "&amp;",
      "&#128512;",
  };
  std::uniform_int_distribution<size_t> count(0, max_pieces);
  std::uniform_int_distribution<size_t> pick(0, kPieces.size() - 1);
  std::string s;
  for (size_t n = count(rng); n > 0; --n) s += kPieces[pick(rng)];
  return s;
}

// Parses `xml` and returns the text of the root element and its `v`
// attribute, or nullopt if tinyxml2 rejects it.
struct Parsed {
  std::string text;
  std::string attribute;
};
std::optional<Parsed> ParseDocument(const std::string& xml) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS) return std::nullopt;
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (root == nullptr) return std::nullopt;
  Parsed p;
  for (const tinyxml2::XMLNode* n = root->FirstChild(); n != nullptr; n = n->NextSibling()) {
    const tinyxml2::XMLText* t = n->ToText();
    if (t == nullptr) return std::nullopt;
    p.text += t->Value();
  }
  if (const char* v = root->Attribute("v")) p.attribute = v;
  return p;
}

TEST(AppendXmlTest, ParserReadsBackTheCleanedText) {
  std::mt19937 rng(1251);
  for (int iter = 0; iter < 3000; ++iter) {
    // The brackets keep tinyxml2 from discarding a whitespace-only text.
    std::string in = "[" + RandomText(rng, 12) + "]";
    // In element content a raw CR is end-of-line handling's business, and
    // tinyxml2 handles it its own way (sometimes LF, sometimes nothing), so
    // line ends are left out of that comparison. The attribute keeps them
    // exactly because they were written as references.
    std::string clean = CleanUtf8(in);
    std::string text_want = clean;
    std::erase(text_want, '\r');
    std::erase(text_want, '\n');
    for (Charset cs : {kUtf8, k1251}) {
      for (XmlContext body : {kText, kCData}) {
        std::string xml = "<r v=\"";
        AppendXml(xml, in, kAttr, cs);
        xml += "\">";
        if (body == kCData) xml += "<![CDATA[";
        AppendXml(xml, in, body, cs);
        if (body == kCData) xml += "]]>";
        xml += "</r>";
        std::string utf8 = cs == kUtf8 ? xml : Cp1251ToUtf8(xml);
        std::optional<Parsed> parsed = ParseDocument(utf8);
        ASSERT_TRUE(parsed.has_value()) << Visible(in) << " -> " << Visible(xml);
        std::erase(parsed->text, '\r');
        std::erase(parsed->text, '\n');
        const std::string where = Visible(in) + " -> " + Visible(xml);
        EXPECT_EQ(Visible(parsed->text), Visible(text_want)) << where;
        EXPECT_EQ(Visible(parsed->attribute), Visible(clean)) << where;
      }
    }
  }
}

// The one byte iconv writes for `cp` in single-byte `charset`, or nullopt.
std::optional<unsigned char> IconvByte(const char* charset, char32_t cp) {
  iconv_t cd = iconv_open(charset, "UTF-32LE");
  if (cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  char in[4] = {static_cast<char>(cp & 0xFF), static_cast<char>(cp >> 8 & 0xFF), static_cast<char>(cp >> 16 & 0xFF),
                static_cast<char>(cp >> 24)};
  char out[8];
  char* ip = in;
  char* op = out;
  size_t il = 4, ol = sizeof out;
  const bool ok = iconv(cd, &ip, &il, &op, &ol) != static_cast<size_t>(-1) && sizeof out - ol == 1;
  iconv_close(cd);
  if (!ok) return std::nullopt;
  return static_cast<unsigned char>(out[0]);
}

// AppendXml and AppendEncoded spelled out one code point at a time from the
// primitives, as the header describes them: the oracle for the fast paths.
std::string Reference(std::string out, std::string_view in, std::optional<XmlContext> ctx, Charset cs) {
  for (size_t i = 0; i < in.size();) {
    size_t len;
    std::optional<char32_t> cp = DecodeUtf8(in.substr(i), &len);
    i += len;
    if (!cp || !IsXmlChar(*cp)) continue;
    const char32_t c = *cp;
    if (ctx == kText || ctx == kAttr) {
      if (c == '&') {
        out += "&amp;";
        continue;
      }
      if (c == '<') {
        out += "&lt;";
        continue;
      }
      if (c == '>') {
        out += "&gt;";
        continue;
      }
    }
    if (ctx == kAttr) {
      if (c == '"') {
        out += "&quot;";
        continue;
      }
      if (c == '\t') {
        out += "&#9;";
        continue;
      }
      if (c == '\n') {
        out += "&#10;";
        continue;
      }
      if (c == '\r') {
        out += "&#13;";
        continue;
      }
    }
    if (ctx == kCData && c == '>' && out.ends_with("]]")) out += "]]><![CDATA[";
    if (cs == kUtf8) {
      AppendUtf8(out, c);
    } else if (std::optional<unsigned char> b = cs == k1251 ? ToCp1251(c) : IconvByte(cs.name(), c)) {
      out.push_back(static_cast<char>(*b));
    } else {
      std::string ref = "&#" + std::to_string(static_cast<uint32_t>(c)) + ";";
      out += ctx == kCData ? "]]>" + ref + "<![CDATA[" : ref;
    }
  }
  return out;
}

void ExpectMatchesReference(const std::string& in, const std::string& prefix) {
  static const Charset koi8 = *CharsetFromName("KOI8-R"), iso5 = *CharsetFromName("ISO-8859-5");
  for (const Charset& cs : {kUtf8, k1251, koi8, iso5}) {
    for (XmlContext ctx : {kText, kAttr, kCData}) {
      std::string out = prefix;
      AppendXml(out, in, ctx, cs);
      ASSERT_EQ(Visible(out), Visible(Reference(prefix, in, ctx, cs)))
          << "input \"" << Visible(in) << "\" context " << static_cast<int>(ctx) << " " << CharsetName(cs);
    }
    std::string out = prefix;
    AppendEncoded(out, in, cs);
    ASSERT_EQ(Visible(out), Visible(Reference(prefix, in, std::nullopt, cs)))
        << "AppendEncoded \"" << Visible(in) << "\" " << CharsetName(cs);
  }
  ASSERT_EQ(Visible(CleanUtf8(in)), Visible(Reference("", in, std::nullopt, kUtf8)))
      << "CleanUtf8 \"" << Visible(in) << "\"";
}

// What can stop or fall out of a fast path, for the sweeps below.
const std::vector<std::string> kInterruptions = {
    "&",
    "<",
    ">",
    "\"",
    "'",
    "]]>",
    "\t",
    "\n",
    "\r",
    "\x01",
    "\x00"s,
    "\x7F",
    "\xC2\x85",
    "\u00A0",
    "«",
    "é",
    "\u0400",
    "Ђ",
    "Ё",
    "ё",
    "ґ",
    "Ґ",
    "ѐ",
    "џ",
    "\u04FF",
    "\u07FF",
    "—",
    "№",
    "€",
    "中",
    "\uFFFD",
    "😀",
    "\xEF\xBF\xBE",
    "\xED\xA0\x80",
    "\xC0\xAF",
    "\x80",
    "\xBF",
    "\xFF",
    "\xD0",
    "\xD1",
    "\xD0x",
    "\xD1 ",
    "\xD0\xD0\x96",
    "\xE2\x82",
    "\xF0\x9F\x98",
};

TEST(AppendXmlTest, FastPathsMatchTheReferenceAtEveryOffset) {
  // Plain text of every length before and after each interruption.
  for (size_t before = 0; before <= 36; ++before) {
    for (int variant = 0; variant < 3; ++variant) {
      const std::string head = PlainText(before, variant);
      ASSERT_EQ(head.size(), before);
      for (const std::string& x : kInterruptions) {
        for (size_t after : {0, 1, 17}) {
          std::string in = head + x + PlainText(after, variant);
          ExpectMatchesReference(in, "");
          ExpectMatchesReference(in, "]]");
        }
      }
    }
  }
}

TEST(AppendXmlTest, RandomTextMatchesTheReference) {
  static const std::vector<std::string> kCommon = {"а", "я", "Ж", "П", "р", "о", "е", "т",
                                                   "a", "Z", "5", ",", " ", "Ё", "ё"};
  std::mt19937 rng(20251130);
  for (int iter = 0; iter < 4000; ++iter) {
    std::string in;
    const size_t pieces = rng() % (iter % 10 == 0 ? 400 : 60);
    const unsigned rare = 2 + rng() % 30;
    for (size_t k = 0; k < pieces; ++k) {
      in += rng() % rare == 0 ? kInterruptions[rng() % kInterruptions.size()] : kCommon[rng() % kCommon.size()];
    }
    ExpectMatchesReference(in, iter % 2 == 0 ? "" : "x]]");
  }
}

TEST(AppendXmlTest, GrowsForExpandingOutput) {
  // Every character takes many times its size: the output buffer must grow
  // well past what the input's length suggests.
  for (size_t count : {1, 2, 7, 16, 100, 5000}) {
    std::string emoji, quotes;
    for (size_t k = 0; k < count; ++k) {
      emoji += "😀";
      quotes += "\"";
    }
    ExpectMatchesReference(emoji, "");
    ExpectMatchesReference(quotes, "]]");
    std::string cdata = "<![CDATA[";
    AppendXml(cdata, emoji, kCData, k1251);
    EXPECT_EQ(cdata.size(), 9 + count * std::string_view("]]>&#128512;<![CDATA[").size());
  }
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

TEST(Cp1251AsUtf8, EveryByteMapsToItsCodePoint) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  std::string out = "stale";
  AssignCp1251AsUtf8(out, all);
  std::string expected;
  for (int b = 0; b < 256; ++b) AppendUtf8(expected, FromCp1251(static_cast<unsigned char>(b)));
  EXPECT_EQ(out, expected);
  AssignCp1251AsUtf8(out,
                     "\xcf\xf0\xe8\xe2\xb3\xf2 \xb9"
                     "5 \x88");  // "Привіт №5 €"
  EXPECT_EQ(out, "Привіт №5 €");
  AssignCp1251AsUtf8(out, "");
  EXPECT_EQ(out, "");
}

// Converts `in` from a heap block of exactly its size (so that AddressSanitizer
// sees a read past its end), into a string that held `stale` before, and
// compares with the reference.
void ExpectCp1251MatchesReference(const std::string& in, const std::string& stale = "") {
  auto exact = std::make_unique<char[]>(in.size() + (in.empty() ? 1 : 0));
  std::copy(in.begin(), in.end(), exact.get());
  std::string out = stale;
  AssignCp1251AsUtf8(out, std::string_view(exact.get(), in.size()));
  const std::string want = Cp1251ToUtf8(in);
  if (out == want) return;  // Visible is for failures only: it is slow
  ASSERT_EQ(Visible(out), Visible(want)) << "input \"" << Visible(in) << "\" (" << in.size() << " bytes), stale "
                                         << stale.size();
}

// What can stop or fall out of the letters-and-ASCII block path: every byte
// it hands to the table (80-BF, 0x98 among them), the edges of the ranges it
// converts itself (00 7F C0 EF F0 FF), and runs of them.
std::vector<std::string> Cp1251Interruptions() {
  std::vector<std::string> v;
  for (int b = 0x80; b < 0xC0; ++b) v.push_back(std::string(1, static_cast<char>(b)));
  for (const char* x : {"\x7F", "\xC0", "\xEF", "\xF0", "\xFF", "\x98\x98", "\xAB\xBB", "\xB9\x88\x85", "\xA8\xC0\xB8",
                        "\x80\xFF\x80", "\xBF\xC0\xBF\x7F"}) {
    v.push_back(x);
  }
  v.push_back("\x00"s);
  v.push_back("\x00\xFF\x00"s);
  v.push_back(std::string(17, '\x96'));
  v.push_back(std::string(33, '\xB3'));
  return v;
}

// `bytes` of windows-1251 letters (C0-FF, both halves) with ASCII at
// positions that depend on `variant`, so that the blocks hold letters only,
// ASCII only and mixtures, split anywhere.
std::string Cp1251Plain(size_t bytes, int variant) {
  static const std::string kLetters = "\xCF\xF0\xEE\xE4\xE0\xEC\xC6\xFF\xC0\xDF\xEF\xF0\xD9\xFA";
  std::string s;
  for (size_t k = 0; s.size() < bytes; ++k) {
    if (variant == 3) {
      s += static_cast<char>('a' + k % 26);  // ASCII only
    } else if (variant > 0 && k % (2 + variant) == 0) {
      s += variant % 2 == 0 ? ' ' : '5';
    } else {
      s += kLetters[(k * 7 + static_cast<size_t>(variant)) % kLetters.size()];
    }
  }
  return s;
}

TEST(Cp1251AsUtf8, EveryByteAtEveryPositionMatchesTheReference) {
  // Each byte value alone at each position of strings up to three blocks
  // long, among letters and among ASCII.
  for (size_t len = 1; len <= 49; ++len) {
    for (int variant : {0, 3}) {
      const std::string base = Cp1251Plain(len, variant);
      for (size_t pos = 0; pos < len; ++pos) {
        for (int b = 0; b < 256; ++b) {
          std::string in = base;
          in[pos] = static_cast<char>(b);
          ExpectCp1251MatchesReference(in);
        }
      }
    }
  }
}

TEST(Cp1251AsUtf8, FastPathMatchesTheReferenceAtEveryOffset) {
  const std::vector<std::string> interruptions = Cp1251Interruptions();
  for (size_t before = 0; before <= 40; ++before) {
    for (int variant = 0; variant < 4; ++variant) {
      const std::string head = Cp1251Plain(before, variant);
      for (const std::string& x : interruptions) {
        for (size_t after : {0, 1, 7, 15, 16, 17, 31, 40}) {
          const std::string in = head + x + Cp1251Plain(after, variant);
          ExpectCp1251MatchesReference(in);
          // Twice the interruption, a block apart and not.
          ExpectCp1251MatchesReference(in + x + head);
        }
      }
    }
  }
}

TEST(Cp1251AsUtf8, RandomBytesMatchTheReference) {
  std::mt19937 rng(1251);
  std::string out;  // reused, as a result row reuses its strings
  for (int iter = 0; iter < 20000; ++iter) {
    const size_t len = rng() % (iter % 10 == 0 ? 2000 : 80);
    // Mostly letters and ASCII, as text is; sometimes any byte at all.
    const unsigned any = iter % 3 == 0 ? 1 : 2 + rng() % 60;
    std::string in(len, '\0');
    for (char& c : in) {
      const unsigned r = static_cast<unsigned>(rng());
      if (r % any == 0) {
        c = static_cast<char>(r >> 8);
      } else if ((r >> 8) % 4 == 0) {
        c = static_cast<char>(0x20 + (r >> 12) % 0x5F);
      } else {
        c = static_cast<char>(0xC0 + (r >> 12) % 0x40);
      }
    }
    ExpectCp1251MatchesReference(in, iter % 4 == 0 ? "" : std::string(rng() % 5000, 'x'));
    AssignCp1251AsUtf8(out, in);
    ASSERT_EQ(out, Cp1251ToUtf8(in)) << "reused output, input " << Visible(in);
    // Every suffix start, so that the blocks begin at every alignment.
    if (iter % 50 == 0) {
      for (size_t k = 0; k < std::min<size_t>(in.size(), 20); ++k) {
        ExpectCp1251MatchesReference(in.substr(k));
      }
    }
  }
}

TEST(Cp1251AsUtf8, LongInputsOfTheWidestCharacters) {
  // Three UTF-8 bytes a byte throughout, after a run of letters (two a
  // byte) or not: the output buffer must grow.
  for (size_t count : {1, 15, 16, 17, 100, 5000}) {
    const std::string wide(count, '\x88');  // €
    ExpectCp1251MatchesReference(wide);
    ExpectCp1251MatchesReference(Cp1251Plain(count, 0) + wide);
    ExpectCp1251MatchesReference(wide + Cp1251Plain(count, 1) + wide, std::string(count, 'x'));
    std::string mixed;
    for (size_t k = 0; k < count; ++k) mixed += k % 2 == 0 ? "\xB9\xE0" : "\xFF";
    ExpectCp1251MatchesReference(mixed);
  }
  std::string out;
  AssignCp1251AsUtf8(out, std::string(100000, '\xE0') + "\x85" + std::string(100000, 'x'));
  EXPECT_EQ(out, Cp1251ToUtf8(std::string(100000, '\xE0') + "\x85" + std::string(100000, 'x')));
}

}  // namespace
}  // namespace feed

// AppendXmlCp1251: windows-1251 bytes escaped for XML without the trip
// through UTF-8 (issue #12). The oracle is the UTF-8 way the header names,
// AppendXml on the text read as UTF-8, with the bytes converted by
// Cp1251ToUtf8 (FromCp1251 one byte at a time), not by the fast
// AssignCp1251AsUtf8.
namespace feed {
namespace {

std::string ViaUtf8(std::string out, std::string_view cp1251, XmlContext ctx) {
  AppendXml(out, Cp1251ToUtf8(cp1251), ctx, k1251);
  return out;
}

// AppendXmlCp1251 on `in` from a heap block of exactly its size (so that
// AddressSanitizer sees a read past its end), after `prefix`, in each
// context, against the UTF-8 way.
void ExpectCp1251XmlMatchesUtf8Way(const std::string& in, const std::string& prefix = "") {
  auto exact = std::make_unique<char[]>(in.size() + (in.empty() ? 1 : 0));
  std::copy(in.begin(), in.end(), exact.get());
  for (XmlContext ctx : {kText, kAttr, kCData}) {
    std::string out = prefix;
    AppendXmlCp1251(out, std::string_view(exact.get(), in.size()), ctx);
    const std::string want = ViaUtf8(prefix, in, ctx);
    if (out == want) continue;  // Visible is for failures only: it is slow
    ASSERT_EQ(Visible(out), Visible(want)) << "input \"" << Visible(in) << "\" (" << in.size() << " bytes), prefix \""
                                           << Visible(prefix) << "\", context " << static_cast<int>(ctx);
  }
}

std::string RenderCp1251(std::string_view in, XmlContext ctx, std::string out = "") {
  AppendXmlCp1251(out, in, ctx);
  return out;
}

TEST(AppendXmlCp1251Test, ByHand) {
  const std::vector<EscapeCase> cases = {
      {"", kText, k1251, ""},
      {"plain ascii 123", kText, k1251, "plain ascii 123"},
      {"a&b<c>\"", kText, k1251, "a&amp;b&lt;c&gt;\""},
      {"a&b<c>\"", kAttr, k1251, "a&amp;b&lt;c&gt;&quot;"},
      {"a&b<c>\"", kCData, k1251, "a&b<c>\""},
      // Cyrillic and the signs of the code page pass as they are.
      {"\xCF\xF0\xE8\xE2\xE5\xF2 \xA8\xB8", kText, k1251, "\xCF\xF0\xE8\xE2\xE5\xF2 \xA8\xB8"},
      {"\xB9"
       "5 \x88 \x97 \xAB\xBB \xA0 \x85",
       kAttr, k1251,
       "\xB9"
       "5 \x88 \x97 \xAB\xBB \xA0 \x85"},
      {"\x80\x81\x9F\xBF\xC0\xFF", kCData, k1251, "\x80\x81\x9F\xBF\xC0\xFF"},
      // 0x98, undefined, reads as U+FFFD, which the code page lacks.
      {"\x98", kText, k1251, "&#65533;"},
      {"\x98", kAttr, k1251, "&#65533;"},
      {"a\x98z", kCData, k1251, "a]]>&#65533;<![CDATA[z"},
      // C0 controls are dropped; TAB, LF, CR are kept, as references in
      // attributes.
      {"\x01", kText, k1251, ""},
      {"a\x01z", kAttr, k1251, "az"},
      {"a\x00z"s, kCData, k1251, "az"},
      {"a\x1F\x7Fz", kText, k1251, "a\x7Fz"},
      {"\t\n\r", kText, k1251, "\t\n\r"},
      {"\t", kAttr, k1251, "&#9;"},
      {"\t\n\r", kAttr, k1251, "&#9;&#10;&#13;"},
      {"\t\n\r", kCData, k1251, "\t\n\r"},
      // CDATA: "]]>" split.
      {"x]]>y", kCData, k1251, "x]]]]><![CDATA[>y"},
      {"]]>]]>", kCData, k1251, "]]]]><![CDATA[>]]]]><![CDATA[>"},
      {"]]]>", kCData, k1251, "]]]]]><![CDATA[>"},
      {"]]\x01>", kCData, k1251, "]]]]><![CDATA[>"},
      {"] ]>", kCData, k1251, "] ]>"},
      {"x]]>y", kText, k1251, "x]]&gt;y"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(Visible(RenderCp1251(c.in, c.ctx)), Visible(c.want))
        << "input \"" << Visible(c.in) << "\" context " << static_cast<int>(c.ctx);
  }
}

TEST(AppendXmlCp1251Test, CDataSplitLooksAtWhatOutHolds) {
  EXPECT_EQ(RenderCp1251(">", kCData, "<![CDATA[x]]"), "<![CDATA[x]]]]><![CDATA[>");
  EXPECT_EQ(RenderCp1251(">y", kCData, "]]"), "]]]]><![CDATA[>y");
  EXPECT_EQ(RenderCp1251("]>", kCData, "<![CDATA[]"), "<![CDATA[]]]]><![CDATA[>");
  EXPECT_EQ(RenderCp1251("\x01>", kCData, "]]"), "]]]]><![CDATA[>");
  EXPECT_EQ(RenderCp1251(">", kCData, "]"), "]>");
  EXPECT_EQ(RenderCp1251(">", kCData, "] ]"), "] ]>");
  EXPECT_EQ(RenderCp1251(">", kCData, ""), ">");
  EXPECT_EQ(RenderCp1251(">", kText, "]]"), "]]&gt;");
  // Handed over in pieces, the section still never ends early.
  std::string out = "<![CDATA[";
  AppendXmlCp1251(out, "a]]", kCData);
  AppendXmlCp1251(out, ">b", kCData);
  out += "]]>";
  EXPECT_EQ(out, "<![CDATA[a]]]]><![CDATA[>b]]>");
}

TEST(AppendXmlCp1251Test, EveryByteAloneAndAmongLetters) {
  for (int b = 0; b < 256; ++b) {
    const std::string c(1, static_cast<char>(b));
    for (const std::string& in : {c, "a" + c + "z", "\xC6" + c + "\xFF", c + c, "]]" + c + ">", c + "]]>"}) {
      ExpectCp1251XmlMatchesUtf8Way(in);
      ExpectCp1251XmlMatchesUtf8Way(in, "]]");
      ExpectCp1251XmlMatchesUtf8Way(in, "]");
    }
  }
}

TEST(AppendXmlCp1251Test, EveryByteAtEveryOffset) {
  // The fast paths go 16 bytes at a time: each byte value at each position
  // of the first three blocks, among letters and among ASCII, and strings
  // that end right there or a little later.
  for (size_t pos = 0; pos <= 40; ++pos) {
    for (size_t after : {0, 1, 15, 16, 17}) {
      for (int variant : {0, 1, 3}) {
        const std::string base = Cp1251Plain(pos + 1 + after, variant);
        for (int b = 0; b < 256; ++b) {
          std::string in = base;
          in[pos] = static_cast<char>(b);
          ExpectCp1251XmlMatchesUtf8Way(in);
        }
      }
    }
  }
}

TEST(AppendXmlCp1251Test, InterruptionsAtEveryOffset) {
  std::vector<std::string> interruptions = Cp1251Interruptions();
  for (const char* x : {"&", "<", ">", "\"", "'", "]", "]]", "]]>", "]]\x01>", "\t", "\n", "\r", "\x01", "\x1F", "\x7F",
                        "&\x98<", "\x98\x98\x98", "\"\x98\"", "\xA0\xB9\x88"}) {
    interruptions.push_back(x);
  }
  interruptions.push_back(std::string(20, '&'));
  interruptions.push_back(std::string(33, '\x98'));
  for (size_t before = 0; before <= 40; ++before) {
    for (int variant = 0; variant < 4; ++variant) {
      const std::string head = Cp1251Plain(before, variant);
      for (const std::string& x : interruptions) {
        for (size_t after : {0, 1, 15, 16, 17, 33}) {
          const std::string in = head + x + Cp1251Plain(after, variant);
          ExpectCp1251XmlMatchesUtf8Way(in);
          ExpectCp1251XmlMatchesUtf8Way(in + x + head, "]]");
        }
      }
    }
  }
}

TEST(AppendXmlCp1251Test, RandomBytesMatchTheUtf8Way) {
  static const std::string kMarkup = "&<>\"']]\t\n\r\x01\x00\x98"s;
  std::mt19937 rng(1251098);
  for (int iter = 0; iter < 4000; ++iter) {
    const size_t len = rng() % (iter % 10 == 0 ? 1000 : 70);
    // Mostly letters and ASCII as text is, some markup; sometimes any byte.
    const unsigned any = iter % 3 == 0 ? 1 : 2 + rng() % 40;
    std::string in(len, '\0');
    for (char& c : in) {
      const unsigned r = static_cast<unsigned>(rng());
      if (r % any == 0) {
        c = static_cast<char>(r >> 8);
      } else if ((r >> 8) % 8 == 0) {
        c = kMarkup[(r >> 12) % kMarkup.size()];
      } else if ((r >> 8) % 4 == 0) {
        c = static_cast<char>(0x20 + (r >> 12) % 0x5F);
      } else {
        c = static_cast<char>(0xC0 + (r >> 12) % 0x40);
      }
    }
    static const std::string kPrefixes[] = {"", "]]", "]", "x", "<![CDATA[x]]"};
    ExpectCp1251XmlMatchesUtf8Way(in, kPrefixes[iter % 5]);
    // Every start in the first block, so that blocks begin at every alignment.
    if (iter % 40 == 0) {
      for (size_t k = 1; k < std::min<size_t>(in.size(), 17); ++k) ExpectCp1251XmlMatchesUtf8Way(in.substr(k));
    }
  }
}

TEST(AppendXmlCp1251Test, LongInputs) {
  const size_t n = 100000;
  std::string letters = Cp1251Plain(n, 0), mixed = Cp1251Plain(n, 1), any(n, '\0');
  std::mt19937 rng(100000);
  for (char& c : any) c = static_cast<char>(rng());
  std::string every_byte;
  while (every_byte.size() < n) every_byte += static_cast<char>(every_byte.size() % 256);
  std::string brackets;
  while (brackets.size() < n) brackets += "]]>";
  for (const std::string& in : {letters, mixed, any, every_byte, brackets, std::string(n, '\x98'), std::string(n, '&'),
                                std::string(n, '\x01'), std::string(n, '\t'), letters + "\x98" + letters}) {
    ExpectCp1251XmlMatchesUtf8Way(in);
    ExpectCp1251XmlMatchesUtf8Way(in, "]]");
  }
  // Appended after a long document: the output grows in place.
  std::string out(n, 'x');
  AppendXmlCp1251(out, std::string(n, '\x98'), kCData);
  EXPECT_EQ(out.size(), n + n * std::string_view("]]>&#65533;<![CDATA[").size());
}

}  // namespace
}  // namespace feed
