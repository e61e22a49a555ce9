// Template compilation and rendering, without a database: rows come from a
// small in-memory stand-in for Rows built on a real sql::ResultSet would
// need a server, so these tests render through a Rows-compatible fixture.
#include "template.h"

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include "text_samples.h"

#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "clock.h"
#include "error.h"
#include "time_zone.h"
#include "xml_text.h"
#include "cp1251_reference.h"

namespace feed {
namespace {

using feed::testing::Cp1251ToUtf8;

const std::map<std::string, std::string> kSite = {
    {"site.url", "http://doska.example"}, {"site.title", "Доска"}, {"value.flag", "1"}, {"value.empty", ""}};

Template Compile(const std::string& xml, Charset cs = Charset::kUtf8) {
  return Template::Parse(xml, "t.xml", cs, kSite);
}

std::string ConfigErrorOf(const std::string& xml) {
  try {
    Compile(xml);
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    return e.what();
  }
  return "(compiled)";
}

// Whether a template writes a per-response value decides whether its
// entity tags are weak (feed.date, feed.continue: the run's moment).
TEST(TemplateCompile, KnowsWhichPerResponseValuesItWrites) {
  Template t = Compile(
      "<c date=\"{feed.date}\" xmlns:feed=\"urn:feed-fcgi:template\"><r feed:each=\"row\">{x}</r>"
      "<m feed:if=\"feed.more\">more</m></c>");
  EXPECT_TRUE(t.Writes("feed.date"));
  EXPECT_FALSE(t.Writes("feed.more")) << "feed:if only tests it";
  EXPECT_FALSE(t.Writes("feed.continue"));
  EXPECT_FALSE(t.Writes("feed.updated"));
  EXPECT_FALSE(t.Writes("x"));
  Template u = Compile(
      "<c xmlns:feed=\"urn:feed-fcgi:template\"><r feed:each=\"row\">{x}</r>"
      "<m feed:if=\"feed.more\">{feed.continue}</m><u>{feed.updated}</u></c>");
  EXPECT_FALSE(u.Writes("feed.date"));
  EXPECT_TRUE(u.Writes("feed.continue"));
  EXPECT_TRUE(u.Writes("feed.updated"));
}

TEST(TemplateCompile, ReportsFileAndLineOfEachMistake) {
  struct Case {
    const char* xml;
    const char* expect;
  } cases[] = {
      {"<a><b feed:each=\"row\">{x}</b>\n<c>", "t.xml:2: not well-formed"},
      {"<a>\n<b>{x}</b></a>", "t.xml:2: row field {x} outside"},
      {"<a><b feed:each=\"row\">\n{x|nosuch}</b></a>", "t.xml:2: unknown filter 'nosuch'"},
      {"<a><b feed:each=\"row\"/><c feed:each=\"row\"/></a>", "t.xml:1: a second feed:each"},
      {"<a><b/></a>", "no element has feed:each"},
      {"<a><b feed:each=\"row\" feed:bogus=\"1\"/></a>", "unknown directive feed:bogus"},
      {"<a><b feed:each=\"row\" feed:require=\"id:odd\"/></a>", "unknown rule 'odd'"},
      {"<a><b feed:each=\"row\">{x</b></a>", "'{' without '}'"},
      {"<a><b feed:each=\"row\">x}</b></a>", "'}' without '{'"},
      {"<a>{feed.nosuch}<b feed:each=\"row\"/></a>", "unknown value 'feed.nosuch'"},
      {"<a>{site.nosuch}<b feed:each=\"row\"/></a>", "no key 'nosuch'"},
      {"<a feed:if=\"feed.more\"><b feed:each=\"row\"/></a>", "cannot be inside a feed:if"},
      {"<a><b feed:each=\"row\">{feed.date}</b></a>", "stand outside the feed:each"},
      {"<a><b feed:each=\"all\"/></a>", "feed:each takes \"row\""},
  };
  for (const Case& c : cases) {
    std::string msg = ConfigErrorOf(c.xml);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.xml << "\n  gave: " << msg;
  }
}

TEST(TemplateCompile, ListsRowFieldsOnce) {
  Template t = Compile(
      "<a><b feed:each=\"row\" feed:require=\"id:alnum\" x=\"{id}\">{title}{id|trim}"
      "<c feed:if=\"photo\">{title}</c></b></a>");
  EXPECT_EQ(t.Fields(), (std::vector<std::string>{"id", "title", "photo"}));
}

TEST(TemplateCompile, UnknownColumnNamesTheTemplateLine) {
  Template t = Compile("<a>\n<b feed:each=\"row\">\n{title}</b></a>");
  try {
    t.BindColumns({{"other", ColumnType::kText}}, "q.sql");
    FAIL() << "bound a missing column";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("t.xml:3: field 'title' is not a column of q.sql"), std::string::npos)
        << e.what();
  }
}

TEST(TemplateRender, HeadAndTailWithDocumentValues) {
  Template t = Compile(
      "<?xml version=\"1.0\"?>\n<!-- c -->\n<cat date=\"{feed.date}\" site=\"{site.url|noscheme}\" xmlns:feed=\"x\">\n"
      "  <ads>\n    <ad feed:each=\"row\"/>\n  </ads>\n"
      "  <continue feed:if=\"feed.more\">{feed.continue}</continue>\n  <last feed:if=\"!feed.more\"/>\n</cat>",
      Charset::kWindows1251);
  DocumentValues doc;
  doc.date = "2026-11-01 12:00:00";
  std::string head, tail;
  t.RenderHead(head, doc);
  EXPECT_EQ(head,
            "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n"
            "<cat date=\"2026-11-01 12:00:00\" site=\"doska.example\">\n<ads>\n");
  t.RenderTail(tail, doc);
  EXPECT_EQ(tail, "</ads>\n<last/>\n</cat>\n");
  doc.more = true;
  doc.continue_token = "AbC123";
  tail.clear();
  t.RenderTail(tail, doc);
  EXPECT_EQ(tail, "</ads>\n<continue>AbC123</continue>\n</cat>\n");
}

TEST(TemplateRender, SiteValuesAreEscapedAndEncodedAtCompileTime) {
  Template t =
      Compile("<a t=\"{site.title}\">{site.title} &amp; {{x}}<b feed:each=\"row\"/></a>", Charset::kWindows1251);
  std::string head;
  t.RenderHead(head, {});
  // "Доска" in windows-1251, the decoded &amp; escaped again, braces literal.
  EXPECT_EQ(head.substr(head.find("<a")), "<a t=\"\xc4\xee\xf1\xea\xe0\">\n\xc4\xee\xf1\xea\xe0 &amp; {x}");
}

TEST(TemplateRender, OutputAlwaysParses) {
  // Whatever the document values hold, the structure comes from the
  // template: the result is well-formed.
  Template t = Compile("<a d=\"{feed.date}\"><![CDATA[{feed.name}]]><b feed:each=\"row\"/>{feed.continue}</a>");
  DocumentValues doc;
  doc.date = "\"><evil x='";
  doc.name = "]]><evil/>\x01";
  doc.continue_token = "</a><a>";
  std::string out;
  t.RenderHead(out, doc);
  t.RenderTail(out, doc);
  tinyxml2::XMLDocument parsed;
  ASSERT_EQ(parsed.Parse(out.c_str()), tinyxml2::XML_SUCCESS) << out;
  EXPECT_STREQ(parsed.RootElement()->Attribute("d"), "\"><evil x='");
  EXPECT_EQ(parsed.RootElement()->FirstChildElement(), nullptr) << out;
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

using Cells = std::vector<std::optional<std::string>>;

const char kAds[] =
    "<c><ads>\n<ad feed:each=\"row\" feed:require=\"id:required id:alnum id:maxlen=32\">\n"
    "<title>{title|plain}</title><tel>{phone|flag}</tel><date>{added|date}</date>"
    "<url>{url|noscheme}</url><id>{id}</id><n a=\"{title}\"><![CDATA[{title}]]></n>"
    "<pic feed:if=\"photo\">1</pic></ad>\n</ads></c>";

Template Ads(Charset cs) {
  Template t = Template::Parse(kAds, "ads.xml", cs, {});
  t.BindColumns({{"photo", ColumnType::kText},
                 {"id", ColumnType::kText},
                 {"title", ColumnType::kText},
                 {"phone", ColumnType::kText},
                 {"added", ColumnType::kDateTime},
                 {"url", ColumnType::kText}},
                "q.sql");
  return t;
}

TEST(TemplateRender, RowFieldsFiltersAndContexts) {
  Template t = Ads(Charset::kWindows1251);
  Rows rows({Cells{"", "A1", " <b>Продам</b> &quot;ВАЗ&quot; 😀 ]]> ", "  ", "2026-10-01 08:00:00",
                   "http://d.example/ad/1.html"}});
  ASSERT_TRUE(rows.Next());
  std::string out;
  RowRejection why;
  ASSERT_TRUE(t.RenderRow(out, rows, &why));
  EXPECT_EQ(out,
            "<ad>\n<title>\xcf\xf0\xee\xe4\xe0\xec \"\xc2\xc0\xc7\" &#128512; ]]&gt;</title>\n"
            "<tel>0</tel>\n<date>2026-10-01</date>\n<url>d.example/ad/1.html</url>\n<id>A1</id>\n"
            "<n a=\" &lt;b&gt;\xcf\xf0\xee\xe4\xe0\xec&lt;/b&gt; &amp;quot;\xc2\xc0\xc7&amp;quot; &#128512; ]]&gt; \">"
            "<![CDATA[ <b>\xcf\xf0\xee\xe4\xe0\xec</b> &quot;\xc2\xc0\xc7&quot; ]]>&#128512;<![CDATA[ ]]]]><![CDATA[> "
            "]]></n>\n"
            "</ad>\n");
}

// RenderRow on `cells` as a cp1251 connection's bytes and as the same text
// in UTF-8: the same document, the same verdict. Returns the document.
std::string ExpectCp1251RowAsUtf8(const Template& t, const Cells& cells) {
  Cells utf8;
  for (const auto& c : cells) utf8.push_back(c ? std::optional<std::string>(Cp1251ToUtf8(*c)) : std::nullopt);
  Rows raw({cells}, SIZE_MAX, /*cp1251=*/true), converted({utf8});
  EXPECT_TRUE(raw.Next() && converted.Next());
  std::string out, want;
  RowRejection why, want_why;
  const bool ok = t.RenderRow(out, raw, &why);
  const bool want_ok = t.RenderRow(want, converted, &want_why);
  std::string where;
  for (const auto& c : cells) where += (c ? "\"" + testing::Visible(*c) + "\"" : "NULL") + " ";
  EXPECT_EQ(ok, want_ok) << where;
  EXPECT_EQ(why.field, want_why.field) << where;
  EXPECT_EQ(why.rule, want_why.rule) << where;
  if (out != want) {
    EXPECT_EQ(testing::Visible(out), testing::Visible(want)) << where;
  }
  return out;
}

// A cp1251 connection's rows going to a windows-1251 feed: the text is
// written from the connection's bytes, with no trip through UTF-8, and
// comes out as the same text given as UTF-8 does.
TEST(TemplateRender, Cp1251RowsGoToAWindows1251FeedWithoutUtf8) {
  Template t = Ads(Charset::kWindows1251);
  // photo, id, title, phone, added, url; the title in windows-1251:
  // " <b>Продам</b> &quot;ВАЗ&quot; ]]> ".
  const std::string title = " <b>\xcf\xf0\xee\xe4\xe0\xec</b> &quot;\xc2\xc0\xc7&quot; ]]> ";
  Rows rows({Cells{"", "A1", title, "  ", "2026-10-01 08:00:00", "http://d.example/ad/1.html"}}, SIZE_MAX,
            /*cp1251=*/true);
  ASSERT_TRUE(rows.Next());
  std::string out;
  RowRejection why;
  ASSERT_TRUE(t.RenderRow(out, rows, &why));
  EXPECT_EQ(out,
            "<ad>\n<title>\xcf\xf0\xee\xe4\xe0\xec \"\xc2\xc0\xc7\" ]]&gt;</title>\n"
            "<tel>0</tel>\n<date>2026-10-01</date>\n<url>d.example/ad/1.html</url>\n<id>A1</id>\n"
            "<n a=\" &lt;b&gt;\xcf\xf0\xee\xe4\xe0\xec&lt;/b&gt; &amp;quot;\xc2\xc0\xc7&amp;quot; ]]&gt; \">"
            "<![CDATA[ <b>\xcf\xf0\xee\xe4\xe0\xec</b> &quot;\xc2\xc0\xc7&quot; ]]]]><![CDATA[> "
            "]]></n>\n"
            "</ad>\n");
  // Only the values something reads as UTF-8 were converted: id (its
  // feed:require rules) and photo (feed:if); none of the written text.
  EXPECT_EQ(rows.conversions(), 2u);
}

// Where the windows-1251 way cannot go, the UTF-8 way gives the text: a
// reference to a character the code page lacks, a filter without a
// windows-1251 way (url), a UTF-8 feed. Each value comes out as the same
// row given as UTF-8 gives it.
TEST(TemplateRender, Cp1251RowsTakeTheUtf8WayWhereTheyMust) {
  struct Case {
    const char* what;
    Charset cs;
    std::string cp1251;  // the title, in windows-1251
    const char* want;    // the <title> element as written
  } cases[] = {
      {"a reference to a character windows-1251 lacks", Charset::kWindows1251,
       "\xc2\xc0\xc7 &#128512; &alpha; &#8470;5", "<title>\xc2\xc0\xc7 &#128512; &#945; \xb9" "5</title>"},
      {"0x98 (undefined: U+FFFD) and a control", Charset::kWindows1251, "a\x98" "b\x01" "c",
       "<title>a&#65533;bc</title>"},
      {"a UTF-8 feed", Charset::kUtf8, "\xc2\xc0\xc7 &laquo;x&raquo;", "<title>ВАЗ «x»</title>"},
  };
  for (const Case& c : cases) {
    const std::string out = ExpectCp1251RowAsUtf8(Ads(c.cs), {"", "A1", c.cp1251, "1", "2026-10-01 08:00:00", "u"});
    EXPECT_NE(out.find(c.want), std::string::npos) << c.what << ": " << out;
  }

  // url has no windows-1251 way: the value is read as UTF-8 and
  // percent-encoded as such.
  Template u = Template::Parse("<c><i feed:each=\"row\"><u>{link|url}</u></i></c>", "u.xml", Charset::kWindows1251, {});
  u.BindColumns({{"link", ColumnType::kText}}, "q.sql");
  Rows raw({Cells{"http://d.example/\xe4"}}, SIZE_MAX, /*cp1251=*/true);
  ASSERT_TRUE(raw.Next());
  std::string out;
  ASSERT_TRUE(u.RenderRow(out, raw, nullptr));
  EXPECT_EQ(out, "<i>\n<u>http://d.example/%D0%B4</u>\n</i>\n");
  EXPECT_EQ(raw.conversions(), 1u);
}

TEST(TemplateRender, RowsBreakingARuleAreLeftOutAndExplained) {
  Template t = Ads(Charset::kUtf8);
  struct Case {
    std::string id;
    std::string rule;
  } cases[] = {
      {"", "required"}, {"  ", "required"}, {"AB-12/7", "alnum"}, {"Ид1", "alnum"}, {std::string(33, 'a'), "maxlen=32"},
  };
  for (const Case& c : cases) {
    Rows rows({Cells{"x.jpg", c.id, "t", "1", "2026-10-01 08:00:00", "u"}});
    ASSERT_TRUE(rows.Next());
    std::string out;
    RowRejection why;
    EXPECT_FALSE(t.RenderRow(out, rows, &why)) << c.id;
    EXPECT_EQ(out, "");
    EXPECT_EQ(why.field, "id");
    EXPECT_EQ(why.rule, c.rule) << c.id;
  }
  Rows ok({Cells{"x.jpg", std::string(32, '7'), "t", "1", "2026-10-01", std::nullopt}});
  ASSERT_TRUE(ok.Next());
  std::string out;
  EXPECT_TRUE(t.RenderRow(out, ok, nullptr));
  EXPECT_NE(out.find("<pic>1</pic>"), std::string::npos) << out;
  EXPECT_NE(out.find("<url></url>"), std::string::npos) << out;
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

TEST(TemplateCompile, EmptyConfigValuesLeaveTheirAttributeOut) {
  std::string head;
  Compile(
      "<jobs hide=\"{value.empty}\" show=\"{value.flag}\" both=\"{value.empty}{value.flag}\" lit=\"\">"
      "<job feed:each=\"row\"/></jobs>")
      .RenderHead(head, {});
  EXPECT_EQ(head.substr(head.find("<jobs")), "<jobs show=\"1\" both=\"1\" lit=\"\">\n");
  head.clear();
  Compile("<jobs hide=\"{value.unset}\"><job feed:each=\"row\"/></jobs>").RenderHead(head, {});
  EXPECT_EQ(head.substr(head.find("<jobs")), "<jobs>\n");
}

TEST(TemplateRender, KeyFieldNamesARejectedRow) {
  Template t = Compile(
      "<jobs><job feed:each=\"row\" feed:key=\"id\" feed:require=\"contacts:required\" id=\"{id}\">"
      "{contacts}</job></jobs>");
  t.BindColumns({{"id", ColumnType::kInteger}, {"contacts", ColumnType::kText}}, "q.sql");
  Rows rows({{std::optional<std::string>("77"), std::optional<std::string>(" \x01 ")}});
  ASSERT_TRUE(rows.Next());
  std::string out;
  RowRejection why;
  EXPECT_FALSE(t.RenderRow(out, rows, &why));
  EXPECT_EQ(why.item, "77");
  EXPECT_EQ(why.field, "contacts");
  EXPECT_EQ(why.rule, "required");
  EXPECT_NE(ConfigErrorOf("<a feed:key=\"id\"><b feed:each=\"row\"/></a>").find("feed:key belongs on the feed:each"),
            std::string::npos);
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

TEST(TemplateCompile, AFeedIfOnAConfigValueKeepsOrDropsItsElementOnce) {
  Template t = Compile(
      "<urlset><url feed:each=\"row\"><loc>{loc}</loc>"
      "<changefreq feed:if=\"value.flag\">{value.flag}</changefreq>"
      "<priority feed:if=\"value.empty\">x</priority>"
      "<unset feed:if=\"value.unset\"/>"
      "<not feed:if=\"!value.empty\">n</not>"
      "<title feed:if=\"site.title\">{site.title}</title></url></urlset>");
  t.BindColumns({{"loc", ColumnType::kText}}, "q.sql");
  EXPECT_EQ(t.Fields(), std::vector<std::string>{"loc"}) << "no row field is read for a config value";
  Rows rows({{std::optional<std::string>("http://a.example/1")}});
  ASSERT_TRUE(rows.Next());
  std::string out;
  ASSERT_TRUE(t.RenderRow(out, rows, nullptr));
  EXPECT_EQ(out,
            "<url>\n<loc>http://a.example/1</loc>\n<changefreq>1</changefreq>\n<not>n</not>\n"
            "<title>Доска</title>\n</url>\n");
  EXPECT_NE(ConfigErrorOf("<a><b feed:each=\"row\" /><c feed:if=\"site.nothing\"/></a>").find("no key 'nothing'"),
            std::string::npos);
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// Found by template_fuzz; the first case is its input, minimised (also in
// tests/fuzz/corpus/template/non-utf8-attribute-name.xml). tinyxml2 takes
// any byte from 0x80 up in an element or attribute name, so a name of
// invalid UTF-8 compiled, and the writer, which drops invalid bytes, wrote
// <a ="">: not XML. A name must be an XML Name in UTF-8 and, for
// windows-1251 output, hold only characters the code page has (a character
// reference is no part of a name).
TEST(TemplateCompile, RefusesANameTheOutputCannotCarry) {
  struct Case {
    const char* xml;
    Charset cs;
    const char* expect;
  } cases[] = {
      {"<a \xff=\"\"><b feed:each=\"row\"></b></a>", Charset::kUtf8, "t.xml:1: attribute name"},
      {"<a><b feed:each=\"row\">\n<c\xd0>x</c\xd0></b></a>", Charset::kUtf8, "t.xml:2: element name"},
      {"<a><b feed:each=\"row\" x\xc3\x97y=\"1\"/></a>", Charset::kUtf8, "attribute name"},  // U+00D7 ×
      {"<a><\xe6\x96\xb0 feed:each=\"row\"/></a>", Charset::kWindows1251, "element name"},   // 新
  };
  for (const Case& c : cases) {
    std::string msg = "(compiled)";
    try {
      Compile(c.xml, c.cs);
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kConfig);
      msg = e.what();
    }
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.xml << "\n  gave: " << msg;
  }
}

TEST(TemplateRender, NonAsciiNamesAreWrittenAsNames) {
  // Cyrillic and Chinese are name characters; Cyrillic is in windows-1251.
  for (Charset cs : {Charset::kUtf8, Charset::kWindows1251}) {
    Template t = Compile("<\xd0\xb4 \xd1\x8f=\"1\"><b feed:each=\"row\"/></\xd0\xb4>", cs);
    std::string out;
    t.RenderHead(out, {});
    t.RenderTail(out, {});
    const std::string want = cs == Charset::kUtf8 ? "<\xd0\xb4 \xd1\x8f=\"1\">" : "<\xe4 \xff=\"1\">";
    EXPECT_NE(out.find(want), std::string::npos) << out;
  }
  Template t = Compile("<a><\xe6\x96\xb0 feed:each=\"row\"/></a>");
  std::string out;
  t.RenderHead(out, {});
  t.RenderTail(out, {});
  tinyxml2::XMLDocument parsed;
  EXPECT_EQ(parsed.Parse(out.c_str(), out.size()), tinyxml2::XML_SUCCESS) << out;
}

}  // namespace
}  // namespace feed

// A windows-1251 document from a cp1251 connection's rows (issue #12): the
// values whose filters have a windows-1251 way skip the trip through UTF-8,
// and the document is byte for byte the one the same rows give as UTF-8.
namespace feed {
namespace {

const char kCp1251Ads[] =
    "<c><ads>\n<ad feed:each=\"row\" feed:require=\"id:required id:maxlen=40\">\n"
    "<title>{title|plain}</title><t2>{title|plain|trim}</t2><raw>{title}</raw><n a=\"x{title}y\" "
    "b=\"{title|plain}\"><![CDATA[{title}]]></n><c><![CDATA[{title|plain}]]></c>"
    "<tel>{phone|flag}</tel><date>{added|date}</date><r>{added|rfc822}</r><i>{added|ymdhm}</i>"
    "<url>{url|noscheme}</url><u>{url|url}</u><u2>{url|noscheme|url}</u2><k>{ext|baidu_filetype}</k>"
    "<s>{size|filesize}</s><id>{id}</id><pic feed:if=\"photo\">{photo|trim}</pic></ad>\n</ads></c>";

Template Cp1251Ads() {
  Template t =
      Template::Parse(kCp1251Ads, "ads.xml", Format::kXml, Charset::kWindows1251, {}, *TimeZone::Load("Europe/Kiev"));
  t.BindColumns({{"photo", ColumnType::kText},
                 {"id", ColumnType::kText},
                 {"title", ColumnType::kText},
                 {"phone", ColumnType::kText},
                 {"added", ColumnType::kDateTime},
                 {"url", ColumnType::kText},
                 {"ext", ColumnType::kText},
                 {"size", ColumnType::kText}},
                "q.sql");
  return t;
}

TEST(TemplateRenderCp1251, ByHand) {
  Template t = Cp1251Ads();
  const Cells row = {"x.jpg ",
                     "A1",
                     " <b>\xCF\xF0\xEE\xE4\xE0\xEC</b> &quot;\xC2\xC0\xC7&quot; &laquo;\x98&raquo; ]]> ",
                     "+380",
                     "2026-11-30 12:34:56",
                     "http://\xF1\xE0\xE9\xF2.\xF0\xF4/\xFB",
                     "pdf",
                     "1536"};
  ExpectCp1251RowAsUtf8(t, row);
  Rows rows({row}, SIZE_MAX, /*cp1251=*/true);
  ASSERT_TRUE(rows.Next());
  std::string out;
  ASSERT_TRUE(t.RenderRow(out, rows, nullptr));
  EXPECT_NE(out.find("<title>\xCF\xF0\xEE\xE4\xE0\xEC \"\xC2\xC0\xC7\" \xAB&#65533;\xBB ]]&gt;</title>"),
            std::string::npos)
      << testing::Visible(out);
  EXPECT_NE(out.find("<u>http://%D1%81%D0%B0%D0%B9%D1%82.%D1%80%D1%84/%D1%8B</u>"), std::string::npos)
      << testing::Visible(out);
  // Only what url, baidu_filetype and the rules (on id and photo) read
  // went through UTF-8: not the title, phone, date or size.
  EXPECT_LE(rows.conversions(), 4u);
  // &#128512; in a title sends its plain values the UTF-8 way, where it is
  // written as a reference.
  Cells emoji = row;
  emoji[2] = "\xC0 &#128512; &alpha; <i>\xC1</i>";
  ExpectCp1251RowAsUtf8(t, emoji);
  Rows rows2({emoji}, SIZE_MAX, /*cp1251=*/true);
  ASSERT_TRUE(rows2.Next());
  out.clear();
  ASSERT_TRUE(t.RenderRow(out, rows2, nullptr));
  EXPECT_NE(out.find("<title>\xC0 &#128512; &#945; \xC1</title>"), std::string::npos) << testing::Visible(out);
}

TEST(TemplateRenderCp1251, RandomRowsAsUtf8) {
  static const std::vector<std::string> kPieces = {
      "\xCF\xF0\xEE\xE4\xE0\xEC",
      " ",
      "  ",
      "\t",
      "\r\n",
      "<b>",
      "</b>",
      "<br>",
      "<script>x</script>",
      "&quot;",
      "&amp;",
      "&nbsp;",
      "&laquo;",
      "&#8470;",
      "&#128512;",
      "&alpha;",
      "&#65533;",
      "&",
      "<",
      ">",
      "]]>",
      "]]",
      "\"",
      "\x98",
      "\xA0",
      "\xB9",
      "\x88",
      "\x01",
      std::string(1, '\0'),
      "http://",
      "x/",
      "2026-11-30 12:34:56",
      "@1700000000",
      "0",
      "1536",
      "pdf",
      ".DOC",
  };
  Template t = Cp1251Ads();
  std::mt19937 rng(1251);
  for (int iter = 0; iter < 3000; ++iter) {
    Cells row;
    for (int c = 0; c < 8; ++c) {
      if (rng() % 10 == 0) {
        row.push_back(std::nullopt);
        continue;
      }
      std::string v;
      for (size_t k = rng() % 8; k > 0; --k) v += kPieces[rng() % kPieces.size()];
      row.push_back(v);
    }
    ExpectCp1251RowAsUtf8(t, row);
  }
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// feed:past: a date that happened is never written later than the clock's
// now (2026-11-01 10:00:00 UTC here): a DATETIME, a DATE or an instant
// ahead of it is written as now; one before it, a zero date and text that
// is no date as they are. dates_as_stored renders the row's own dates.
TEST(TemplateRender, PastDatesAreNeverLaterThanNow) {
  FixedClock clock(1793527200);  // 2026-11-01T10:00:00Z
  Template t = Template::Parse(
      "<u xmlns:feed=\"urn:feed-fcgi:template\"><r feed:each=\"row\" feed:past=\"d\">{d}|{d|rfc3339}|{e}</r></u>",
      "t.xml", Format::kXml, Charset::kUtf8, {}, TimeZone::Utc(), &clock);
  t.BindColumns({{"d", ColumnType::kText}, {"e", ColumnType::kText}}, "q.sql");
  struct Case {
    const char* d;
    const char* want;
  } cases[] = {
      {"2087-06-01 12:00:00", "2026-11-01 10:00:00|2026-11-01T10:00:00+00:00|2087-06-01"},
      {"2026-11-01 10:00:01", "2026-11-01 10:00:00|2026-11-01T10:00:00+00:00|2087-06-01"},
      {"2026-11-01 10:00:00", "2026-11-01 10:00:00|2026-11-01T10:00:00+00:00|2087-06-01"},
      {"2026-11-01 09:59:59", "2026-11-01 09:59:59|2026-11-01T09:59:59+00:00|2087-06-01"},
      {"2026-11-02", "2026-11-01 10:00:00|2026-11-01T10:00:00+00:00|2087-06-01"},
      {"2026-11-01", "2026-11-01|2026-11-01T00:00:00+00:00|2087-06-01"},
      {"@1793527201", "@1793527200|2026-11-01T10:00:00+00:00|2087-06-01"},
      {"@1793527199", "@1793527199|2026-11-01T09:59:59+00:00|2087-06-01"},
      {"0000-00-00 00:00:00", "0000-00-00 00:00:00||2087-06-01"},
      {"9999 soon", "9999 soon||2087-06-01"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.d);
    Rows rows({{std::optional<std::string>(c.d), std::optional<std::string>("2087-06-01")}});
    ASSERT_TRUE(rows.Next());
    std::string out;
    ASSERT_TRUE(t.RenderRow(out, rows, nullptr));
    EXPECT_EQ(out, "<r>" + std::string(c.want) + "</r>\n");
    out.clear();
    ASSERT_TRUE(t.RenderRow(out, rows, std::vector<std::string_view>{}, nullptr, /*dates_as_stored=*/true));
    EXPECT_EQ(out.substr(0, 3 + std::strlen(c.d)), "<r>" + std::string(c.d));
  }
  clock.Set(1793527200 + 86400 * 400);  // the clock moves on: the same row, its own date
  Rows rows({{std::optional<std::string>("2027-06-01 12:00:00"), std::optional<std::string>("")}});
  ASSERT_TRUE(rows.Next());
  std::string out;
  ASSERT_TRUE(t.RenderRow(out, rows, nullptr));
  EXPECT_EQ(out, "<r>2027-06-01 12:00:00|2027-06-01T12:00:00+00:00|</r>\n");
  EXPECT_NE(ConfigErrorOf("<a><b feed:past=\"d\">{d}</b><c feed:each=\"row\"/></a>").find("feed:past belongs on a "),
            std::string::npos);
}

// A value over 8 MiB is cut there, at a character boundary, and the cut
// reported as a note naming the field and the row; the row is written.
TEST(TemplateRender, AValueOver8MiBIsCutAtACharacterAndNoted) {
  Template t = Compile("<u xmlns:feed=\"urn:feed-fcgi:template\"><r feed:each=\"row\" feed:key=\"id\">{body}</r></u>");
  t.BindColumns({{"id", ColumnType::kText}, {"body", ColumnType::kText}}, "q.sql");
  std::string body = "x";  // one byte, then two-byte letters: the limit falls inside one
  for (int i = 0; i < 4194400; ++i) body += "Я";
  Rows rows({{std::optional<std::string>("77"), std::optional<std::string>(body)}});
  ASSERT_TRUE(rows.Next());
  std::string out;
  std::vector<RowRejection> notes;
  RowRejection why;
  ASSERT_TRUE(t.RenderRow(out, rows, nullptr, &why, &notes));
  EXPECT_EQ(out.size(), std::string("<r>").size() + 8388607 + std::string("</r>\n").size());
  EXPECT_EQ(out.substr(out.size() - 7), "Я</r>\n");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_TRUE(notes[0].note);
  EXPECT_EQ(notes[0].field, "body");
  EXPECT_EQ(notes[0].item, "77");
  EXPECT_EQ(notes[0].rule.rfind("maxbytes=8388608", 0), 0u) << notes[0].rule;
}

TEST(Utf8Prefix, NeverEndsInsideACharacter) {
  EXPECT_EQ(Utf8Prefix("abc", 5), "abc");
  EXPECT_EQ(Utf8Prefix("abc", 2), "ab");
  EXPECT_EQ(Utf8Prefix("aЯb", 2), "a");   // Я is two bytes
  EXPECT_EQ(Utf8Prefix("aЯb", 3), "aЯ");
  EXPECT_EQ(Utf8Prefix("😀x", 3), "");    // four bytes
  EXPECT_EQ(Utf8Prefix("😀x", 4), "😀");
}

}  // namespace
}  // namespace feed
