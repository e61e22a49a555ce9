// The job aggregators that take every current job on every fetch (Indeed,
// Careerjet: docs/formats/indeed.md, careerjet.md), from the shipped
// mappings on the real MariaDB: each fetch holds every open job of the
// board once, or reports it with its id when a rule of the format leaves it
// out; the document keeps the format's rules as the tests state them
// (tests/support/feed_rules.h); `check` finds nothing wrong with them.
#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "app.h"
#include "clock.h"
#include "feed_rules.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::FeedFaults;
using testing::FeedKind;

// The text of every `field` under each `item` element, in document order.
std::vector<std::string> ItemValues(const std::string& xml, const char* item, const char* field) {
  std::vector<std::string> out;
  xmlDoc* doc = xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "feed.xml", nullptr, XML_PARSE_NONET);
  if (!doc) return out;
  for (xmlNode* i = xmlDocGetRootElement(doc)->children; i; i = i->next) {
    if (i->type != XML_ELEMENT_NODE || std::string(reinterpret_cast<const char*>(i->name)) != item) continue;
    for (xmlNode* f = i->children; f; f = f->next) {
      if (f->type == XML_ELEMENT_NODE && std::string(reinterpret_cast<const char*>(f->name)) == field) {
        xmlChar* c = xmlNodeGetContent(f);
        out.push_back(reinterpret_cast<const char*>(c));
        xmlFree(c);
      }
    }
  }
  xmlFreeDoc(doc);
  return out;
}

// The ids a report names as left out ("item 42: company='' breaks ...").
std::set<std::string> ReportedIds(const FeedReport& report) {
  std::set<std::string> ids;
  for (const std::string& s : report.skipped_items) {
    const size_t colon = s.find(':');
    ids.insert(s.substr(s.rfind(' ', colon) + 1, colon - s.rfind(' ', colon) - 1));
  }
  return ids;
}

struct Board {
  const char* config;
  std::string db;
  const char* table;
  const char* id;
  const char* cities;
  const char* text;
  const char* ends;  // the column of the day a job ends, NULL for none
};

// Every open job of the board on `day` (status, no resume, not ended),
// split by whether the formats' required values are there: `whole` has a
// company, a first city and a description that are not blank.
struct OpenJobs {
  std::set<std::string> whole, lacking;
};

OpenJobs Open(const Board& b, const std::string& day) {
  OpenJobs out;
  const std::string city = std::string("TRIM(SUBSTRING_INDEX(SUBSTRING_INDEX(") + b.cities + ", ',', 1), ';', 1))";
  for (const auto& row : testing::Table(std::string("SELECT ") + b.id + ", TRIM(company) <> '' AND " + city +
                                        " <> '' AND TRIM(" + b.text + ") <> '' FROM `" + b.db + "`." + b.table +
                                        " WHERE status = 'active' AND is_resume = 0 AND (" + b.ends +
                                        " IS NULL OR " + b.ends + " >= '" + day + "')")) {
    (row[1] == "1" ? out.whole : out.lacking).insert(row[0]);
  }
  return out;
}

// Fetches each format's feed and checks it; returns the ids each reported
// left out, by path.
std::map<std::string, std::set<std::string>> ExpectEveryOpenJobOnce(const Board& board) {
  std::map<std::string, std::set<std::string>> left_out;
  // Noon, site time: the query's DATE(:now) and the day here agree.
  FixedClock clock(testing::Kiev().ToUnix({2026, 12, 2, 12, 0, 0}));
  App app(testing::ShippedConfig(board.config, board.db), &clock);
  app.CheckDatabase();
  const OpenJobs open = Open(board, "2026-12-02");
  EXPECT_GT(open.whole.size(), 10u) << board.config;
  for (const auto& [path, kind, id_field] : {std::tuple{"/indeed", FeedKind::kIndeed, "referencenumber"},
                                            std::tuple{"/careerjet", FeedKind::kCareerjet, "id"}}) {
    Request req;
    req.path_info = path;
    testing::Reply r = testing::Fetch(app, req);
    EXPECT_EQ(r.status, 200) << board.config << " " << path << ": " << r.body.substr(0, 300);
    EXPECT_EQ(FeedFaults(kind, r.body), std::vector<std::string>{}) << board.config << " " << path;
    const std::vector<std::string> ids = ItemValues(r.body, "job", id_field);
    const std::set<std::string> sent(ids.begin(), ids.end());
    EXPECT_EQ(sent.size(), ids.size()) << path << ": a job sent twice";
    const std::set<std::string> reported = ReportedIds(r.report);
    left_out[path] = reported;
    // Indeed needs the company, Careerjet does not: a job without one is in
    // Careerjet's feed, and left out of Indeed's, reported.
    for (const std::string& job : open.whole) EXPECT_TRUE(sent.count(job)) << path << ": open job " << job << " missing";
    for (const std::string& job : open.lacking) {
      EXPECT_TRUE(sent.count(job) || reported.count(job)) << path << ": job " << job << " neither sent nor reported";
    }
    for (const std::string& job : sent) {
      EXPECT_TRUE(open.whole.count(job) || open.lacking.count(job)) << path << ": " << job << " is not an open job";
    }
  }
  const CheckReport check = app.Check(CheckOptions{});
  for (const Finding& f : check.findings) {
    if (f.where.find("indeed") != std::string::npos || f.where.find("careerjet") != std::string::npos) {
      EXPECT_FALSE(f.error) << f.Line();
    }
  }
  EXPECT_EQ(check.errors(), 0u);
  return left_out;
}

// Two open jobs lose a value: one its company (Indeed requires it,
// Careerjet does not), one its city (both require it).
TEST(JobBoardsIntegration, IndeedAndCareerjetHoldEveryOpenJobOfTheSampleBoard) {
  testing::LoadSampleBoard(20, 400);
  const auto open = testing::Table(
      "SELECT id FROM job WHERE status = 'active' AND is_resume = 0 AND expires IS NULL AND TRIM(company) <> '' "
      "AND TRIM(description) <> '' ORDER BY id LIMIT 2");
  ASSERT_EQ(open.size(), 2u);
  const std::string no_company = open[0][0], no_city = open[1][0];
  testing::Mariadb("UPDATE job SET company = ' ' WHERE id = " + no_company + "; UPDATE job SET regions = ', Київ' WHERE id = " +
                   no_city);
  auto left_out = ExpectEveryOpenJobOnce(
      {"sample-board.ini", testing::Env("FEED_TEST_DB"), "job", "id", "regions", "description", "expires"});
  EXPECT_TRUE(left_out["/indeed"].count(no_company)) << "Indeed requires the company";
  EXPECT_FALSE(left_out["/careerjet"].count(no_company)) << "Careerjet does not";
  EXPECT_TRUE(left_out["/indeed"].count(no_city));
  EXPECT_TRUE(left_out["/careerjet"].count(no_city));
}

TEST(JobBoardsIntegration, IndeedAndCareerjetHoldEveryOpenVacancyOfTheLegacyBoard) {
  const char* db = std::getenv("FEED_TEST_LEGACY_DB");
  if (!db) GTEST_SKIP() << "no legacy board loaded (../shared/board not found)";
  ExpectEveryOpenJobOnce({"legacy-board.ini", db, "vacancy", "vac_id", "city_list", "descr", "valid_till"});
}

}  // namespace
}  // namespace feed
