// Rows with children, without a database: child rows merged with their
// parents chunk by chunk (FamilyChunks over MemoryChunks and
// MemoryChildren), repeated elements of the template (feed:each="NAME",
// feed:split), their rules, and the number of reads per chunk.
#include "children.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "error.h"
#include "renderer.h"
#include "row_source.h"
#include "template.h"
#include "value_list.h"

namespace feed {
namespace {

using Row = MemoryChunks::Row;

const std::vector<Column> kDocs = {{"id", ColumnType::kInteger}, {"name", ColumnType::kText},
                                   {"tags", ColumnType::kText}};
const std::vector<Column> kComments = {{"parent", ColumnType::kInteger}, {"body", ColumnType::kText},
                                       {"who", ColumnType::kText}};

const char kDocTemplate[] =
    "<docs xmlns:feed=\"urn:feed-fcgi:template\">"
    "<doc feed:each=\"row\" feed:key=\"id\" feed:require=\"name:required\">"
    "<name>{name}</name>"
    "<kw feed:split=\"tags\">{tags}</kw>"
    "<c feed:each=\"comments\" feed:require=\"body:maxlen=20\"><t><![CDATA[{body|plain}]]></t>"
    "<who feed:if=\"who\">{who}</who></c>"
    "</doc></docs>";

Template Docs(const char* xml = kDocTemplate) {
  Template t = Template::Parse(xml, "docs.xml", Format::kXml, Charset::kUtf8, {}, TimeZone::Utc());
  t.BindColumns(kDocs, "docs.sql");
  t.BindChildColumns("comments", kComments, "comments.sql");
  return t;
}

// Renders every row of `docs` with its comments; returns the document body
// between <docs> and </docs>, the report, and the reads made.
struct Rendered {
  std::string body;
  RenderReport report;
  size_t parent_reads = 0, child_reads = 0, peak = 0;
};
Rendered RenderDocs(const Template& t, std::vector<Row> docs, std::vector<Row> comments, size_t fetch_rows,
               size_t cap = 20, bool read_ahead = false) {
  Keyset k({"id"}, Direction::kAscending);
  MemoryChunks parents(kDocs, std::move(docs), k);
  MemoryChildren children(kComments, std::move(comments));
  FamilyChunks family(parents, k, {{"comments", kComments, &children, cap}}, read_ahead);
  KeysetRows walk(family, k, k.First(""), std::nullopt, fetch_rows);
  DocumentRenderer r(t, walk, Limits{});
  StringSink sink;
  Rendered out;
  out.report = r.Segment(sink, DocumentValues{});
  out.body = sink.data.substr(sink.data.find('\n') + 1);  // after the XML declaration
  out.parent_reads = parents.reads();
  out.child_reads = children.reads();
  out.peak = family.peak_child_rows();
  EXPECT_EQ(family.parent_queries(), parents.reads());
  EXPECT_EQ(family.child_queries(), children.reads());
  return out;
}

std::string Doc(int id, const std::string& inner) { return "<doc>\n<name>d" + std::to_string(id) + "</name>\n" + inner + "</doc>\n"; }
std::string Comment(const std::string& body, const std::string& who = "") {
  return "<c>\n<t><![CDATA[" + body + "]]></t>\n" + (who.empty() ? "" : "<who>" + who + "</who>\n") + "</c>\n";
}

TEST(Children, EachParentGetsItsOwnChildRowsInOrderAcrossChunks) {
  // Parents 1..7 (4 is hidden: not among the parents, its comments are);
  // comments out of table order; chunks of 2 parents.
  std::vector<Row> docs;
  for (int id : {1, 2, 3, 5, 6, 7}) docs.push_back({std::to_string(id), "d" + std::to_string(id), ""});
  std::vector<Row> comments = {
      {"6", "six-a", "u1"}, {"2", "two-a", "u2"}, {"4", "hidden", "u1"}, {"2", "two-b", std::nullopt},
      {"7", "seven", "u3"}, {"9", "no parent", "u1"}, {"6", "six-b", "u2"},
  };
  Rendered r = RenderDocs(Docs(), docs, comments, 2);
  const std::string expected = "<docs>\n" + Doc(1, "") + Doc(2, Comment("two-a", "u2") + Comment("two-b")) +
                               Doc(3, "") + Doc(5, "") + Doc(6, Comment("six-a", "u1") + Comment("six-b", "u2")) +
                               Doc(7, Comment("seven", "u3")) + "</docs>\n";
  EXPECT_EQ(r.body, expected);
  EXPECT_EQ(r.report.rows, 6u);
  // 6 parents by 2: three full chunks and the empty read that ends the walk;
  // one child read per chunk that held parents, none per parent.
  EXPECT_EQ(r.parent_reads, 4u);
  EXPECT_EQ(r.child_reads, 3u);
}

// A walk from the newest (order = desc) meets its parents from the end:
// each chunk's child rows are held and looked up.
TEST(Children, ADescendingWalkFindsEachParentsChildren) {
  Keyset k({"id"}, Direction::kDescending);
  std::vector<Row> docs;
  for (int id = 1; id <= 5; ++id) docs.push_back({std::to_string(id), "d" + std::to_string(id), ""});
  MemoryChunks parents(kDocs, docs, k);
  MemoryChildren children(kComments, {{"4", "four", ""}, {"1", "one", ""}, {"4", "four-b", ""}, {"5", "five", ""}});
  FamilyChunks family(parents, k, {{"comments", kComments, &children, 20}});
  KeysetRows walk(family, k, k.First(""), std::nullopt, 2);
  const Template t = Docs();
  DocumentRenderer r(t, walk, Limits{});
  StringSink sink;
  r.Segment(sink, DocumentValues{});
  EXPECT_EQ(sink.data.substr(sink.data.find('\n') + 1),
            "<docs>\n" + Doc(5, Comment("five")) + Doc(4, Comment("four") + Comment("four-b")) + Doc(3, "") + Doc(2, "") +
                Doc(1, Comment("one")) + "</docs>\n");
  EXPECT_EQ(children.reads(), 3u);
}

// Parents through MemoryChunks, counted under a lock (the read-ahead
// thread reads them), failing from read `fail_at` on when asked.
class CountingParents : public ChunkReader {
 public:
  CountingParents(std::vector<Row> docs, Keyset& k, size_t fail_at = SIZE_MAX)
      : inner_(kDocs, std::move(docs), k), fail_at_(fail_at) {}
  Rows Read(const Position& after, const Position& until, size_t limit) override {
    std::lock_guard<std::mutex> hold(mu_);
    if (++reads_ >= fail_at_) throw Unavailable("the parents' connection broke");
    return inner_.Read(after, until, limit);
  }
  size_t reads() {
    std::lock_guard<std::mutex> hold(mu_);
    return reads_;
  }

