// A document feed's checks of the request, which come before the database
// is asked anything (DocumentFeed::Serve: a bad request is a 400 even
// while the database is down), against a server that is not there.
#include "document.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "error.h"
#include "refusal.h"
#include "temp_folder.h"

namespace feed {
namespace {

class DocumentFeedWithoutDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FEED_DB_NAME");
    unsetenv("FEED_SECRET");
    std::ofstream(folder_.path() + "/t.xml") << "<rss xmlns:feed=\"urn:feed-fcgi:template\"><channel>"
                                                "<item feed:each=\"row\" feed:key=\"id\"><link>{link}</link></item>"
                                                "</channel></rss>";
    std::ofstream(folder_.path() + "/q.sql")
        << "SELECT id, link FROM ads WHERE id > :after_id AND updated >= :since ORDER BY id LIMIT :limit";
    site_ = ParseConfig(
        "[database]\nsocket = /nonexistent/feed-document-test.sock\nuser = feed\nname = sample\n"
        "connect_timeout = 1\n"
        "[site]\ntime_zone = UTC\n"
        "[feed recent]\npath = /recent\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n"
        "since = param date\ncontinue = param continue\npage_size = 10\n"
        "secret = Zq8v3LxT0pW2mB7nR5sYk4Hd\n",
        folder_.path() + "/f.ini", folder_.path());
    feed_ = std::make_unique<Feed>(site_.feeds[0], site_);
    document_ = std::make_unique<DocumentFeed>(*feed_);
    servers_ = std::make_unique<ReplicaSet>(site_, clock_);
  }
  // What Serve throws for `query_string`, and that nothing was sent.
  FeedError Refusal(const std::string& query_string) {
    Request req;
    req.query_string = query_string;
    return testing::Refusal(req, [&](const Request& r, Response& resp, FeedReport* report) {
      document_->Serve(r, *servers_, clock_, resp, report);
    });
  }

  testing::TempFolder folder_{"feed-document-"};
  FixedClock clock_{1793525400};  // Sun, 01 Nov 2026 09:30:00 GMT
  Config site_;
  std::unique_ptr<Feed> feed_;
  std::unique_ptr<DocumentFeed> document_;
  std::unique_ptr<ReplicaSet> servers_;
};

TEST_F(DocumentFeedWithoutDatabase, AMalformedSinceIsA400BeforeTheDatabase) {
  FeedError e = Refusal("date=yesterday");
  EXPECT_EQ(e.kind(), ErrorKind::kBadRequest);
  EXPECT_EQ(std::string(e.what()),
            "date must be YYYY-MM-DD HH:MM:SS in the site's time, such as 2026-11-01 09:30:00");
}

TEST_F(DocumentFeedWithoutDatabase, ALookalikeParameterIsA400) {
  FeedError e = Refusal("Date=2026-11-01+09:30:00");
  EXPECT_EQ(e.kind(), ErrorKind::kBadRequest);
  EXPECT_EQ(std::string(e.what()), "unknown parameter 'Date'; this feed takes 'date'");
}

TEST_F(DocumentFeedWithoutDatabase, ATokenTheFeedDidNotIssueIsA400) {
  FeedError e = Refusal("date=2026-11-01+09:30:00&continue=abc123");
  EXPECT_EQ(e.kind(), ErrorKind::kBadRequest);
  EXPECT_EQ(std::string(e.what()),
            "continue is not a token this feed issued for this date; start again without continue");
}

// A good request gets as far as the database, which is not there: 503.
TEST_F(DocumentFeedWithoutDatabase, AGoodRequestReachesTheDatabase) {
  FeedError e = Refusal("date=2026-11-01+09:30:00");
  EXPECT_EQ(e.kind(), ErrorKind::kUnavailable);
}

}  // namespace
}  // namespace feed
