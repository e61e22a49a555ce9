// format_rules: documents written here by hand, each breaking (or keeping)
// one rule of its format, with the fault the rule's statement expects.
#include "format_rules.h"

#include <gtest/gtest.h>

#include <string>

namespace feed {
namespace {

const std::string kUrlsetHead =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";

std::string Urlset(const std::string& url_children) {
  return kUrlsetHead + "<url>\n" + url_children + "</url>\n</urlset>\n";
}

std::string All(const std::vector<FormatFault>& faults) {
  std::string s;
  for (const FormatFault& f : faults) s += std::to_string(f.line) + " <" + f.element + "> " + f.what + "\n";
  return s;
}

TEST(FormatRules, AValidSitemapAndIndexHaveNoFault) {
  EXPECT_EQ(
      All(CheckXmlDocument(Urlset("<loc>https://example.com/ad/1</loc>\n<lastmod>2026-11-28T10:00:00+03:00</lastmod>\n"
                                  "<changefreq>daily</changefreq>\n<priority>0.5</priority>\n"),
                           "UTF-8")),
      "");
  EXPECT_EQ(All(CheckXmlDocument("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                 "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
                                 "<sitemap>\n<loc>https://example.com/sitemap-ads-1.xml</loc>\n"
                                 "<lastmod>2026-11-28</lastmod>\n</sitemap>\n</sitemapindex>\n",
                                 "utf-8")),
            "");
}

// Each value the sitemaps.org schema refuses, with the element and line.
TEST(FormatRules, SitemapValuesTheSchemaRefusesAreFaultsAtTheirLine) {
  struct Case {
    const char* child;
    const char* element;
  } cases[] = {
      {"<changefreq>sometimes</changefreq>\n", "changefreq"},
      {"<priority>2.0</priority>\n", "priority"},
      {"<priority>high</priority>\n", "priority"},
      {"<lastmod>28.11.2026</lastmod>\n", "lastmod"},
      {"<lastmod>2026-11-28 10:00:00</lastmod>\n", "lastmod"},
      {"<color>red</color>\n", "color"},  // not in the protocol
  };
  for (const Case& c : cases) {
    const auto faults =
        CheckXmlDocument(Urlset(std::string("<loc>https://example.com/ad/1</loc>\n") + c.child), "UTF-8");
    ASSERT_EQ(faults.size(), 1u) << c.child << All(faults);
    EXPECT_EQ(faults[0].element, c.element) << All(faults);
    EXPECT_EQ(faults[0].line, 5) << All(faults);  // declaration, urlset, url, loc, then the child
    EXPECT_NE(faults[0].what.find("not valid against the sitemaps.org sitemap.xsd"), std::string::npos) << All(faults);
    EXPECT_EQ(faults[0].what.find("{http"), std::string::npos) << "namespaces are left out: " << All(faults);
  }
  // A <url> without <loc>; an index entry without one.
  EXPECT_EQ(CheckXmlDocument(Urlset("<lastmod>2026-11-28</lastmod>\n"), "UTF-8").size(), 1u);
  EXPECT_EQ(CheckXmlDocument("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex "
                             "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap/></sitemapindex>",
                             "UTF-8")
                .size(),
            1u);
}

TEST(FormatRules, DocumentsOutsideTheSitemapsNamespaceAreNotValidatedAgainstIt) {
  // Baidu's <urlset> has no namespace and elements of its own.
  EXPECT_EQ(
      All(CheckXmlDocument(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset><url><loc>x</loc><data/></url></urlset>", "UTF-8")),
      "");
}

TEST(FormatRules, NotWellFormedIsAFaultWithItsLine) {
  struct Case {
    std::string doc;
    int line;
  } cases[] = {
      {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss>\n<title>a</titel>\n</rss>\n", 3},
      {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<url><loc>a</loc></url>\n<url><loc>b</loc></url>\n", 3},
      {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss>\n<atom:link href=\"x\"/>\n</rss>\n", 3},
      {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss>\n<t>a &nbsp; b</t>\n</rss>\n", 3},
      {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss>\n<t>a \x01 b</t>\n</rss>\n", 3},
  };
  for (const Case& c : cases) {
    const auto faults = CheckXmlDocument(c.doc, "UTF-8");
    ASSERT_FALSE(faults.empty()) << c.doc;
    EXPECT_EQ(faults[0].line, c.line) << c.doc << All(faults);
  }
  EXPECT_NE(All(CheckXmlDocument("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "UTF-8")).find("no root element"),
            std::string::npos);
}

// The declaration must name what the feed writes, and the bytes must be
// of that encoding.
TEST(FormatRules, TheDeclaredEncodingIsTheOneWrittenAndTheBytesAreOfIt) {
  const std::string cp1251_doc = "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<a>\xcc\xee\xf1\xea\xe2\xe0</a>\n";
  EXPECT_EQ(All(CheckXmlDocument(cp1251_doc, "windows-1251")), "");
  EXPECT_EQ(All(CheckXmlDocument(cp1251_doc, "WINDOWS-1251")), "");
  // Declared UTF-8, written windows-1251: a reader cannot decode it.
  const std::string lying = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\n\xcc\xee\xf1\xea\xe2\xe0</a>\n";
  const auto faults = CheckXmlDocument(lying, "windows-1251");
  ASSERT_EQ(faults.size(), 2u) << All(faults);
  EXPECT_EQ(All(faults),
            "1 <> the XML declaration names UTF-8 but the feed writes windows-1251\n"
            "3 <> byte 43 and on are not UTF-8 (a byte that cannot start a character there)\n");
  // No declaration: UTF-8 is fine, anything else is not.
  EXPECT_EQ(All(CheckXmlDocument("<a>b</a>", "UTF-8")), "");
  EXPECT_EQ(CheckXmlDocument("<a>b</a>", "KOI8-R").size(), 1u);
  EXPECT_EQ(
      All(CheckXmlDocument("<?xml version=\"1.0\" encoding=\"KOI8-R\"?>\n<a>\xed\xcf\xd3\xcb\xd7\xc1</a>", "KOI8-R")),
      "");
}

TEST(FormatRules, TextSitemapLinesAreAbsoluteUrls) {
  EXPECT_EQ(All(CheckTextSitemap("https://example.com/ad/1\nhttp://example.com/ad/%D0%9C\n")), "");
  EXPECT_EQ(All(CheckTextSitemap("")), "");
  EXPECT_EQ(All(CheckTextSitemap("https://example.com/a\n/ad/2\n\nftp://example.com/x\nhttps://example.com/a b\n")),
            "2 <> '/ad/2' is not an absolute http(s) URL of at most 2,048 characters, percent-encoded\n"
            "3 <> an empty line (each line is one URL)\n"
            "4 <> 'ftp://example.com/x' is not an absolute http(s) URL of at most 2,048 characters, percent-encoded\n"
            "5 <> 'https://example.com/a b' is not an absolute http(s) URL of at most 2,048 characters, "
            "percent-encoded\n");
  EXPECT_EQ(CheckTextSitemap("https://example.com/" + std::string(2030, 'a') + "\n").size(), 1u);
}

TEST(FormatRules, TextSitemapLimits) {
  std::string lines;
  for (int i = 0; i < 50000; ++i) lines += "https://e.com/" + std::to_string(i) + "\n";
  EXPECT_EQ(All(CheckTextSitemap(lines)), "");
  lines += "https://e.com/one-more\n";
  EXPECT_EQ(All(CheckTextSitemap(lines)), "0 <> 50001 lines, more than the 50,000 URLs a text sitemap may hold\n");
  std::string big;
  const std::string line = "https://e.com/" + std::string(2000, 'b') + "\n";
  while (big.size() <= 10485760) big += line;
  const auto faults = CheckTextSitemap(big);
  ASSERT_EQ(faults.size(), 1u) << All(faults);
  EXPECT_NE(faults[0].what.find("more than the 10485760 a text sitemap may hold"), std::string::npos) << All(faults);
}

}  // namespace
}  // namespace feed
