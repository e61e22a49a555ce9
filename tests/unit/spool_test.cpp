// The spool (a body held until it is whole) and the spooled Response: what
// reaches the client, and when.
#include "spool.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "config.h"
#include "error.h"
#include "http.h"
#include "temp_folder.h"
#include "gzip_reference.h"

namespace feed {
namespace {

using testing::TempFolder;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

std::string Text(size_t n) {
  std::string s;
  while (s.size() < n) s += "<ad id=\"" + std::to_string(s.size()) + "\"/>\n";
  return s.substr(0, n);
}

TEST(Spool, SmallBodiesStayInMemoryLargeOnesMoveToAFileByteForByte) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  Spool small(dir, 1000);
  small.Write(Text(1000));
  EXPECT_TRUE(small.in_memory());
  StringSink a;
  small.CopyTo(a);
  EXPECT_EQ(a.data, Text(1000));

  Spool large(dir, 1000);
  const std::string body = Text(300000);
  for (size_t at = 0; at < body.size(); at += 777) large.Write(std::string_view(body).substr(at, 777));
  EXPECT_FALSE(large.in_memory());
  EXPECT_EQ(large.size(), body.size());
  StringSink b;
  large.CopyTo(b);
  EXPECT_EQ(b.data, body);
}

// Two configs of one process over one folder (two Apps in a test program)
// count their names from the same start: the second takes the next free one.
TEST(Spool, TwoSpoolDirsOfOneProcessShareAFolder) {
  TempFolder temp("spool-test-", /*make=*/false);
  const std::string& folder = temp.path();
  SpoolDir one(folder), two(folder);
  Spool a(one, 10), b(two, 10);
  a.Write(Text(100));
  b.Write(Text(200));
  EXPECT_FALSE(a.in_memory());
  EXPECT_FALSE(b.in_memory());
  const std::string pa = a.Publish(1000), pb = b.Publish(1000);
  EXPECT_NE(pa, pb);
  EXPECT_EQ(ReadSiteFile(pa), Text(100));
  EXPECT_EQ(ReadSiteFile(pb), Text(200));
}

TEST(Spool, APublishedFileStaysLongEnoughForTheWebServerAndAnAbandonedOneGoesAtOnce) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  std::string abandoned_name;
  {
    Spool abandoned(dir, 10);
    abandoned.Write(Text(5000));
    // Its file is the only one in the folder.
    abandoned_name = dir.path() + "/feed-" + std::to_string(::getpid()) + "-1";
    EXPECT_TRUE(Exists(abandoned_name));
  }
  EXPECT_FALSE(Exists(abandoned_name)) << "a body never sent leaves no file";

  Spool s(dir, 10);
  s.Write(Text(5000));
  const std::string path = s.Publish(1000);
  EXPECT_EQ(path.rfind(dir.path() + "/feed-" + std::to_string(::getpid()) + "-", 0), 0u);
  EXPECT_EQ(ReadFile(path), Text(5000));
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "the web server reads it";
  // The web server opens it within moments, but not necessarily before the
  // process takes its next request: it stays kReleaseSeconds.
  dir.Release(1000 + SpoolDir::kReleaseSeconds - 1);
  EXPECT_TRUE(Exists(path));
  dir.Release(1000 + SpoolDir::kReleaseSeconds);
  EXPECT_FALSE(Exists(path));
}

TEST(Spool, SweepRemovesOldFilesOfDeadProcessesOnly) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  Spool mine(dir, 0);
  mine.Write("x");  // makes the folder
  // A pid that cannot be running: above the kernel's pid_max.
  const std::string dead_old = dir.path() + "/feed-99999999-1", dead_new = dir.path() + "/feed-99999999-2";
  const std::string alive_old = dir.path() + "/feed-1-1", other = dir.path() + "/notes.txt";
  for (const std::string& p : {dead_old, dead_new, alive_old, other}) std::ofstream(p) << "body";
  timeval old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  for (const std::string& p : {dead_old, alive_old, other}) ASSERT_EQ(::utimes(p.c_str(), old), 0);
  EXPECT_EQ(dir.Sweep(), 1u);
  EXPECT_FALSE(Exists(dead_old));
  EXPECT_TRUE(Exists(dead_new)) << "a dead process's fresh file may still be on its way to the web server";
  EXPECT_TRUE(Exists(alive_old)) << "pid 1 is alive";
  EXPECT_TRUE(Exists(other));
}