 private:
  MemoryChunks inner_;
  size_t fail_at_;
  std::mutex mu_;
  size_t reads_ = 0;
};

// Polls `condition` until it holds or `timeout_ms` pass.
bool WaitFor(const std::function<bool()>& condition, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::vector<Row> Numbered(int n) {
  std::vector<Row> docs;
  for (int id = 1; id <= n; ++id) docs.push_back({std::to_string(id), "d" + std::to_string(id), ""});
  return docs;
}

TEST(Children, ReadingAheadGivesTheSameDocumentAndTakesEachChunkAlreadyRead) {
  std::vector<Row> docs = Numbered(6);
  std::vector<Row> comments = {{"6", "six-a", "u1"}, {"2", "two-a", "u2"}, {"7", "none", "u3"}};
  Rendered plain = RenderDocs(Docs(), docs, comments, 2);
  Rendered ahead = RenderDocs(Docs(), docs, comments, 2, 20, /*read_ahead=*/true);
  EXPECT_EQ(ahead.body, plain.body);
  EXPECT_EQ(ahead.report.rows, 6u);
  EXPECT_EQ(ahead.parent_reads, 4u) << "three full chunks and the empty one, none read twice";
  EXPECT_EQ(ahead.child_reads, 3u);
}

TEST(Children, TheNextChunkIsReadBeforeItIsAskedFor) {
  Keyset k({"id"}, Direction::kAscending);
  CountingParents parents(Numbered(5), k);
  MemoryChildren children(kComments, {});
  FamilyChunks family(parents, k, {{"comments", kComments, &children, 20}}, /*read_ahead=*/true);
  Rows first = family.Read(k.First(""), k.Last(), 2);
  // Nothing asks for the second chunk; it is read all the same.
  EXPECT_TRUE(WaitFor([&] { return parents.reads() == 2; }, 10000));
  Rows second = family.Read({2}, k.Last(), 2);
  EXPECT_EQ(family.read_ahead(), 1u);
  ASSERT_TRUE(second.Next());
  EXPECT_EQ(second.Get(0), "3");
  // A chunk other than the one read ahead (a part that ends early): read anew.
  EXPECT_TRUE(WaitFor([&] { return parents.reads() == 3; }, 10000));
  Rows other = family.Read({3}, k.Last(), 1);
  EXPECT_EQ(family.read_ahead(), 1u);
  ASSERT_TRUE(other.Next());
  EXPECT_EQ(other.Get(0), "4");
  EXPECT_FALSE(other.Next());
  EXPECT_EQ(parents.reads(), 4u);
}

TEST(Children, AFailedReadAheadFailsTheReadThatTakesIt) {
  Keyset k({"id"}, Direction::kAscending);
  CountingParents parents(Numbered(5), k, /*fail_at=*/2);
  MemoryChildren children(kComments, {});
  FamilyChunks family(parents, k, {{"comments", kComments, &children, 20}}, /*read_ahead=*/true);
  family.Read(k.First(""), k.Last(), 2);
  EXPECT_THROW(family.Read({2}, k.Last(), 2), FeedError);
}

TEST(Children, ReadsAreBoundedByChunksNotByParentsOrChildren) {
  std::vector<Row> docs, comments;
  for (int id = 1; id <= 1000; ++id) {
    docs.push_back({std::to_string(id), "d" + std::to_string(id), ""});
    for (int c = 0; c < id % 7; ++c) comments.push_back({std::to_string(id), "c" + std::to_string(c), "u"});
  }
  Rendered r = RenderDocs(Docs(), docs, comments, 100, 20);
  EXPECT_EQ(r.report.rows, 1000u);
  EXPECT_EQ(r.parent_reads, 11u);  // 10 chunks of 100, then the empty one
  EXPECT_EQ(r.child_reads, 10u);
  EXPECT_LE(r.peak, 6u) << "one parent's children at most (walking ascending)";
}

TEST(Children, AParentCarriesAtMostItsCapTheFirstInTheQuerysOrder) {
  std::vector<Row> docs = {{"1", "d1", ""}, {"2", "d2", ""}};
  std::vector<Row> comments;
  for (int c = 1; c <= 25; ++c) comments.push_back({"1", "n" + std::to_string(c), ""});
  comments.push_back({"2", "only", ""});
  Rendered r = RenderDocs(Docs(), docs, comments, 10, 3);
  EXPECT_EQ(r.body, "<docs>\n" + Doc(1, Comment("n1") + Comment("n2") + Comment("n3")) + Doc(2, Comment("only")) +
                        "</docs>\n");
  EXPECT_EQ(r.peak, 3u) << "rows past the cap are not held";
}

TEST(Children, ChildTextIsEscapedFilteredAndBrokenChildrenAreLeftOutAndReported) {
  std::vector<Row> docs = {{"1", "d1", ""}, {"2", "d2", ""}};
  std::vector<Row> comments = {
      {"1", "<b>好</b> ]]> \x01x", "山中一老虎"},
      {"1", "this one is far too long to keep", "u"},
      {"2", "&amp;😀", "u"},
  };
  Rendered r = RenderDocs(Docs(), docs, comments, 10);
  EXPECT_EQ(r.body, "<docs>\n" + Doc(1, "<c>\n<t><![CDATA[好 ]]]]><![CDATA[> x]]></t>\n<who>山中一老虎</who>\n</c>\n") +
                        Doc(2, Comment("&😀", "u")) + "</docs>\n");
  EXPECT_EQ(r.report.skipped, 0u);
  EXPECT_EQ(r.report.dropped, 1u);
  ASSERT_EQ(r.report.dropped_items.size(), 1u);
  EXPECT_EQ(r.report.dropped_items[0], "item 1: comments.body='this one is far too long to keep' breaks maxlen=20");
}

TEST(Children, FeedMinLeavesTheParentOutWhenTooFewChildrenKeepTheirRules) {
  Template t = Docs(
      "<docs xmlns:feed=\"urn:feed-fcgi:template\"><doc feed:each=\"row\" feed:key=\"id\">"
      "<name>{name}</name><c feed:each=\"comments\" feed:min=\"1\" feed:require=\"who:required\">{body}</c>"
      "</doc></docs>");
  std::vector<Row> docs = {{"1", "d1", ""}, {"2", "d2", ""}, {"3", "d3", ""}};
  std::vector<Row> comments = {{"1", "a", "u"}, {"2", "b", ""}};
  Rendered r = RenderDocs(t, docs, comments, 10);
  EXPECT_EQ(r.body, "<docs>\n<doc>\n<name>d1</name>\n<c>a</c>\n</doc>\n</docs>\n");
  EXPECT_EQ(r.report.rows, 1u);
  ASSERT_EQ(r.report.skipped, 2u);
  EXPECT_EQ(r.report.skipped_items[0],
            "item 2: breaks feed:min=1: 0 items of comments kept");
  EXPECT_EQ(r.report.skipped_items[1].substr(0, 8), "item 3: ");
  EXPECT_EQ(r.report.dropped, 0u) << "a left-out parent is reported, not its children";
}

TEST(Children, FeedNoteReportsARowAndWritesItAllTheSame) {
  Template t = Docs(
      "<docs xmlns:feed=\"urn:feed-fcgi:template\"><doc feed:each=\"row\" feed:key=\"id\" feed:note=\"name:filetype\">"
      "<name>{name|baidu_filetype}</name></doc></docs>");
  Rendered r = RenderDocs(t, {{"1", "pdf", ""}, {"2", "odt", ""}, {"3", " .PPTX", ""}}, {}, 10);
  EXPECT_EQ(r.body, "<docs>\n<doc>\n<name>PDF</name>\n</doc>\n<doc>\n<name>其他</name>\n</doc>\n<doc>\n<name>PPTX</name>\n"
                    "</doc>\n</docs>\n");
  EXPECT_EQ(r.report.rows, 3u);
  EXPECT_EQ(r.report.skipped, 0u);
  EXPECT_EQ(r.report.noted, 1u);
  EXPECT_EQ(r.report.noted_items, std::vector<std::string>{"item 2: name='odt' breaks filetype"});
}

TEST(Children, SplitRepeatsOncePerTrimmedNonEmptyPiece) {
  std::vector<Row> docs = {
      {"1", "d1", "规范化, 教育,讲义"}, {"2", "d2", " , ,, "}, {"3", "d3", "a；b、c，d;e  ,\u3000f\u3000"}, {"4", "d4", ""},
      {"5", "d5", "<x>&amp;"},
  };
  Rendered r = RenderDocs(Docs(), docs, {}, 10);
  EXPECT_EQ(r.body, "<docs>\n" + Doc(1, "<kw>规范化</kw>\n<kw>教育</kw>\n<kw>讲义</kw>\n") + Doc(2, "") +
                        Doc(3, "<kw>a</kw>\n<kw>b</kw>\n<kw>c</kw>\n<kw>d;e</kw>\n<kw>f</kw>\n") +
                        Doc(4, "") + Doc(5, "<kw>&lt;x&gt;&amp;amp;</kw>\n") + "</docs>\n");
}

TEST(Children, SplitListOnItsOwn) {
  struct Case {
    std::string value, seps;
    std::vector<std::string> pieces;
  } cases[] = {
      {"a,b", ",", {"a", "b"}},
      {",a,,b,", ",", {"a", "b"}},
      {" a b ", ",", {"a b"}},
      {"x|y|", "|", {"x", "y"}},
      {"a\xff,b", ",", {"a\xff", "b"}},  // a byte that is not UTF-8 is kept, never a separator
      {"中，文", "，", {"中", "文"}},
      {"", ",", {}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> got;
    for (std::string_view p : SplitList(c.value, c.seps)) got.emplace_back(p);
    EXPECT_EQ(got, c.pieces) << c.value;
  }
  EXPECT_TRUE(IsListSeparatorSet(","));
  EXPECT_TRUE(IsListSeparatorSet(kDefaultListSeparators));
  EXPECT_FALSE(IsListSeparatorSet(""));
  EXPECT_FALSE(IsListSeparatorSet(", "));
  EXPECT_FALSE(IsListSeparatorSet("\x01"));
  EXPECT_FALSE(IsListSeparatorSet("\xff"));
}

TEST(Children, TemplateMistakesAboutRepeatedElementsAreConfigErrors) {
  struct Case {
    const char* xml;
    const char* expect;
  } cases[] = {
      {"<a><b feed:each=\"row\"><c feed:each=\"x\"><d feed:each=\"y\"/></c></b></a>", "do not nest"},
      {"<a><b feed:each=\"row\"><c feed:split=\"t\"><d feed:split=\"t\"/></c></b></a>", "do not nest"},
      {"<a><b feed:each=\"row\"><c feed:sep=\",\"/></b></a>", "feed:sep and feed:min belong on a repeated"},
      {"<a><b feed:each=\"row\"><c feed:each=\"x\" feed:min=\"-1\"/></b></a>", "feed:min is a whole number"},
      {"<a><b feed:each=\"row\"><c feed:split=\"t\" feed:sep=\" \"/></b></a>", "feed:sep is 1 to 16"},
      {"<a><b feed:each=\"row\"><c feed:each=\"x\" feed:if=\"y\"/></b></a>", "feed:if and a repeated element"},
      {"<a><c feed:split=\"t\"/><b feed:each=\"row\"/></a>", "stands inside the feed:each=\"row\""},
      {"<a><b feed:each=\"row\"><c feed:split=\"t\" feed:require=\"u:required\"/></b></a>", "names its field"},
  };
  for (const Case& c : cases) {
    std::string msg = "(compiled)";
    try {
      Template::Parse(c.xml, "t.xml", Format::kXml, Charset::kUtf8, {}, TimeZone::Utc());
    } catch (const FeedError& e) {
      msg = e.what();
    }
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.xml << "\n  gave: " << msg;
  }
  Template t = Template::Parse(kDocTemplate, "docs.xml", Format::kXml, Charset::kUtf8, {}, TimeZone::Utc());
  EXPECT_EQ(t.Children(), std::vector<std::string>{"comments"});
  try {
    t.BindChildColumns("comments", {{"parent", ColumnType::kInteger}, {"body", ColumnType::kText}}, "c.sql");
    ADD_FAILURE() << "bound without the column who";
  } catch (const FeedError& e) {
    EXPECT_NE(std::string(e.what()).find("field 'who' of feed:each=\"comments\" is not a column of c.sql"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace feed
