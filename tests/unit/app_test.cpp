// App::Handle without a database: what it answers before any feed reads a
// row (the methods it takes, OPTIONS, a path no feed serves), as CGI
// headers on the sink.
#include "app.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "temp_folder.h"

namespace feed {
namespace {

class AppWithoutDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FEED_DB_NAME");
    Write("t.xml",
          "<rss xmlns:feed=\"urn:feed-fcgi:template\"><channel>"
          "<item feed:each=\"row\" feed:key=\"id\"><link>{link}</link></item></channel></rss>");
    Write("q.sql", "SELECT id, link FROM ads WHERE id > :after_id AND id <= :until_id ORDER BY id LIMIT :limit");
    app_ = std::make_unique<App>(ParseConfig(
        "[database]\nsocket = /nonexistent/feed-app-test.sock\nuser = feed\nname = sample\nconnect_timeout = 1\n"
        "[site]\ntime_zone = Europe/Kiev\n"
        "[server]\nspool_dir = " + folder_.path() + "/spool\n"
        "[feed recent]\npath = /recent\ntemplate = t.xml\nquery = q.sql\nkeyset = id\n",
        folder_.path() + "/f.ini", folder_.path()));
    app_->SetLog([this](const std::string& line) { log_ += line + "\n"; });
  }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(folder_.path() + "/" + name) << text;
  }
  std::string Handle(const std::string& method, const std::string& path, int* status) {
    Request req;
    req.method = method;
    req.path_info = path;
    StringSink out;
    *status = app_->Handle(req, out, /*live=*/false);
    return out.data;
  }

  testing::TempFolder folder_{"feed-app-"};
  std::unique_ptr<App> app_;
  std::string log_;
};

// OPTIONS says which methods the program takes, with 204 and its own
// reason phrase (it was once sent as "204 Internal Server Error").
TEST_F(AppWithoutDatabase, OptionsIs204NoContentWithAllow) {
  int status = 0;
  EXPECT_EQ(Handle("OPTIONS", "/recent", &status),
            "Status: 204 No Content\r\nAllow: GET, HEAD, OPTIONS\r\nX-Content-Type-Options: nosniff\r\n\r\n");
  EXPECT_EQ(status, 204);
}

TEST_F(AppWithoutDatabase, OtherMethodsAre405WithAllow) {
  int status = 0;
  const std::string reply = Handle("POST", "/recent", &status);
  EXPECT_EQ(status, 405);
  EXPECT_EQ(reply.rfind("Status: 405 Method Not Allowed\r\n", 0), 0u) << reply;
  EXPECT_NE(reply.find("Allow: GET, HEAD, OPTIONS\r\n"), std::string::npos);
  EXPECT_NE(reply.find("\r\n\r\nmethod POST not allowed: use GET or HEAD\n"), std::string::npos) << reply;
}

TEST_F(AppWithoutDatabase, APathNoFeedServesIs404) {
  int status = 0;
  const std::string reply = Handle("GET", "/nothing-here", &status);
  EXPECT_EQ(status, 404);
  EXPECT_EQ(reply.rfind("Status: 404 Not Found\r\n", 0), 0u) << reply;
  EXPECT_NE(reply.find("\r\n\r\nno feed at this path\n"), std::string::npos) << reply;
}

// The feed is there, the database is not: 503 with Retry-After, and the
// outage logged.
TEST_F(AppWithoutDatabase, AFeedWithoutItsDatabaseIs503) {
  int status = 0;
  const std::string reply = Handle("GET", "/recent", &status);
  EXPECT_EQ(status, 503);
  EXPECT_EQ(reply.rfind("Status: 503 Service Unavailable\r\n", 0), 0u) << reply;
  EXPECT_NE(reply.find("Retry-After: 60\r\n"), std::string::npos) << reply;
  EXPECT_NE(log_.find("database unavailable: "), std::string::npos) << log_;
}

}  // namespace
}  // namespace feed