TEST(Spool, CheckRefusesAFolderThatTakesNoFiles) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir good(folder.path());
  EXPECT_NO_THROW(good.Check());
  SpoolDir bad("/etc/hostname/spool");  // under a file: never a folder
  try {
    bad.Check();
    ADD_FAILURE() << "accepted";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kConfig);
    EXPECT_NE(std::string(e.what()).find("spool_dir"), std::string::npos) << e.what();
  }
}

// Spooled, nothing reaches the client before Finish; then the head with
// Content-Length and the body, or the head with X-Sendfile.
TEST(SpooledResponse, SendsNothingUntilWholeThenHeadWithLengthAndBody) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  StringSink out;
  Response r(out, true, false, Delivery{&dir, false, 100});
  ResponseHead h;
  h.Add("Content-Type", "text/xml");
  r.Start(h, false);
  r.Write(Text(5000));
  EXPECT_EQ(out.data, "");
  EXPECT_FALSE(r.sent());
  r.Finish();
  EXPECT_EQ(out.data,
            "Status: 200 OK\r\nContent-Type: text/xml\r\nX-Content-Type-Options: nosniff\r\n"
            "Content-Length: 5000\r\n\r\n" +
                Text(5000));
}

TEST(SpooledResponse, AFailureBeforeFinishIsAnsweredCleanly) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  StringSink out;
  Response r(out, true, false, Delivery{&dir, false, 100});
  r.Start(ResponseHead{}, true);
  r.Write(Text(50000));  // half a feed, gzipped into a file
  ASSERT_FALSE(r.sent());
  r.Error(503, "the database is unavailable; try again later", {{"Retry-After", "60"}});
  EXPECT_EQ(out.data,
            "Status: 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\n"
            "Retry-After: 60\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 45\r\n\r\n"
            "the database is unavailable; try again later\n");
}

TEST(SpooledResponse, GzipHasTheLengthOfTheCompressedBody) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  StringSink out;
  Response r(out, true, false, Delivery{&dir, false, 1000});
  r.Start(ResponseHead{}, true);
  r.Write(Text(200000));
  r.Finish();
  const size_t end = out.data.find("\r\n\r\n");
  const std::string head = out.data.substr(0, end), body = out.data.substr(end + 4);
  EXPECT_NE(head.find("Content-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_NE(head.find("Content-Length: " + std::to_string(body.size())), std::string::npos) << head;
  EXPECT_EQ(testing::ZlibGunzip(body), Text(200000));
}

// Handed off: a large body is named to the web server, which compresses it
// itself (the program never gzips then); a small one is sent as it is.
TEST(SpooledResponse, XSendfileNamesLargeBodiesAndNeverGzips) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  StringSink out;
  Response r(out, true, false, Delivery{&dir, true, 1000});
  r.Start(ResponseHead{}, /*gzip=*/true);
  r.Write(Text(5000));
  r.Finish();
  const std::string prefix = "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\nX-Sendfile: ";
  ASSERT_EQ(out.data.rfind(prefix, 0), 0u) << out.data;
  const std::string path = out.data.substr(prefix.size(), out.data.find("\r\n", prefix.size()) - prefix.size());
  EXPECT_EQ(out.data.substr(prefix.size() + path.size()), "\r\n\r\n");
  EXPECT_EQ(ReadFile(path), Text(5000));

  StringSink small;
  Response s(small, true, false, Delivery{&dir, true, 1000});
  s.Start(ResponseHead{}, true);
  s.Write("<small/>");
  s.Finish();
  EXPECT_EQ(small.data, "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 8\r\n\r\n<small/>");
}

TEST(SpooledResponse, HeadAnd304AndOptionsCarryNoLength) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  StringSink head_out;
  Response head(head_out, true, /*head_only=*/true, Delivery{&dir, false, 100});
  head.Start(ResponseHead{}, false);
  head.Write("ignored");
  head.Finish();
  EXPECT_EQ(head_out.data, "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\n\r\n");

  StringSink nm_out;
  Response nm(nm_out, true, false, Delivery{&dir, false, 100});
  Validators v;
  v.etag = "W/\"abc\"";
  nm.NotModified(v);
  EXPECT_EQ(nm_out.data,
            "Status: 304 Not Modified\r\nETag: W/\"abc\"\r\nVary: Accept-Encoding\r\nX-Content-Type-Options: "
            "nosniff\r\n\r\n");
}

