// No room in the spool folder (issue #22, point 3), through Apache: the
// test site's spool folder (FEED_TEST_SITE/spool, where feed.fcgi, running
// as the web server's user, writes every body over spool_memory) is covered
// for the test by a file system of its own, made full (a tmpfs: ENOSPC),
// over the web user's disk quota (XFS with user quotas: EDQUOT) or
// read-only (EROFS). Each time a robot gets 503 with Retry-After and one
// line saying why, never a short feed; once the room returns the feed is
// served whole again, with nothing done by hand.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "http_client.h"
#include "scratch_fs.h"
#include "test_env.h"

namespace feed {
namespace {

using testing::Env;
using testing::ScratchFs;

using testing::HttpReply;

HttpReply Get(const std::string& target) { return testing::Http("GET", target); }

// The robot's first page: larger than spool_memory, so it goes to a file.
const char* const kPage = "/yads";

void ExpectWhole(const HttpReply& r) {
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  ASSERT_TRUE(r.headers.count("content-length"));
  EXPECT_EQ(r.headers.at("content-length"), std::to_string(r.body.size()));
  const std::string end = "</yml_catalog>";
  const size_t last = r.body.find_last_not_of("\r\n");
  EXPECT_TRUE(last != std::string::npos && last + 1 >= end.size() &&
              r.body.compare(last + 1 - end.size(), end.size(), end) == 0)
      << "the feed ends with its root's closing tag";
}

void ExpectNoRoom(const HttpReply& r, const std::string& reason) {
  EXPECT_EQ(r.status, 503) << r.body.substr(0, 300);
  ASSERT_TRUE(r.headers.count("retry-after")) << "a 503 says when to come back";
  const std::string& after = r.headers.at("retry-after");
  EXPECT_TRUE(!after.empty() && after.find_first_not_of("0123456789") == std::string::npos && std::stoi(after) > 0)
      << after;
  EXPECT_EQ(r.body, reason + "; try again later\n");
  if (r.headers.count("content-length")) {
    EXPECT_EQ(r.headers.at("content-length"), std::to_string(r.body.size()));
  }
}

class DiskE2e : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadSampleBoard(3000, 200, 1, 400); }
  void SetUp() override {
    spool_ = Env("FEED_TEST_SITE") + "/spool";
    dir_ = testing::TempDir("disk-e2e");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string spool_, dir_;
};

TEST_F(DiskE2e, AFullOrReadOnlySpoolFolderAnswers503WithRetryAfterUntilTheRoomReturns) {
  const HttpReply before = Get(kPage);
  ExpectWhole(before);
  ASSERT_GT(before.body.size(), size_t{256} << 10) << "larger than spool_memory: spooled to a file";
  {
    ScratchFs fs(spool_, 8 << 20);
    if (!fs.ok()) GTEST_SKIP() << fs.why();
    ExpectWhole(Get(kPage));
    ASSERT_TRUE(fs.Fill(64 << 10));  // room for the body's first part only
    ExpectNoRoom(Get(kPage), "the spool folder is full");
    ASSERT_TRUE(fs.Fill(0));
    ExpectNoRoom(Get(kPage), "the spool folder is full");
    fs.Free();
    ExpectWhole(Get(kPage));

    // The remount fails (EBUSY) while a file is open for writing there:
    // the process may still be making the next page ahead after it answered.
    ASSERT_TRUE(testing::PollUntil([&] { return fs.ReadOnly(true); })) << "the folder never became read-only";
    ExpectNoRoom(Get(kPage), "the spool folder is read-only");
    ASSERT_TRUE(fs.ReadOnly(false));
    ExpectWhole(Get(kPage));
  }
  ExpectWhole(Get(kPage));  // the site's own spool folder again
}

// The web user's disk quota on an XFS of the test's own, mounted over the
// spool folder; unmounted (and its loop device freed) however the test
// ends.
class QuotaFs {
 public:
  QuotaFs(const std::string& image, const std::string& dir) : dir_(dir) {
    if (geteuid() != 0) {
      why_ = "mounting needs root";
      return;
    }
    if (testing::Shell("command -v mkfs.xfs >/dev/null && command -v xfs_quota >/dev/null") != 0) {
      why_ = "no mkfs.xfs or xfs_quota (xfsprogs; tools/deps.sh installs it)";
      return;
    }
    if (testing::Shell("truncate -s 320M '" + image + "' && mkfs.xfs -q '" + image + "' >/dev/null 2>&1") != 0) {
      why_ = "mkfs.xfs failed";
      return;
    }
    if (testing::Shell("mount -o loop,uquota '" + image + "' '" + dir + "' 2>/dev/null") != 0) {
      why_ = "the kernel refused an XFS loop mount with uquota";
      return;
    }
    mounted_ = true;
    chmod(dir.c_str(), 01777);
  }
  ~QuotaFs() {
    if (mounted_) umount2(dir_.c_str(), MNT_DETACH);  // the loop device goes with the last reference
  }
  QuotaFs(const QuotaFs&) = delete;
  QuotaFs& operator=(const QuotaFs&) = delete;
  bool ok() const { return mounted_; }
  const std::string& why() const { return why_; }
  // A hard limit of `kib` KiB for `user` (0: none).
  bool Limit(const std::string& user, int kib) {
    return testing::Shell("xfs_quota -x -c 'limit -u bhard=" + std::to_string(kib) + "k " + user + "' '" + dir_ +
                          "'") == 0;
  }

 private:
  std::string dir_, why_;
  bool mounted_ = false;
};

// The user the feed.fcgi processes run as (www-data under a root Apache).
std::string FeedUser() {
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (testing::Slurp(e.path().string() + "/comm") != "feed.fcgi\n") continue;
    struct stat st;
    if (stat(e.path().c_str(), &st) != 0) continue;
    if (const passwd* pw = getpwuid(st.st_uid)) return pw->pw_name;
  }
  return "";
}

TEST_F(DiskE2e, TheWebUsersDiskQuotaAnswers503WithRetryAfterUntilItIsRaised) {
  const HttpReply before = Get(kPage);
  ExpectWhole(before);
  const std::string user = FeedUser();
  ASSERT_NE(user, "") << "a feed.fcgi process serves the site";
  if (user == "root") GTEST_SKIP() << "feed.fcgi runs as root, whom no quota limits";
  QuotaFs fs(dir_ + "/xfs.img", spool_);
  if (!fs.ok()) GTEST_SKIP() << fs.why();
  ExpectWhole(Get(kPage));
  ASSERT_TRUE(fs.Limit(user, 64));  // less than the page
  ExpectNoRoom(Get(kPage), "the spool folder is over its disk quota");
  ASSERT_TRUE(fs.Limit(user, 0));
  ExpectWhole(Get(kPage));
}

}  // namespace
}  // namespace feed
