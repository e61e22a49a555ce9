// The tests' own statement of the formats' rules (tests/support/feed_rules.h)
// judged on hand-written documents: each kind passes a document that keeps
// its rules, and each rule is seen to fire, so that a conformance test that
// finds nothing means the documents are right, not that the checker is
// blind. (Here and not with the unit tests: the sitemap schemas are read
// from FEED_TEST_ROOT.)
#include "feed_rules.h"

#include <gtest/gtest.h>

#include <string>

namespace feed::testing {
namespace {

const std::string kUtf8 = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const std::string kCp1251 = "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n";

// A fault list holding one that contains `what`.
bool Has(const std::vector<std::string>& faults, const std::string& what) {
  for (const std::string& f : faults) {
    if (f.find(what) != std::string::npos) return true;
  }
  return false;
}

std::string Yads(const std::string& ad, const std::string& tail = "") {
  return kCp1251 + "<yml_catalog date=\"2026-12-02 10:00:00\">\n<ads>\n" + ad + "</ads>\n" + tail + "</yml_catalog>\n";
}

const std::string kAd =
    "<ad><title>\xcf\xf0\xee\xe4\xe0\xec</title><body>b</body><name>n</name><tip>1</tip><town>t</town>"
    "<tel>1</tel><email>0</email><icq>0</icq><pic>1</pic><date>2026-12-01</date><period>30</period>"
    "<url>doska.example/ad/1</url><id>ad1</id></ad>\n";

TEST(FeedRules, YadsKeepsAndBreaksItsRules) {
  EXPECT_EQ(FeedFaults(FeedKind::kYads, Yads(kAd, "<continue>Ab09xYz</continue>\n")), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(kAd, "<continue>FxDu0osVl5qVCrf4f_0.1.35</continue>\n")),
                  "continue"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(kAd, "<continue>" + std::string(33, 'a') + "</continue>\n")),
                  "continue"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, kUtf8 + Yads(kAd).substr(kCp1251.size())), "encoding UTF-8"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(kAd + kAd)), "id sent twice"));
  std::string bad_id = kAd;
  bad_id.replace(bad_id.find("ad1"), 3, "ad-1");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(bad_id)), "letters and digits"));
  std::string scheme = kAd;
  scheme.replace(scheme.find("doska"), 0, "http://");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(scheme)), "scheme"));
  std::string swapped = kAd;
  swapped.replace(swapped.find("<title>"), 0, "<tip>1</tip>");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(swapped)), "out of order"));
  std::string date = kAd;
  date.replace(date.find("2026-12-01"), 10, "01.12.2026");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(date)), "YYYY-MM-DD"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(kAd).substr(0, 300)), "not well-formed"));
  std::string control = kAd;
  control.replace(control.find(">b<") + 1, 1, "&#1;");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(control)), "not well-formed"));
  // 0x98 is no character of windows-1251.
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kYads, Yads(kAd).replace(Yads(kAd).find(">b<") + 1, 1, "\x98")), "not windows-1251"));
}

TEST(FeedRules, JoobleKeepsAndBreaksItsRules) {
  const std::string job =
      "<job id=\"7\"><link><![CDATA[https://doska.example/job/7]]></link><name><![CDATA[n]]></name>"
      "<region><![CDATA[r]]></region><contacts><![CDATA[c]]></contacts><pubdate>01.12.2026</pubdate></job>\n";
  auto jobs = [](const std::string& body, const std::string& attrs = "") { return kUtf8 + "<jobs" + attrs + ">\n" + body + "</jobs>\n"; };
  EXPECT_EQ(FeedFaults(FeedKind::kJooble, jobs(job, " hide_contacts=\"1\"")), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kJooble, jobs(job, " hide_contacts=\"\"")), "attribute"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kJooble, jobs(job + job)), "twice"));
  std::string no_contacts = job;
  no_contacts.replace(no_contacts.find("<contacts>"), std::string("<contacts><![CDATA[c]]></contacts>").size(), "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kJooble, jobs(no_contacts)), "no contacts"));
  std::string relative = job;
  relative.replace(relative.find("https://doska.example"), 21, "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kJooble, jobs(relative)), "absolute"));
  std::string date = job;
  date.replace(date.find("01.12.2026"), 10, "2026-12-01");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kJooble, jobs(date)), "DD.MM.YYYY"));
}