// A response kept for later (a page made ahead, page_ahead.h) sends
// nothing; sent later, it goes out as a response made then would: with its
// length and body, or named to the web server.
TEST(SpooledResponse, AKeptResponseSendsNothingAndIsSentLaterAsItWouldHaveBeen) {
  TempFolder folder("spool-test-", /*make=*/false);
  SpoolDir dir(folder.path());
  for (const bool gzip : {false, true}) {
    StringSink nothing;
    Delivery keep{&dir, false, 1000};
    keep.keep = true;
    Response made(nothing, true, false, keep);
    made.Start(ResponseHead{}, gzip);
    made.Write("<small/>");  // under the memory limit: kept in a file all the same
    made.Finish();
    EXPECT_EQ(nothing.data, "");
    Response::KeptBody kept = made.TakeKept();
    ASSERT_FALSE(kept.body.empty());
    const std::string bytes = ReadFile(kept.body);
    EXPECT_EQ(gzip ? testing::ZlibGunzip(bytes) : bytes, "<small/>");
    EXPECT_EQ(kept.size, bytes.size());

    StringSink out;
    Response later(out, true, false, Delivery{&dir, false, 1000});
    later.SendKept(kept.head, kept.body, kept.size);
    const std::string head = std::string("Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\n") +
                             (gzip ? "Content-Encoding: gzip\r\n" : "") + "Content-Length: " +
                             std::to_string(kept.size) + "\r\n\r\n";
    ASSERT_EQ(out.data.rfind(head, 0), 0u) << out.data;
    EXPECT_EQ(out.data.substr(head.size()), bytes);
    EXPECT_FALSE(Exists(kept.body)) << "a body sent by the program is removed";
  }
  Delivery keep{&dir, true, 1000};
  keep.keep = true;
  StringSink nothing;
  Response made(nothing, true, false, keep);
  made.Start(ResponseHead{}, true);
  made.Write(Text(5000));
  made.Finish();
  Response::KeptBody kept = made.TakeKept();
  StringSink out;
  Response later(out, true, false, Delivery{&dir, true, 1000});
  later.SendKept(kept.head, kept.body, kept.size);
  EXPECT_EQ(out.data, "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\nX-Sendfile: " + kept.body + "\r\n\r\n");
  EXPECT_EQ(ReadFile(kept.body), Text(5000)) << "named to the web server, never gzipped by the program";
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

// hand_off = redirect: a large body is moved whole into the published
// folder under 32 random hex digits and the client is sent there.
TEST(SpooledResponse, RedirectPublishesLargeBodiesUnderUnguessableNamesAndNeverGzips) {
  TempFolder spool("spool-test-", /*make=*/false);
  TempFolder out_folder("redirect-test-");
  SpoolDir dir(spool.path());
  RedirectDir published(out_folder.path(), "", 600);
  Delivery d{&dir, false, 1000};
  d.redirect = &published;
  d.now = ::time(nullptr);
  d.script_name = "/cgi-bin/feed.fcgi";
  std::set<std::string> names;
  for (int i = 0; i < 3; ++i) {
    StringSink out;
    Response r(out, true, false, d);
    ResponseHead h;
    h.Add("Content-Type", "text/xml; charset=windows-1251");
    r.Start(h, /*gzip=*/true);
    r.Write(Text(5000));
    r.Finish();
    std::smatch m;
    const std::string folder = out_folder.path().substr(out_folder.path().rfind('/') + 1);
    ASSERT_TRUE(std::regex_match(out.data, m,
                                 std::regex("Status: 302 Found\r\nLocation: /cgi-bin/" + folder +
                                            "/([0-9a-f]{32})\\.text_xml\\.windows-1251\r\nCache-Control: no-store\r\n"
                                            "Content-Length: 0\r\n\r\n")))
        << out.data;
    names.insert(m[1]);
    const std::string file = out_folder.path() + "/" + m[1].str() + ".text_xml.windows-1251";
    EXPECT_EQ(ReadFile(file), Text(5000)) << "whole, and not gzipped";
    struct stat st;
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u) << "the web server reads it";
  }
  EXPECT_EQ(names.size(), 3u);
  // A text body's name says text/plain; a given URL is used as it is.
  RedirectDir there(out_folder.path(), "https://doska.example/feeds/", 600);
  d.redirect = &there;
  StringSink text;
  Response t(text, true, false, d);
  ResponseHead th;
  th.Add("Content-Type", "text/plain; charset=UTF-8");
  t.Start(th, false);
  t.Write(Text(5000));
  t.Finish();
  EXPECT_TRUE(std::regex_search(text.data, std::regex("\r\nLocation: https://doska\\.example/feeds/[0-9a-f]{32}\\.text_plain\\.UTF-8\r\n")))
      << text.data;
  // Small bodies, and a robot's feed (SendItself), are sent by the program.
  StringSink small;
  Response s(small, true, false, d);
  s.Start(ResponseHead{}, false);
  s.Write("<small/>");
  s.Finish();
  EXPECT_EQ(small.data, "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 8\r\n\r\n<small/>");
  StringSink robot;
  Response b(robot, true, false, d);
  b.SendItself();
  b.Start(ResponseHead{}, false);
  b.Write(Text(5000));
  b.Finish();
  EXPECT_EQ(robot.data, "Status: 200 OK\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 5000\r\n\r\n" + Text(5000));
}

