// One feed mapping without a database: its template and keyset bound to
// result columns given here (Feed::BindColumns, what Bind does with the
// columns the database describes), rows held in memory (MemoryChunks)
// walked by its keyset and rendered by its template, and the values every
// query of a run binds.
#include "feed.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "error.h"
#include "renderer.h"
#include "temp_folder.h"

namespace feed {
namespace {

const std::vector<Column> kColumns = {
    {"id", ColumnType::kInteger}, {"link", ColumnType::kText}, {"updated", ColumnType::kDateTime}};

class FeedWithoutDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FEED_DB_NAME");
    std::ofstream(folder_.path() + "/t.xml") << "<rss xmlns:feed=\"urn:feed-fcgi:template\"><channel>"
                                                "<item feed:each=\"row\" feed:key=\"id\"><link>{link}</link></item>"
                                                "</channel></rss>";
    std::ofstream(folder_.path() + "/q.sql")
        << "SELECT id, link, updated FROM ads WHERE id > :after_id AND id <= :until_id AND updated < :now "
           "AND :site_url <> '' ORDER BY id LIMIT :limit";
  }
  Config Site(const std::string& feed_lines = "") {
    return ParseConfig(
        "[database]\nsocket = /nonexistent/feed-feed-test.sock\nuser = feed\nname = sample\n"
        "[site]\ntime_zone = UTC\nurl = https://board.example\n"
        "[feed recent]\npath = /recent\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n" +
            feed_lines,
        folder_.path() + "/f.ini", folder_.path());
  }
  testing::TempFolder folder_{"feed-feed-"};
};

TEST_F(FeedWithoutDatabase, RowsHeldInMemoryRenderThroughTheMapping) {
  const Config site = Site("lastmod = updated\n");
  Feed feed(site.feeds[0], site);
  feed.BindColumns(kColumns);
  EXPECT_EQ(feed.lastmod_column(), 2);
  Keyset order = feed.keyset();  // the source reads by it as the query orders its rows
  MemoryChunks chunks(kColumns,
                      {{"1", "https://board.example/ad/1", "2026-11-01 10:00:00"},
                       {"2", "https://board.example/ad/2", "2026-11-02 10:00:00"},
                       {"3", "https://board.example/ad/3", "2026-11-03 10:00:00"}},
                      order);
  // After id 1, at most 5 rows a chunk: ids 2 and 3, in the keyset's order.
  KeysetRows rows(chunks, feed.keyset(), Position{1}, std::nullopt, 5);
  DocumentRenderer renderer(feed.tmpl(), rows, Limits{0, 0}, feed.lastmod_column());
  StringSink out;
  RenderReport r = renderer.Segment(out, DocumentValues{});
  EXPECT_EQ(r.rows, 2u);
  EXPECT_EQ(r.newest, "2026-11-03 10:00:00");
  EXPECT_EQ(out.data.find("/ad/1<"), std::string::npos) << out.data;
  EXPECT_LT(out.data.find("<link>https://board.example/ad/2</link>"),
            out.data.find("<link>https://board.example/ad/3</link>"))
      << out.data;
}

TEST_F(FeedWithoutDatabase, RunParamsCarryTheSiteTheSinceMomentAndNow) {
  const Config site = Site();
  Feed feed(site.feeds[0], site);
  SqlParams p = feed.RunParams("", "2026-11-05 12:00:00");
  EXPECT_EQ(std::get<std::string>(p.at("site_url")), "https://board.example");
  EXPECT_EQ(std::get<std::string>(p.at("now")), "2026-11-05 12:00:00");
  EXPECT_EQ(std::get<std::string>(p.at("since")), "1000-01-01 00:00:00") << "no since-moment: everything";
  EXPECT_EQ(std::get<std::string>(feed.RunParams("2026-11-01 09:30:00", "x").at("since")), "2026-11-01 09:30:00");
}

TEST_F(FeedWithoutDatabase, ALastmodThatIsNoDateIsAConfigError) {
  const Config site = Site("lastmod = link\n");
  Feed feed(site.feeds[0], site);
  try {
    feed.BindColumns(kColumns);
    FAIL() << "bound";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("lastmod field 'link' must be a DATETIME column of the query"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(FeedWithoutDatabase, AQueryReturningAnEngineFieldIsAConfigError) {
  const Config site = Site();
  Feed feed(site.feeds[0], site);
  try {
    feed.BindColumns(kColumns, {"link"});
    FAIL() << "bound";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("the engine fills in 'link' itself; the query must not return it"),
              std::string::npos)
        << e.what();
  }
}

// A template field the query does not return is refused when bound, not
// when the first row comes.
TEST_F(FeedWithoutDatabase, ATemplateFieldTheQueryLacksIsAConfigError) {
  const Config site = Site();
  Feed feed(site.feeds[0], site);
  EXPECT_THROW(feed.BindColumns({{"id", ColumnType::kInteger}}), FeedError);
}

}  // namespace
}  // namespace feed
