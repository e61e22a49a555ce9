// The test servers themselves: what keeps one server (or one test) from
// breaking another's work, so that the suite fails only when the product
// does (issue #22, point 8).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "test_env.h"

namespace feed {
namespace {

// A mariadbd deletes every #sql* file in its tmpdir when it starts. Servers
// sharing /tmp (the replica set started while the other integration tests
// run, a test that restarts its server) removed each other's temporary
// tables mid-query: each must have a folder of its own, inside its harness
// folder.
TEST(TestHarness, TheDatabaseServerKeepsItsTemporaryFilesInAFolderOfItsOwn) {
  std::string tmpdir = testing::Table("SELECT @@tmpdir")[0][0];
  while (tmpdir.size() > 1 && tmpdir.back() == '/') tmpdir.pop_back();
  EXPECT_EQ(tmpdir, testing::Env("FEED_TEST_DB_DIR") + "/tmp");
  EXPECT_NE(tmpdir, "/tmp");
  const char* shared = std::getenv("TMPDIR");
  if (shared) {
    EXPECT_NE(tmpdir, std::string(shared));
  }
}

}  // namespace
}  // namespace feed