TEST(RedirectDir, PublishedFilesLiveTheirLifetimeAndNothingElseIsTouched) {
  TempFolder spool("spool-test-", /*make=*/false);
  TempFolder out("redirect-test-");
  SpoolDir dir(spool.path());
  RedirectDir published(out.path(), "/out", 600);
  const std::string other = out.path() + "/.htaccess", lookalike = out.path() + "/0123456789abcdef.xml";
  for (const std::string& p : {other, lookalike}) std::ofstream(p) << "x";
  const int64_t now = ::time(nullptr);
  Spool body(dir, 10);
  body.Write(Text(100));
  const std::string url = published.Publish(body, "text/xml; charset=UTF-8", now, "/cgi-bin/feed.fcgi");
  ASSERT_EQ(url.rfind("/out/", 0), 0u) << url;
  const std::string file = out.path() + url.substr(4);
  EXPECT_TRUE(Exists(file));
  EXPECT_EQ(published.Sweep(now + 599), 0u);
  EXPECT_TRUE(Exists(file));
  timeval old[2] = {{::time(nullptr) - 3600, 0}, {::time(nullptr) - 3600, 0}};
  for (const std::string& p : {other, lookalike}) ASSERT_EQ(::utimes(p.c_str(), old), 0);
  EXPECT_EQ(published.Sweep(now + 600), 1u);
  EXPECT_FALSE(Exists(file));
  EXPECT_TRUE(Exists(other));
  EXPECT_TRUE(Exists(lookalike)) << "16 digits are not a published name";
  published.Check();
  EXPECT_THROW(RedirectDir(out.path() + "/missing", "", 600).Check(), FeedError);
}

// A published body's name says its Content-Type, and the folder's .htaccess
// says it to Apache: the lines appended once to what the file held.
TEST(RedirectDir, APublishedNameCarriesItsTypeAndCharsetForApache) {
  EXPECT_EQ(PublishedExtension("text/xml; charset=windows-1251"), ".text_xml.windows-1251");
  EXPECT_EQ(PublishedExtension("application/rss+xml; charset=UTF-8"), ".application_rss_xml.UTF-8");
  EXPECT_EQ(PublishedExtension("application/gzip"), ".application_gzip");
  EXPECT_EQ(PublishedExtension("application/vnd.example+xml"), ".application_vnd_example_xml");
  EXPECT_EQ(MimeLines("text/xml; charset=windows-1251"),
            "<IfModule mod_mime.c>\nAddType text/xml .text_xml\nAddCharset windows-1251 .windows-1251\n</IfModule>\n");
  EXPECT_EQ(MimeLines("application/gzip"), "<IfModule mod_mime.c>\nAddType application/gzip .application_gzip\n</IfModule>\n");

  TempFolder spool("spool-test-", /*make=*/false);
  TempFolder out("redirect-test-");
  SpoolDir dir(spool.path());
  RedirectDir published(out.path(), "", 600);
  const std::string htaccess = out.path() + "/.htaccess";
  std::ofstream(htaccess) << "Options -Indexes";  // the owner's, no newline at the end
  const int64_t now = ::time(nullptr);
  for (const char* type : {"text/xml; charset=windows-1251", "text/xml; charset=UTF-8", "text/xml; charset=windows-1251"}) {
    Spool body(dir, 10);
    body.Write(Text(100));
    const std::string url = published.Publish(body, type, now, "/cgi-bin/feed.fcgi");
    EXPECT_EQ(url.substr(url.size() - PublishedExtension(type).size()), PublishedExtension(type)) << url;
  }
  EXPECT_EQ(ReadFile(htaccess),
            "Options -Indexes\n"
            "<IfModule mod_mime.c>\nAddType text/xml .text_xml\nAddCharset windows-1251 .windows-1251\n</IfModule>\n"
            "<IfModule mod_mime.c>\nAddType text/xml .text_xml\nAddCharset UTF-8 .UTF-8\n</IfModule>\n");
}

}  // namespace
}  // namespace feed
