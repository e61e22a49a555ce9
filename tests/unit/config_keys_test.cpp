// The declared config keys: the committed key reference is what the table
// prints; the reference says, for a few keys, the form and default a site
// owner reads (literals here, not the table's own); the environment is an
// input of its own.
#include "config_keys.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "error.h"

namespace feed {
namespace {

// The unit tests run from the project's folder (tests/run.sh, make unit).
TEST(ConfigKeys, TheCommittedReferenceIsTheTables) {
  std::ifstream in("docs/config-keys.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/config-keys.md not found from " << std::getenv("PWD");
  std::ostringstream committed;
  committed << in.rdbuf();
  EXPECT_EQ(committed.str(), ConfigKeysMarkdown())
      << "docs/config-keys.md is out of date: build/feed.fcgi keys --markdown > docs/config-keys.md";
}

TEST(ConfigKeys, TheReferenceGivesFormAndDefault) {
  const std::string text = ConfigKeysText();
  for (const char* line : {
           "  port = 1-65535 (default 3306)\n",
           "  connect_timeout = 1-3600 (default 3)\n",
           "  ssl_mode = disabled | preferred | required | verify_ca | verify_identity (default disabled)\n",
           "  hand_off = none | x-sendfile | redirect (default none)\n",
           "  reports = 1-1000 (default 20)\n",
           "  page_ahead = 0-8 (default 2 for a paged feed that is not a robot's, else 0)\n",
           "  part_fill = 50-100 (default 90)\n",
           "  child.NAME.max = 1-10000 (default 20)\n",
           "  FEED_DB_REPLICA_<NAME>_PORT  [database replica NAME] port (NAME in capitals, '-' as '_')\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
}

// A bound the reference states is the bound the loader keeps.
TEST(ConfigKeys, TheLoaderKeepsTheStatedBounds) {
  const std::string feed = "[feed y]\ntemplate = t\nquery = q\nkeyset = id\n";
  struct Case {
    std::string text;
    bool accepted;
  } cases[] = {
      {"[database]\nname = x\nport = 65535\n" + feed, true},
      {"[database]\nname = x\nport = 65536\n" + feed, false},
      {"[database]\nname = x\nreplica_wait = 60\n" + feed, true},
      {"[database]\nname = x\nreplica_wait = 61\n" + feed, false},
      {"[database]\nname = x\n[status]\nreports = 1000\n" + feed, true},
      {"[database]\nname = x\n[status]\nreports = 0\n" + feed, false},
      {"[database]\nname = x\n" + feed + "fetch_rows = 1000000\n", true},
      {"[database]\nname = x\n" + feed + "fetch_rows = 0\n", false},
  };
  for (const Case& c : cases) {
    bool accepted = true;
    try {
      ParseConfig(c.text, "f.ini", "/etc");
    } catch (const FeedError&) {
      accepted = false;
    }
    EXPECT_EQ(accepted, c.accepted) << c.text;
  }
}

TEST(ConfigEnvironment, HoldsWhatItIsGiven) {
  const ConfigEnvironment env{{{"FEED_SECRET", "s"}, {"EMPTY", ""}}};
  EXPECT_EQ(env.Get("FEED_SECRET"), std::optional<std::string>("s"));
  EXPECT_EQ(env.Get("EMPTY"), std::optional<std::string>(""));  // set, though empty
  EXPECT_EQ(env.Get("FEED_DB_NAME"), std::nullopt);
}

TEST(ConfigEnvironment, FromTheProcessTakesFeedVariablesAndTzdir) {
  setenv("FEED_CONFIG_KEYS_TEST", "1", 1);
  setenv("CONFIG_KEYS_TEST_OTHER", "1", 1);
  const ConfigEnvironment env = ConfigEnvironment::FromProcess();
  unsetenv("FEED_CONFIG_KEYS_TEST");
  unsetenv("CONFIG_KEYS_TEST_OTHER");
  EXPECT_EQ(env.Get("FEED_CONFIG_KEYS_TEST"), std::optional<std::string>("1"));
  EXPECT_EQ(env.Get("CONFIG_KEYS_TEST_OTHER"), std::nullopt);
  EXPECT_EQ(env.Get("PATH"), std::nullopt);
}

TEST(ConfigEnvironment, ReplicaVariablesAreNamedInCapitals) {
  EXPECT_EQ(ReplicaEnvironmentPrefix("east-2"), "FEED_DB_REPLICA_EAST_2");
  DatabaseConfig db;
  ApplyReplicaEnvironment({{{"FEED_DB_REPLICA_EAST_2_HOST", "10.0.0.9"}, {"FEED_DB_REPLICA_EAST_2_NAME", "no"}}},
                          "east-2", &db);
  EXPECT_EQ(db.host, "10.0.0.9");
  EXPECT_EQ(db.name, "");  // a replica reads [database]'s name
}

}  // namespace
}  // namespace feed
