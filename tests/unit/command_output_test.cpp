// What the commands print, for reports built by hand, against literals.
#include "command_output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace feed {
namespace {

std::string Printed(const std::function<void(FILE*)>& print) {
  char* buf = nullptr;
  size_t size = 0;
  FILE* f = open_memstream(&buf, &size);
  print(f);
  std::fclose(f);
  std::string out(buf, size);
  std::free(buf);
  return out;
}

TEST(CommandOutput, LeftOutListsThenCounts) {
  RenderReport r;
  r.skipped = 3;
  r.skipped_items = {"item 7: id='x' breaks alnum"};
  r.dropped = 1;
  r.dropped_items = {"item 2: comments.body='' breaks required"};
  r.noted = 2;
  r.noted_items = {"item 4: ext='odt' breaks filetype"};
  EXPECT_EQ(Printed([&](FILE* f) { PrintLeftOut(f, r); }),
            "  left out: item 7: id='x' breaks alnum\n"
            "  item left out: item 2: comments.body='' breaks required\n"
            "  noted: item 4: ext='odt' breaks filetype\n"
            "  ... and 1 more notes\n"
            "  ... and 2 more\n");
}

TEST(CommandOutput, RenderSummary) {
  FeedReport r;
  r.rows = 500;
  r.more = true;
  r.continue_token = "abc";
  EXPECT_EQ(Printed([&](FILE* f) { PrintRenderSummary(f, "/yads", r); }),
            "/yads: 500 rows written, 0 left out\ncontinue=abc\n");
}

TEST(CommandOutput, WriteReport) {
  WriteReport r;
  r.files = {{"sitemap-ads-1.xml", 2, 300}, {"sitemap.xml", 1, 200}};
  r.urls = {"https://b.example/sitemap.xml"};
  r.rows = 2;
  const std::string body =
      "sitemap-ads-1.xml\t2 URLs\t300 bytes\n"
      "sitemap.xml\t1 URLs\t200 bytes\n"
      "/var/www/s: 2 files, 2 URLs, 500 bytes, 0 rows left out\n";
  EXPECT_EQ(Printed([&](FILE* f) { PrintWriteReport(f, "/var/www/s", r, false); }), body);
  EXPECT_EQ(Printed([&](FILE* f) { PrintWriteReport(f, "/var/www/s", r, true); }),
            body + "Sitemap: https://b.example/sitemap.xml\n");
}

TEST(CommandOutput, SyncReport) {
  SyncReport r;
  r.counts.shown = 10;
  r.counts.unchanged = 7;
  r.counts.created = 2;
  r.counts.updated = 1;
  r.retired = 4;
  r.left_out = 1;
  r.left_out_items = {"item 3: title='' breaks required"};
  EXPECT_EQ(Printed([&](FILE* f) { PrintSyncReport(f, "/msn", r); }),
            "/msn: 10 items shown, 7 unchanged, 2 created, 1 updated, 0 shown again, 0 taken down, 0 dropped "
            "unlisted, 4 take-downs retired, 1 rows left out\n"
            "  left out: item 3: title='' breaks required\n");
}

TEST(CommandOutput, CheckReport) {
  CheckReport r;
  r.feeds = 2;
  r.rows = 40;
  r.findings = {{true, "f.ini:3", "no such table", "fix the query"}, {false, "f.ini:9", "slow", ""}};
  EXPECT_EQ(Printed([&](FILE* f) { PrintCheckReport(f, "f.ini", r, true, false); }),
            "f.ini:3: no such table; fix the query\n"
            "f.ini:9: warning: slow\n"
            "f.ini: 2 feeds, 40 rows read (deep): 1 errors, 1 warnings\n");
}

}  // namespace
}  // namespace feed
