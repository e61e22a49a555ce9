// An MSN feed without a database: the engine's own fields, and what it
// answers before the item state is read (a malformed query string is a
// 400; the database not there, 503), with nothing sent.
#include "msn_feed.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "error.h"
#include "refusal.h"
#include "temp_folder.h"

namespace feed {
namespace {

class MsnFeedWithoutDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FEED_DB_NAME");
    std::ofstream(folder_.path() + "/t.xml")
        << "<rss xmlns:feed=\"urn:feed-fcgi:template\"><channel>"
           "<item feed:each=\"row\" feed:key=\"id\"><guid>{guid}</guid><title>{title}</title><link>{link}</link>"
           "</item></channel></rss>";
    std::ofstream(folder_.path() + "/q.sql")
        << "SELECT id, title, link, ends FROM ads WHERE id > :after_id AND id <= :until_id ORDER BY id LIMIT :limit";
    site_ = ParseConfig(
        "[database]\nsocket = /nonexistent/feed-msn-test.sock\nuser = feed\nname = sample\nconnect_timeout = 1\n"
        "[site]\ntime_zone = UTC\n"
        "[feed msn]\npath = /msn\ntemplate = t.xml\nquery = q.sql\nkeyset = id\nlifecycle = msn\n"
        "guid_prefix = ad-\nwindow_days = 7\nretention_days = 7\n",
        folder_.path() + "/f.ini", folder_.path());
    feed_ = std::make_unique<Feed>(site_.feeds[0], site_);
    msn_ = std::make_unique<MsnFeed>(*feed_, site_.database);
    servers_ = std::make_unique<ReplicaSet>(site_, clock_);
  }
  FeedError Refusal(const std::string& query_string) {
    Request req;
    req.path_info = "/msn";
    req.query_string = query_string;
    return testing::Refusal(req, [&](const Request& r, Response& resp, FeedReport* report) {
      msn_->Serve(r, *servers_, clock_, resp, report);
    });
  }

  testing::TempFolder folder_{"feed-msn-"};
  FixedClock clock_{1793525400};
  Config site_;
  std::unique_ptr<Feed> feed_;
  std::unique_ptr<MsnFeed> msn_;
  std::unique_ptr<ReplicaSet> servers_;
};

TEST_F(MsnFeedWithoutDatabase, TheEngineFillsInGuidModifiedAndExpires) {
  EXPECT_EQ(MsnFeed::EngineFields(), (std::vector<std::string>{"guid", "modified", "expires"}));
}

TEST_F(MsnFeedWithoutDatabase, AMalformedQueryStringIsA400BeforeTheDatabase) {
  FeedError e = Refusal("a=%zz");
  EXPECT_EQ(e.kind(), ErrorKind::kBadRequest);
}

TEST_F(MsnFeedWithoutDatabase, WithoutItsDatabaseItIsUnavailable) {
  FeedError e = Refusal("");
  EXPECT_EQ(e.kind(), ErrorKind::kUnavailable);
}

}  // namespace
}  // namespace feed
