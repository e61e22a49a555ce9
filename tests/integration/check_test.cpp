// `feed.fcgi check` against the real database: each mistake a site owner
// plausibly makes in a mapping, made on purpose in a copy of the sample
// board's Yads query, gives its finding (and exit 1); the shipped mapping
// gives none.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::Slurp;

struct CheckRun {
  int status;
  std::string out;
};

CheckRun Check(const std::string& config, const std::string& flags) {
  const std::string out = config + ".out";
  const int rc = testing::Shell("'" + Env("FEED_TEST_BIN") + "' --config '" + config + "' check " + flags + " >'" +
                                out + "' 2>&1");
  CheckRun r{rc, Slurp(out)};
  unlink(out.c_str());
  return r;
}

// The sample Yads query with `from` replaced by `to` (a sed expression's
// two sides), as a config of its own.
std::string BrokenYads(const std::string& from, const std::string& to) {
  const std::string sql = testing::WriteSampleConfig() + ".sql";
  std::string text = Slurp(Env("FEED_TEST_ROOT") + "/sql/sample-yads.sql");
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  std::ofstream(sql) << text;
  return testing::WriteSampleConfig({{"query", sql}});
}

class CheckIntegration : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    testing::LoadSampleBoard(1500, 100);
    // Ads that share their `added` moment, so that chunk edges fall
    // between rows of one moment.
    testing::Mariadb("UPDATE listing SET added = '2026-10-20 10:00:00' WHERE id % 7 = 0");
  }
};

TEST_F(CheckIntegration, TheShippedMappingHasNoError) {
  CheckRun r = Check(testing::WriteSampleConfig(), "--deep");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find(": error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 0 errors"), std::string::npos) << r.out;
  // The sample board holds ids the Yads rules leave out: warnings, by rule,
  // with the first ids.
  EXPECT_NE(r.out.find("warning: [feed yads]: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("break id:alnum and are left out ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("break id:maxlen=32 and are left out ("), std::string::npos) << r.out;
}

// Every feed of the shipped sample config (Yads, Jooble, sitemaps, text,
// RSS, Atom, Baidu with its child rows, MSN with its engine fields).
TEST_F(CheckIntegration, TheShippedSampleConfigHasNoError) {
  const std::string out = testing::WriteSampleConfig() + ".check";
  const int rc = testing::Shell("FEED_DB_SOCKET='" + Env("FEED_TEST_SOCKET") + "' FEED_DB_NAME='" + Env("FEED_TEST_DB") +
                                "' FEED_DB_USER=feed FEED_DB_PASSWORD=feed FEED_SECRET=check-test-secret-0123456789abcdef "
                                "'" + Env("FEED_TEST_BIN") + "' --config '" + Env("FEED_TEST_ROOT") +
                                "/conf/sample-board.ini' check >'" + out + "' 2>&1");
  const std::string text = Slurp(out);
  unlink(out.c_str());
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find(": 0 errors"), std::string::npos) << text;
  size_t feeds = 0;
  std::istringstream conf(Slurp(Env("FEED_TEST_ROOT") + "/conf/sample-board.ini"));
  for (std::string line; std::getline(conf, line);) feeds += line.rfind("[feed ", 0) == 0;
  EXPECT_NE(text.find(": " + std::to_string(feeds) + " feeds, "), std::string::npos) << feeds << " feeds?\n" << text;
}

TEST_F(CheckIntegration, AJoinThatRepeatsRowsIsNamedWithItsKeys) {
  const std::string config = BrokenYads("LEFT JOIN region r ON r.region_id = l.region_id",
                                        "LEFT JOIN region r ON r.region_id = l.region_id "
                                        "JOIN (SELECT 'ru' AS lang UNION ALL SELECT 'en') langs");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("rows repeat the keyset of the row before (added, id_key = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a join repeats rows"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".sql: "), std::string::npos) << "the finding names the query file: " << r.out;
}

TEST_F(CheckIntegration, AWrongTieBreakLosesRowsAtChunkEdgesAndDeepFindsThem) {
  const std::string config =
      BrokenYads("AND (l.added > :after_added OR l.id > :after_id_key)", "AND l.id > :after_id_key");
  CheckRun quick = Check(config, "");
  EXPECT_EQ(quick.status, 0) << "a sample read cannot see it: " << quick.out;
  CheckRun deep = Check(config, "--deep");
  EXPECT_EQ(deep.status, 1) << deep.out;
  EXPECT_NE(deep.out.find("rows are never sent (added, id_key = "), std::string::npos) << deep.out;
  EXPECT_NE(deep.out.find("(a > :after_a OR (a = :after_a AND b > :after_b))"), std::string::npos) << deep.out;
}

TEST_F(CheckIntegration, RowsOutOfOrderAreNamed) {
  const std::string config = BrokenYads("ORDER BY l.added, l.id", "ORDER BY l.id");
  CheckRun r = Check(config, "");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("rows come before the row before"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ORDER BY the keyset fields (added, id_key)"), std::string::npos) << r.out;
}

TEST_F(CheckIntegration, ASyntaxErrorIsAFindingAtItsLineAndJsonSaysTheSame) {
  const std::string config = BrokenYads("  FROM listing l", "  FORM listing l");
  CheckRun r = Check(config, "--json");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.rfind("{\"feeds\": ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\"severity\": \"error\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the database refuses the query"), std::string::npos) << r.out;
  CheckRun text = Check(config, "");
  EXPECT_NE(text.out.find(".sql:20: the database refuses the query"), std::string::npos) << text.out;
  EXPECT_EQ(Check(config, "--loud").status, 2);
}

}  // namespace
}  // namespace feed
