// A document set without a database: the names of its index and parts,
// the index made from a list of parts (rows held in memory, MemoryChunks,
// as DocumentSet::RenderIndex makes them), and when a stored plan is due.
#include "document_set.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "temp_folder.h"

namespace feed {
namespace {

class DocumentSetWithoutDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FEED_DB_NAME");
    std::ofstream(folder_.path() + "/index.xml")
        << "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
           "xmlns:feed=\"urn:feed-fcgi:template\">\n"
           "<sitemap feed:each=\"row\"><loc>{loc|url}</loc>"
           "<lastmod feed:if=\"lastmod\">{lastmod}</lastmod></sitemap>\n"
           "</sitemapindex>\n";
  }
  Config Site(const std::string& set_lines) {
    return ParseConfig(
        "[database]\nsocket = /nonexistent/feed-set-test.sock\nuser = feed\nname = sample\n"
        "[site]\ntime_zone = UTC\n"
        "[set sitemap]\npath = /sitemap.xml\ntemplate = index.xml\nsections = ads jobs\n"
        "publish_url = https://board.example/maps\n" +
            set_lines +
            "[feed ads]\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n"
            "[feed jobs]\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n",
        folder_.path() + "/f.ini", folder_.path());
  }

  testing::TempFolder folder_{"feed-set-"};
};

TEST_F(DocumentSetWithoutDatabase, NamesFollowTheSetsPath) {
  const Config site = Site("");
  DocumentSet set(site.sets[0], {}, site);
  EXPECT_EQ(set.IndexName(), "sitemap.xml");
  EXPECT_EQ(set.PartName("ads", 3), "sitemap-ads-3.xml");
  EXPECT_EQ(set.Url("sitemap-jobs-1.xml"), "https://board.example/maps/sitemap-jobs-1.xml");
}

// Each part is listed once, in order, under publish_url; a part whose rows
// have no lastmod gets none.
TEST_F(DocumentSetWithoutDatabase, TheIndexListsEachPartUnderPublishUrl) {
  const Config site = Site("");
  DocumentSet set(site.sets[0], {}, site);
  StringSink out;
  RenderReport r = set.RenderIndex({{"sitemap-ads-1.xml", "2026-11-01 10:00:00"}, {"sitemap-jobs-1.xml", ""}}, out);
  EXPECT_EQ(r.rows, 2u);
  EXPECT_EQ(r.skipped, 0u);
  // The template's elements one a line, as the engine writes XML, under
  // the declaration of its encoding; the template's own namespace gone.
  EXPECT_EQ(out.data,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            "<sitemap>\n<loc>https://board.example/maps/sitemap-ads-1.xml</loc>\n"
            "<lastmod>2026-11-01 10:00:00</lastmod>\n</sitemap>\n"
            "<sitemap>\n<loc>https://board.example/maps/sitemap-jobs-1.xml</loc>\n</sitemap>\n"
            "</sitemapindex>\n");
}

// Parts past the index's own max_items are left out, and the report says
// how many.
TEST_F(DocumentSetWithoutDatabase, PartsPastTheIndexsLimitAreLeftOutAndReported) {
  const Config site = Site("max_items = 1\n");
  DocumentSet set(site.sets[0], {}, site);
  StringSink out;
  RenderReport r = set.RenderIndex(
      {{"sitemap-ads-1.xml", ""}, {"sitemap-ads-2.xml", ""}, {"sitemap-jobs-1.xml", ""}}, out);
  EXPECT_EQ(r.rows, 1u);
  EXPECT_EQ(r.skipped_items, std::vector<std::string>{"2 parts past the index's max_items or max_bytes"});
  EXPECT_EQ(out.data.find("sitemap-ads-2.xml"), std::string::npos);
}

// A plan is due once refresh_seconds old, or when it was made "after now"
// (the clock stepped back since).
TEST_F(DocumentSetWithoutDatabase, APlanIsDueWhenOldOrFromTheFuture) {
  const Config site = Site("refresh_seconds = 300\n");
  DocumentSet set(site.sets[0], {}, site);
  PartPlan plan;
  plan.planned = 1000000;
  EXPECT_FALSE(set.Due(plan, 1000000));
  EXPECT_FALSE(set.Due(plan, 1000299));
  EXPECT_TRUE(set.Due(plan, 1000300));
  EXPECT_TRUE(set.Due(plan, 999999));
}

}  // namespace
}  // namespace feed
