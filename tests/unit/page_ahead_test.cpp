// Pages made ahead (page_ahead.h): made once, taken once, by identity,
// within their time; a taker waits for a making under way; what is left
// behind is swept.
#include "page_ahead.h"

#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fcntl.h>
#include <fstream>
#include <future>
#include <sstream>

#include "temp_folder.h"

namespace feed {
namespace {

using testing::TempFolder;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The files of the folder whose names start with "ahead-".
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (std::string n = e.path().filename(); n.rfind("ahead-", 0) == 0) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A body file in the folder, as a kept response leaves it.
std::string Body(const std::string& dir, const std::string& text) {
  static int n = 0;
  const std::string path = dir + "/body-" + std::to_string(++n);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

ResponseHead Head() {
  ResponseHead h;
  h.Add("Content-Type", "text/xml; charset=windows-1251");
  h.Add("ETag", "\"abc\"");
  return h;
}

FeedReport Report() {
  FeedReport r;
  r.rows = 3;
  r.bytes = 11;
  r.more = true;
  r.continue_token = "NEXTTOKEN";
  r.read_from = "replica1";
  r.has_last = true;
  r.last = {1796137329, -5};
  r.skipped = 2;
  r.skipped_items = {"item 1: id='x y' breaks alnum", "item 2: line\nbreak"};
  return r;
}

TEST(PagesAhead, AMadePageIsTakenOnceWithItsHeadBodyAndReport) {
  TempFolder temp("ahead-test-");
  const std::string& dir = temp.path();
  SpoolDir spool(dir);
  PagesAhead ahead(spool);
  auto making = ahead.Begin("yads\n2026-11-01\nTOKEN\nidentity");
  ASSERT_TRUE(making);
  EXPECT_FALSE(ahead.Begin("yads\n2026-11-01\nTOKEN\nidentity")) << "made twice at once";
  making->Done(Head(), Body(dir, "<ads>...</ads>"), 14, Report(), 1000);
  making.reset();
  EXPECT_FALSE(ahead.Begin("yads\n2026-11-01\nTOKEN\nidentity")) << "made again while one waits";
  EXPECT_EQ(ahead.NextToken("yads\n2026-11-01\nTOKEN\nidentity"), std::optional<std::string>("NEXTTOKEN"))
      << "the page after it, read without taking it";
  EXPECT_EQ(ahead.NextToken("yads\n2026-11-01\nOTHER\nidentity"), std::nullopt);

  auto page = ahead.Take("yads\n2026-11-01\nTOKEN\nidentity", 1010);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->size, 14u);
  EXPECT_EQ(ReadFile(page->body), "<ads>...</ads>");
  ASSERT_EQ(page->head.headers.size(), 2u);
  EXPECT_EQ(page->head.status, 200);
  EXPECT_EQ(page->head.headers[0], (std::pair<std::string, std::string>{"Content-Type", "text/xml; charset=windows-1251"}));
  EXPECT_EQ(page->head.headers[1], (std::pair<std::string, std::string>{"ETag", "\"abc\""}));
  EXPECT_EQ(page->report.rows, 3u);
  EXPECT_EQ(page->report.bytes, 11u);
  EXPECT_TRUE(page->report.more);
  EXPECT_EQ(page->report.continue_token, "NEXTTOKEN");
  EXPECT_EQ(page->report.read_from, "replica1");
  EXPECT_TRUE(page->report.has_last);
  EXPECT_EQ(page->report.last, (Position{1796137329, -5}));
  EXPECT_EQ(page->report.skipped, 2u);
  EXPECT_EQ(page->report.skipped_items,
            (std::vector<std::string>{"item 1: id='x y' breaks alnum", "item 2: line break"}));
  // The body is the taker's now; nothing of the page is left to take.
  EXPECT_EQ(Files(dir), std::vector<std::string>{});
  EXPECT_FALSE(ahead.Take("yads\n2026-11-01\nTOKEN\nidentity", 1010));
  ::unlink(page->body.c_str());
}

TEST(PagesAhead, AnotherIdentityAStalePageOrAFailedMakingGivesNothing) {
  TempFolder temp("ahead-test-");
  const std::string& dir = temp.path();
  SpoolDir spool(dir);
  PagesAhead ahead(spool);
  auto making = ahead.Begin("yads\n\nT1\nidentity");
  making->Done(Head(), Body(dir, "x"), 1, Report(), 1000);
  making.reset();
  EXPECT_FALSE(ahead.Take("yads\n\nT1\ngzip", 1001)) << "another encoding of the body";
  EXPECT_FALSE(ahead.Take("yads\n\nT2\nidentity", 1001)) << "another token";
  EXPECT_TRUE(ahead.Take("yads\n\nT1\nidentity", 1000 + PagesAhead::kKeepSeconds - 1)) << "within its time";

  making = ahead.Begin("yads\n\nT3\nidentity");
  making->Done(Head(), Body(dir, "x"), 1, Report(), 1000);
  making.reset();
  EXPECT_FALSE(ahead.Take("yads\n\nT3\nidentity", 1000 + PagesAhead::kKeepSeconds)) << "too old";
  EXPECT_EQ(Files(dir), std::vector<std::string>{}) << "a stale page is removed when met";

  // A making that ends without Done leaves nothing, and may be made again.
  making = ahead.Begin("yads\n\nT4\nidentity");
  making.reset();
  EXPECT_EQ(Files(dir), std::vector<std::string>{});
  EXPECT_FALSE(ahead.Take("yads\n\nT4\nidentity", 1000));
  EXPECT_TRUE(ahead.Begin("yads\n\nT4\nidentity"));
}

TEST(PagesAhead, ATakerWaitsForAMakingUnderWay) {
  TempFolder temp("ahead-test-");
  const std::string& dir = temp.path();
  SpoolDir spool(dir);
  PagesAhead maker(spool);
  SpoolDir spool2(dir);  // another process's view of the same folder
  PagesAhead taker(spool2);
  std::promise<void> waiting;
  taker.SetWaitHook([&] { waiting.set_value(); });
  auto making = maker.Begin("yads\n\nT\nidentity");
  ASSERT_TRUE(making);
  auto took = std::async(std::launch::async, [&] { return taker.Take("yads\n\nT\nidentity", 1000); });
  // The taker has found the making and waits on its lock.
  ASSERT_EQ(waiting.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  making->Done(Head(), Body(dir, "made"), 4, Report(), 1000);
  making.reset();
  auto page = took.get();
  ASSERT_TRUE(page) << "the taker gave up instead of waiting for the page";
  EXPECT_EQ(ReadFile(page->body), "made");
  ::unlink(page->body.c_str());
}

TEST(PagesAhead, SweepRemovesOldPagesAndFreeLocksButNotAMakingUnderWay) {
  TempFolder temp("ahead-test-");
  const std::string& dir = temp.path();
  SpoolDir spool(dir);
  PagesAhead ahead(spool);
  auto old = ahead.Begin("old");
  old->Done(Head(), Body(dir, "x"), 1, Report(), 1000);
  old.reset();
  auto running = ahead.Begin("running");
  // A lock left by a maker that died, and the files of the old page: all
  // older than kKeepSeconds.
  const int dead = ::open((dir + "/ahead-0000000000000000.lock").c_str(), O_CREAT | O_RDWR, 0644);
  ::close(dead);
  struct timeval past[2] = {{std::time(nullptr) - PagesAhead::kKeepSeconds - 5, 0},
                            {std::time(nullptr) - PagesAhead::kKeepSeconds - 5, 0}};
  for (const std::string& f : Files(dir)) ASSERT_EQ(::utimes((dir + "/" + f).c_str(), past), 0) << f;
  EXPECT_EQ(Files(dir).size(), 4u);  // old .head and .body, the dead lock, the running lock
  EXPECT_EQ(ahead.Sweep(), 3u);
  const std::vector<std::string> left = Files(dir);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_NE(left[0].find(".lock"), std::string::npos) << "the making under way keeps its lock";
  EXPECT_FALSE(ahead.Take("old", 1000));
}

}  // namespace
}  // namespace feed
