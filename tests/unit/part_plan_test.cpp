// Live part plans over rows held in memory: parts close at the fill level,
// stay put while rows come and go, and split rather than pass a limit.
#include "part_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "error.h"
#include "routes.h"
#include "state.h"

namespace feed {
namespace {

using Row = MemoryChunks::Row;

const std::vector<Column> kColumns = {{"id", ColumnType::kInteger}, {"loc", ColumnType::kText}};

Template UrlTemplate() {
  Template t = Template::Parse("<s xmlns:feed=\"x\"><u feed:each=\"row\">{loc}</u></s>", "t.xml", Format::kXml,
                               Charset::kUtf8, {}, TimeZone::Utc());
  t.BindColumns(kColumns, "q.sql");
  return t;
}

std::vector<Row> Ids(const std::vector<int>& ids) {
  std::vector<Row> rows;
  for (int i : ids) rows.push_back({std::to_string(i), "p" + std::to_string(i)});
  return rows;
}

std::vector<int> Range(int from, int to) {
  std::vector<int> v;
  for (int i = from; i <= to; ++i) v.push_back(i);
  return v;
}

PartPlan Plan(const std::vector<int>& ids, Limits hard, int fill, const std::optional<PartPlan>& old) {
  Keyset k({"id"}, Direction::kAscending);
  MemoryChunks source(kColumns, Ids(ids), k);
  KeysetRows rows(source, k, k.First(""), std::nullopt, 7);
  Template t = UrlTemplate();
  return RefreshPlan(t, rows, -1, PlanLimits{hard, fill}, old);
}

// Which part serves each id, by the plan's ranges (the way a live part
// reads them).
std::map<int, int> Owners(const PartPlan& plan, const std::vector<int>& ids) {
  std::map<int, int> owner;
  for (int id : ids) {
    for (const PartRange& p : plan.parts) {
      if (p.after[0] < id && (!p.until || id <= (*p.until)[0])) {
        EXPECT_EQ(owner.count(id), 0u) << "id " << id << " in two parts";
        owner[id] = p.number;
      }
    }
    EXPECT_EQ(owner.count(id), 1u) << "id " << id << " in no part";
  }
  return owner;
}

TEST(PartPlan, AFreshPlanClosesPartsAtTheFillLevel) {
  // 10 rows a part at most, closed at 80%: 8 rows each.
  PartPlan plan = Plan(Range(1, 20), Limits{10, 0}, 80, std::nullopt);
  ASSERT_EQ(plan.parts.size(), 3u);
  EXPECT_EQ(plan.parts[0].rows, 8);
  EXPECT_EQ(*plan.parts[0].until, Position{8});
  EXPECT_EQ(plan.parts[1].rows, 8);
  EXPECT_EQ(plan.parts[2].rows, 4);
  EXPECT_FALSE(plan.parts[2].until) << "the last part is open";
  Owners(plan, Range(1, 20));
}

TEST(PartPlan, AnEmptySectionHasOneOpenPart) {
  PartPlan plan = Plan({}, Limits{10, 0}, 80, std::nullopt);
  ASSERT_EQ(plan.parts.size(), 1u);
  EXPECT_EQ(plan.parts[0].rows, 0);
  EXPECT_FALSE(plan.parts[0].until);
}

TEST(PartPlan, RangesStayPutWhileRowsAreAddedAndDeleted) {
  PartPlan first = Plan(Range(1, 20), Limits{10, 0}, 80, std::nullopt);
  std::map<int, int> before = Owners(first, Range(1, 20));
  // Rows 3-6 and 12 deleted, 21-40 added.
  std::vector<int> now;
  for (int i : Range(1, 40)) {
    if ((i < 3 || i > 6) && i != 12) now.push_back(i);
  }
  PartPlan second = Plan(now, Limits{10, 0}, 80, first);
  std::map<int, int> after = Owners(second, now);
  for (int id : now) {
    if (id <= 20) {
      EXPECT_EQ(after[id], before[id]) << "id " << id << " changed parts";
    }
  }
  for (const PartRange& p : second.parts) EXPECT_LE(p.rows, 10);
  EXPECT_EQ(second.parts[0].rows, 4) << "part 1 lost ids 3-6 and keeps its range";
  EXPECT_EQ(second.parts.size(), 5u) << "8 + 8 + 8 + 8 + the rest";
}

TEST(PartPlan, AClosedPartThatWouldPassItsLimitIsSplitNotOverfilled) {
  // A plan over ids 10, 20, ... 200: parts of 8 ids; then ids 11-19 appear
  // inside part 1's range (rows shown again): 17 rows in a range made for
  // 8, past the limit of 10.
  std::vector<int> tens;
  for (int i = 10; i <= 200; i += 10) tens.push_back(i);
  PartPlan first = Plan(tens, Limits{10, 0}, 80, std::nullopt);
  std::vector<int> now = tens;
  for (int i = 11; i <= 19; ++i) now.push_back(i);
  PartPlan second = Plan(now, Limits{10, 0}, 80, first);
  for (const PartRange& p : second.parts) EXPECT_LE(p.rows, 10) << "part " << p.number;
  Owners(second, now);
  EXPECT_EQ(second.parts[0].number, 1);
  EXPECT_EQ(second.parts[0].rows, 10) << "part 1 keeps what fits";
  EXPECT_EQ(second.parts.back().number, 4) << "the rest of its range is a new part";
}

TEST(PartPlan, ByteLimitsCountHeadRowsAndTail) {
  // Head "<?xml ...?>\n<s>\n" (43) + tail "</s>\n" (5); each row "<u>pNN</u>\n" (11).
  PartPlan plan = Plan(Range(10, 39), Limits{0, 48 + 11 * 10}, 100, std::nullopt);
  for (const PartRange& p : plan.parts) EXPECT_LE(p.bytes, 48 + 11 * 10);
  EXPECT_EQ(plan.parts[0].rows, 10);
  EXPECT_EQ(plan.parts[0].bytes, 48 + 11 * 10);
}

TEST(PartPlan, TheStoredFormReadsBack) {
  std::vector<PartRange> parts = {{1, {INT64_MIN, 5}, Position{7, 9}, 10, 2000, "2026-11-30 14:05:00"},
                                  {2, {7, 9}, std::nullopt, 0, 48, ""}};
  EXPECT_EQ(StateStore::ParseParts(StateStore::FormatParts(parts), 2), parts);
  EXPECT_FALSE(StateStore::ParseParts("1 5 | - | 1 2", 1));
  EXPECT_FALSE(StateStore::ParseParts("0 5 | - | 1 2 -", 1));
  EXPECT_FALSE(StateStore::ParseParts("1 5 6 | - | 1 2 -", 1));
}

TEST(Routes, MatchesSectionsAndPartNumbersAndExpandsBack) {
  RouteTable t;
  t.Add({"/yads", Role::kDocument, 0, {}, false});
  t.Add({"/sitemap.xml", Role::kIndex, 0, {}, false});
  t.Add({"/sitemap-{section}-{n}.xml", Role::kPart, 0, {"ads", "my-jobs"}, false});
  t.Add({"/sitemap-{section}-{n}.xml.gz", Role::kPart, 0, {"ads", "my-jobs"}, true});
  t.Add({"/urls-{n}.txt", Role::kPart, 1, {}, false});
  auto m = t.Match("/sitemap-my-jobs-17.xml");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->section, "my-jobs");
  EXPECT_EQ(m->part, 17);
  EXPECT_FALSE(m->route->gzip);
  m = t.Match("/sitemap-ads-3.xml.gz");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->route->gzip);
  EXPECT_EQ(t.Match("/urls-2.txt")->part, 2);
  EXPECT_EQ(t.Match("/sitemap.xml")->route->role, Role::kIndex);
  for (const char* bad : {"/sitemap-ads-0.xml", "/sitemap-ads-01.xml", "/sitemap-ads-.xml", "/sitemap-other-1.xml",
                          "/sitemap-ads-1234567.xml", "/sitemap-ads-1x.xml", "/urls-.txt", "/yads/", "/Yads", ""}) {
    EXPECT_FALSE(t.Match(bad)) << bad;
  }
  EXPECT_EQ(RouteTable::Expand("/sitemap-{section}-{n}.xml", "ads", 3), "/sitemap-ads-3.xml");
  EXPECT_THROW(t.Add({"/sitemap-ads-{n}.xml", Role::kPart, 2, {}, false}), FeedError) << "clashes with a section";
  EXPECT_THROW(t.Add({"/yads", Role::kDocument, 3, {}, false}), FeedError);
}

}  // namespace
}  // namespace feed