TEST(FeedRules, SitemapsAreJudgedByTheSchemaAndTheLimits) {
  const std::string ns = " xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";
  const std::string good = kUtf8 + "<urlset" + ns +
                           "><url><loc>https://doska.example/ad/1</loc><lastmod>2026-12-01T10:00:00+02:00</lastmod>"
                           "</url></urlset>\n";
  EXPECT_EQ(FeedFaults(FeedKind::kSitemap, good), std::vector<std::string>{});
  std::string freq = good;
  freq.replace(freq.find("</url>"), 0, "<changefreq>sometimes</changefreq>");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kSitemap, freq), "sitemap.xsd"));
  std::string cyrillic = good;
  cyrillic.replace(cyrillic.find("ad/1"), 0, "\xd0\xb4/");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kSitemap, cyrillic), "percent-encoded"));
  std::string relative = good;
  relative.replace(relative.find("https://doska.example"), 21, "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kSitemap, relative), "absolute"));
  const std::string index = kUtf8 + "<sitemapindex" + ns + "><sitemap><loc>https://doska.example/s-1.xml</loc>" +
                            "</sitemap></sitemapindex>\n";
  EXPECT_EQ(FeedFaults(FeedKind::kSitemapIndex, index), std::vector<std::string>{});
  EXPECT_EQ(IndexLocs(index), std::vector<std::string>{"https://doska.example/s-1.xml"});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kSitemapIndex, good), "siteindex.xsd"));

  EXPECT_EQ(FeedFaults(FeedKind::kText, "https://doska.example/1\nhttp://doska.example/2\n"), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kText, "https://doska.example/1\n\nhttps://doska.example/2\n"), "line 2"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kText, "https://doska.example/1 title\n"), "line 1"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kText, "https://doska.example/\xff\n"), "not UTF-8"));
  std::string many;
  for (int i = 0; i < 50001; ++i) many += "https://d.example/" + std::to_string(i) + "\n";
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kText, many), "50,000"));
}

TEST(FeedRules, BaiduKeepsAndBreaksItsRules) {
  const std::string url =
      "<url><loc><![CDATA[https://doska.example/doc/1]]></loc><lastmod>2026-12-01T10:00:00</lastmod>"
      "<data><display><breadcrumb>a &gt; b</breadcrumb><name>x.pdf</name><filetype>PDF</filetype>"
      "<fileSize>112KB</fileSize><downloadUrl>https://doska.example/f/1.pdf</downloadUrl></display></data></url>\n";
  auto set = [](const std::string& body) { return kUtf8 + "<urlset>\n" + body + "</urlset>\n"; };
  EXPECT_EQ(FeedFaults(FeedKind::kBaidu, set(url)), std::vector<std::string>{});
  std::string size = url;
  size.replace(size.find("112KB"), 5, "1K");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kBaidu, set(size)), "fileSize"));
  std::string lastmod = url;
  lastmod.replace(lastmod.find("T10:00:00"), 9, "T10:00:00+08:00");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kBaidu, set(lastmod)), "lastmod"));
  std::string long_loc = url;
  long_loc.replace(long_loc.find("doc/1"), 0, std::string(250, 'a'));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kBaidu, set(long_loc)), "256"));
  std::string no_download = url;
  no_download.replace(no_download.find("<downloadUrl>"), std::string("<downloadUrl>https://doska.example/f/1.pdf</downloadUrl>").size(), "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kBaidu, set(no_download)), "no downloadUrl"));
}

std::string IndeedJob(const std::string& ref, const std::string& title = "<![CDATA[Маркетолог]]>",
                      const std::string& url = "<![CDATA[https://doska.example/job/1.html]]>") {
  return "<job>\n<title>" + title + "</title>\n<date><![CDATA[2026-11-30T10:00:00Z]]></date>\n<referencenumber><![CDATA[" +
         ref + "]]></referencenumber>\n<url>" + url +
         "</url>\n<company><![CDATA[Ромашка]]></company>\n<city><![CDATA[Київ]]></city>\n"
         "<country><![CDATA[UA]]></country>\n<description><![CDATA[Работа]]></description>\n</job>\n";
}

std::string Indeed(const std::string& jobs) {
  return kUtf8 + "<source>\n<publisher>Доска</publisher>\n<publisherurl>https://doska.example</publisherurl>\n"
                 "<lastBuildDate>Wed, 02 Dec 2026 10:00:00 +0200</lastBuildDate>\n" +
         jobs + "</source>\n";
}

TEST(FeedRules, IndeedKeepsAndBreaksItsRules) {
  EXPECT_EQ(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1") + IndeedJob("2"))), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1") + IndeedJob("1"))), "sent twice"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1", "Маркетолог"))), "<title> is not in CDATA"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1", "<![CDATA[A &amp; B]]>"))), "entity reference"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1", "<![CDATA[]]>"))), "no title"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(IndeedJob("1", "<![CDATA[M]]>", "<![CDATA[/job/1]]>"))),
                  "not an absolute URL"));
  std::string no_city = IndeedJob("1");
  no_city.erase(no_city.find("<city>"), no_city.find("</city>") + 8 - no_city.find("<city>"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(no_city)), "no city"));
  std::string dmy = IndeedJob("1");
  dmy.replace(dmy.find("2026-11-30T10:00:00Z"), 20, "30.11.2026");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kIndeed, Indeed(dmy)), "neither ISO 8601 nor RFC 822"));
}

