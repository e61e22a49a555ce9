// The engine's pipeline over rows held in memory: the row source's order
// and range, the segmenter's limits, the encoders.
#include "renderer.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "error.h"
#include "row_source.h"
#include "template.h"

namespace feed {
namespace {

using Row = MemoryChunks::Row;

const std::vector<Column> kColumns = {
    {"id", ColumnType::kInteger}, {"loc", ColumnType::kText}, {"lastmod", ColumnType::kDateTime}};

Template UrlTemplate(Format format = Format::kXml) {
  Template t = Template::Parse(
      "<urlset xmlns:feed=\"urn:feed-fcgi:template\"><url feed:each=\"row\" feed:key=\"id\">{loc}</url></urlset>",
      "t.xml", format, Charset::kUtf8, {}, TimeZone::Utc());
  t.BindColumns(kColumns, "q.sql");
  return t;
}

std::vector<Row> Numbered(int n, size_t loc_len = 10) {
  std::vector<Row> rows;
  for (int i = 1; i <= n; ++i) {
    std::string loc = "u" + std::to_string(i);
    loc.resize(loc_len, 'x');
    rows.push_back({std::to_string(i), loc, "2026-11-0" + std::to_string(1 + i % 9) + " 10:00:00"});
  }
  return rows;
}

// Every segment of the range, as text, with its report.
struct Segments {
  std::vector<std::string> docs;
  std::vector<RenderReport> reports;
};
Segments RenderAll(const Template& t, std::vector<Row> rows, Limits limits, size_t fetch_rows = 3) {
  Keyset k({"id"}, Direction::kAscending);
  MemoryChunks source(kColumns, std::move(rows), k);
  KeysetRows walk(source, k, k.First(""), std::nullopt, fetch_rows);
  DocumentRenderer r(t, walk, limits, 2);
  Segments out;
  for (int guard = 0; guard < 1000; ++guard) {
    StringSink sink;
    out.reports.push_back(r.Segment(sink, DocumentValues{}));
    out.docs.push_back(sink.data);
    if (!out.reports.back().more) break;
  }
  return out;
}

const std::string kHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset>\n";
const std::string kTail = "</urlset>\n";

TEST(Renderer, SplitsByRowCountExactlyAtAndPastTheBoundary) {
  // 8 rows at 4 a document: exactly two; 9 rows: a third with one row.
  for (int n : {8, 9}) {
    Segments s = RenderAll(UrlTemplate(), Numbered(n), Limits{4, 0});
    ASSERT_EQ(s.docs.size(), n == 8 ? 2u : 3u) << n;
    EXPECT_EQ(s.reports[0].rows, 4u);
    EXPECT_TRUE(s.reports[0].more);
    EXPECT_EQ(s.reports[1].rows, 4u);
    EXPECT_EQ(s.reports[1].more, n == 9);
    if (n == 9) {
      EXPECT_EQ(s.docs[2], kHead + "<url>u9xxxxxxxx</url>\n" + kTail);
    }
  }
}

TEST(Renderer, SplitsByBytesSoThatADocumentNeverPassesItsLimit) {
  // Each row is "<url>" + 10 characters + "</url>\n": 22 bytes.
  const size_t row = 22, frame = kHead.size() + kTail.size();
  Segments at = RenderAll(UrlTemplate(), Numbered(7), Limits{0, frame + 3 * row});
  ASSERT_EQ(at.docs.size(), 3u);
  EXPECT_EQ(at.docs[0].size(), frame + 3 * row) << "exactly at the limit is allowed";
  EXPECT_EQ(at.reports[0].bytes, at.docs[0].size());
  EXPECT_EQ(at.reports[2].rows, 1u);
  Segments past = RenderAll(UrlTemplate(), Numbered(7), Limits{0, frame + 3 * row - 1});
  ASSERT_EQ(past.docs.size(), 4u);
  EXPECT_EQ(past.reports[0].rows, 2u) << "one byte less: the third row moves to the next document";
  EXPECT_EQ(past.docs[0], kHead + "<url>u1xxxxxxxx</url>\n<url>u2xxxxxxxx</url>\n" + kTail);
}

// feed.empty in the tail: set when the document holds no row (a sitemap's
// fallback URL), not otherwise.
TEST(Renderer, FeedEmptyIsSetInTheTailOfADocumentWithNoRow) {
  Template t = Template::Parse(
      "<urlset xmlns:feed=\"urn:feed-fcgi:template\"><url feed:each=\"row\">{loc}</url>"
      "<url feed:if=\"feed.empty\">home</url></urlset>",
      "t.xml", Format::kXml, Charset::kUtf8, {}, TimeZone::Utc());
  t.BindColumns(kColumns, "q.sql");
  EXPECT_EQ(RenderAll(t, {}, Limits{}).docs[0], kHead + "<url>home</url>\n" + kTail);
  EXPECT_EQ(RenderAll(t, Numbered(1), Limits{}).docs[0], kHead + "<url>u1xxxxxxxx</url>\n" + kTail);
}

// A row that no document of the limit can hold, even alone, is left out and
// reported with its position; the rows around it are written, each once.
TEST(Renderer, ARowLargerThanADocumentIsReportedNotWrittenAndTheRestGoOn) {
  std::vector<Row> rows = Numbered(3);
  rows[1][1] = std::string(500, 'y');  // row 2: a 500-byte loc
  const size_t limit = kHead.size() + kTail.size() + 100;
  Segments s = RenderAll(UrlTemplate(), rows, Limits{0, limit});
  std::string all;
  size_t reported = 0;
  for (size_t i = 0; i < s.docs.size(); ++i) {
    EXPECT_LE(s.docs[i].size(), limit);
    all += s.docs[i];
    for (const std::string& w : s.reports[i].skipped_items) {
      ++reported;
      EXPECT_EQ(w, "item at 2: the row alone is 512 bytes, more than the document's max_bytes");
    }
  }
  EXPECT_EQ(reported, 1u);
  EXPECT_NE(all.find("<url>u1xxxxxxxx</url>"), std::string::npos);
  EXPECT_NE(all.find("<url>u3xxxxxxxx</url>"), std::string::npos);
  EXPECT_EQ(all.find("yyy"), std::string::npos);
  EXPECT_LE(s.docs.size(), 3u) << "no run of empty documents";
}

TEST(Renderer, RandomRowSizesNeverPassTheLimitAndLoseNothing) {
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<Row> rows;
    const int n = 1 + static_cast<int>(rng() % 200);
    for (int i = 1; i <= n; ++i) rows.push_back({std::to_string(i), std::string(1 + rng() % 300, 'a'), std::nullopt});
    const size_t limit = 400 + rng() % 2000, max_rows = rng() % 3 ? 0 : 1 + rng() % 30;
    Segments s = RenderAll(UrlTemplate(), rows, Limits{max_rows, limit}, 1 + rng() % 50);
    size_t total = 0;
    for (size_t d = 0; d < s.docs.size(); ++d) {
      ASSERT_LE(s.docs[d].size(), limit);
      ASSERT_EQ(s.reports[d].bytes, s.docs[d].size());
      if (max_rows) {
        ASSERT_LE(s.reports[d].rows, max_rows);
      }
      total += s.reports[d].rows;
      if (s.reports[d].more && (!max_rows || s.reports[d].rows < max_rows)) {
        // It ended for bytes: the next row would not have fitted.
        const std::string& next = *rows[total][1];
        ASSERT_GT(s.docs[d].size() + next.size() + 12, limit);  // "<url>" + loc + "</url>\n"
      }
    }
    EXPECT_EQ(total, rows.size());
  }
}

TEST(Renderer, NewestIsTheGreatestLastmodAmongRowsWritten) {
  Segments s = RenderAll(UrlTemplate(), Numbered(12), Limits{5, 0});
  EXPECT_EQ(s.reports[0].newest, "2026-11-06 10:00:00");  // rows 1-5: days 2..6
  EXPECT_EQ(s.reports[1].newest, "2026-11-09 10:00:00");  // rows 6-10: day 9 at row 8
}

TEST(Renderer, AHeadAndTailLargerThanTheLimitIsAMappingError) {
  EXPECT_THROW(RenderAll(UrlTemplate(), Numbered(1), Limits{0, 20}), FeedError);
}

TEST(Renderer, TextHasNoMarkupAndRefusesALineBreakInAValue) {
  std::vector<Row> rows = Numbered(3);
  rows[1][1] = "http://x.example/a\nb";
  Segments s = RenderAll(UrlTemplate(Format::kText), rows, Limits{});
  ASSERT_EQ(s.docs.size(), 1u);
  EXPECT_EQ(s.docs[0], "u1xxxxxxxx\nu3xxxxxxxx\n");
  ASSERT_EQ(s.reports[0].skipped, 1u);
  EXPECT_NE(s.reports[0].skipped_items[0].find("item 2"), std::string::npos) << s.reports[0].skipped_items[0];
  EXPECT_NE(s.reports[0].skipped_items[0].find("line break"), std::string::npos);
}

TEST(KeysetRows, ReadsChunksEndsAtTheRangeAndRefusesDisorder) {
  Keyset k({"id"}, Direction::kAscending);
  MemoryChunks source(kColumns, Numbered(20), k);
  KeysetRows walk(source, k, Position{5}, Position{12}, 3);
  std::vector<int64_t> ids;
  while (walk.Next()) ids.push_back(walk.position()[0]);
  EXPECT_EQ(ids, (std::vector<int64_t>{6, 7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(source.reads(), 3u) << "7 rows at 3 a chunk; the short third chunk is the last";

  // A source that ignores the position it was given.
  class Stubborn : public ChunkReader {
   public:
    Rows Read(const Position&, const Position&, size_t) override { return Rows({{"3", "a", std::nullopt}, {"2", "b", std::nullopt}}); }
  } stubborn;
  Keyset k2({"id"}, Direction::kAscending);
  k2.Bind(kColumns, "q.sql");
  KeysetRows bad(stubborn, k2, Position{0}, std::nullopt, 10);
  ASSERT_TRUE(bad.Next());
  EXPECT_THROW(bad.Next(), FeedError);
}

TEST(KeysetRows, DescendingWalksFromTheLargestAndStopsAtMaxRows) {
  Keyset k({"id"}, Direction::kDescending);
  MemoryChunks source(kColumns, Numbered(10), k);
  KeysetRows walk(source, k, k.First(""), std::nullopt, 4, 5);
  std::vector<int64_t> ids;
  while (walk.Next()) ids.push_back(walk.position()[0]);
  EXPECT_EQ(ids, (std::vector<int64_t>{10, 9, 8, 7, 6}));
}

TEST(KeysetRows, ADateKeysetBindsSqlDateTimes) {
  Keyset k({"lastmod", "id"}, Direction::kAscending);
  k.Bind(kColumns, "q.sql");
  SqlParams p;
  k.BindAfter(k.First("2026-11-01 00:00:00"), &p);
  k.BindUntil(k.Last(), &p);
  EXPECT_EQ(std::get<std::string>(p["after_lastmod"]), "2026-11-01 00:00:00");
  EXPECT_EQ(std::get<int64_t>(p["after_id"]), INT64_MIN);
  EXPECT_EQ(std::get<std::string>(p["until_lastmod"]), "9999-12-31 23:59:59");
  EXPECT_EQ(std::get<int64_t>(p["until_id"]), INT64_MAX);
  EXPECT_EQ(Keyset::Parse(Keyset::Format({-5, 7}), 2), (Position{-5, 7}));
  EXPECT_FALSE(Keyset::Parse("1 x", 2));
  EXPECT_FALSE(Keyset::Parse("1", 2));
}

}  // namespace
}  // namespace feed