std::string CareerjetJob(const std::string& id, const std::string& location = "<location><city>Київ</city></location>") {
  return "<job>\n<id>" + id + "</id>\n<title>Маркетолог</title>\n<url>https://doska.example/job/" + id + ".html</url>\n" +
         location + "\n<description>Работа</description>\n</job>\n";
}

TEST(FeedRules, CareerjetKeepsAndBreaksItsRules) {
  EXPECT_EQ(FeedFaults(FeedKind::kCareerjet, kUtf8 + "<jobs>\n" + CareerjetJob("1") + CareerjetJob("2") + "</jobs>\n"),
            std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kCareerjet, kUtf8 + "<jobs>\n" + CareerjetJob("1") + CareerjetJob("1") + "</jobs>\n"),
                  "sent twice"));
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kCareerjet,
                             kUtf8 + "<jobs>\n" + CareerjetJob("1", "<location><country>UA</country></location>") + "</jobs>\n"),
                  "no location/city"));
}

TEST(FeedRules, RssAtomAndMsnKeepAndBreakTheirRules) {
  const std::string channel =
      "<channel><title>t</title><link>https://doska.example/</link><description>d</description>"
      "<atom:link href=\"https://doska.example/rss\" rel=\"self\" type=\"application/rss+xml\"/>";
  const std::string item =
      "<item><title>a</title><link>https://doska.example/ad/1</link><guid isPermaLink=\"false\">ad-1</guid>"
      "<pubDate>Tue, 01 Dec 2026 10:00:00 +0200</pubDate></item>";
  auto rss = [&](const std::string& items, const std::string& ns = "") {
    return kUtf8 + "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"" + ns + ">" + channel + items +
           "</channel></rss>\n";
  };
  EXPECT_EQ(FeedFaults(FeedKind::kRss, rss(item)), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kRss, rss(item + item)), "guid twice"));
  std::string iso = item;
  iso.replace(iso.find("Tue, 01 Dec 2026 10:00:00 +0200"), 31, "2026-12-01T10:00:00+02:00");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kRss, rss(iso)), "RFC 822"));
  std::string permalink = item;
  permalink.replace(permalink.find(" isPermaLink=\"false\""), 20, "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kRss, rss(permalink)), "permalink"));
  std::string no_self = rss(item);
  no_self.replace(no_self.find("<atom:link"), no_self.find("/>", no_self.find("<atom:link")) + 2 - no_self.find("<atom:link"), "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kRss, no_self), "self"));

  const std::string ns = " xmlns:dcterms=\"http://purl.org/dc/terms/\" xmlns:mi=\"http://schemas.ingestion.microsoft.com/common/\"";
  const std::string msn_item =
      "<item><title>a</title><link>https://doska.example/ad/1</link><guid isPermaLink=\"false\">ad-1</guid>"
      "<dcterms:modified>2026-12-01T08:00:00Z</dcterms:modified><dcterms:valid>2026-12-31T08:00:00Z</dcterms:valid>"
      "<mi:expirationDate>2026-12-31T08:00:00Z</mi:expirationDate></item>";
  EXPECT_EQ(FeedFaults(FeedKind::kMsn, rss(msn_item, ns)), std::vector<std::string>{});
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kMsn, rss(msn_item)), "namespace"));
  std::string local = msn_item;
  local.replace(local.find("2026-12-01T08:00:00Z"), 20, "2026-12-01T10:00:00+02:00");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kMsn, rss(local, ns)), "UTC"));
  std::string lone = msn_item;
  lone.replace(lone.find("<mi:expirationDate>"), std::string("<mi:expirationDate>2026-12-31T08:00:00Z</mi:expirationDate>").size(), "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kMsn, rss(lone, ns)), "together"));

  const std::string atom = kUtf8 +
                           "<feed xmlns=\"http://www.w3.org/2005/Atom\"><id>https://doska.example/atom</id><title>t</title>"
                           "<updated>2026-12-01T10:00:00+02:00</updated><author><name>a</name></author>"
                           "<link rel=\"self\" href=\"https://doska.example/atom\"/>"
                           "<entry><id>https://doska.example/ad/1</id><title>a</title>"
                           "<updated>2026-12-01T10:00:00+02:00</updated><link href=\"https://doska.example/ad/1\"/></entry>"
                           "</feed>\n";
  EXPECT_EQ(FeedFaults(FeedKind::kAtom, atom), std::vector<std::string>{});
  std::string rfc822 = atom;
  rfc822.replace(rfc822.rfind("2026-12-01T10:00:00+02:00"), 25, "Tue, 01 Dec 2026 10:00:00 +0200");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kAtom, rfc822), "entry 1"));
  std::string no_ns = atom;
  no_ns.replace(no_ns.find(" xmlns=\"http://www.w3.org/2005/Atom\""), 36, "");
  EXPECT_TRUE(Has(FeedFaults(FeedKind::kAtom, no_ns), "Atom"));
}

}  // namespace
}  // namespace feed::testing
