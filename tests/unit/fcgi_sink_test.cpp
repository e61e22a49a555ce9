// The FastCGI records written past libfcgi's buffer: headers as the
// protocol lays them out, pieces of at most 65535 bytes, in order.
#include "fcgi_sink.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>

#include "error.h"

namespace feed {
namespace {

std::string ReadBack(FILE* f) {
  std::rewind(f);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

TEST(FcgiSink, LargeBodiesGoAsRecordsOfAtMost65535Bytes) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  const std::string body = std::string(65535, 'a') + std::string(4465, 'b');  // 70000 bytes
  WriteStdoutRecords(fileno(f), 0x0102, body);
  const std::string got = ReadBack(f);
  std::fclose(f);
  ASSERT_EQ(got.size(), 8 + 65535 + 8 + 4465u);
  // version 1, FCGI_STDOUT, request id 0x0102, length 0xffff, no padding
  EXPECT_EQ(got.substr(0, 8), std::string("\x01\x06\x01\x02\xff\xff\x00\x00", 8));
  EXPECT_EQ(got.substr(8, 65535), std::string(65535, 'a'));
  // then 4465 = 0x1171
  EXPECT_EQ(got.substr(8 + 65535, 8), std::string("\x01\x06\x01\x02\x11\x71\x00\x00", 8));
  EXPECT_EQ(got.substr(16 + 65535), std::string(4465, 'b'));
}

TEST(FcgiSink, NothingWrittenForAnEmptyBody) {
  FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  WriteStdoutRecords(fileno(f), 1, "");
  EXPECT_EQ(ReadBack(f), "");
  std::fclose(f);
}

TEST(FcgiSink, AClosedConnectionIsAGoneClient) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  close(p[0]);  // nobody reads: the write fails with EPIPE, as the program ignores SIGPIPE
  signal(SIGPIPE, SIG_IGN);
  try {
    WriteStdoutRecords(p[1], 1, "x");
    FAIL() << "no error";
  } catch (const FeedError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kClientGone);
  }
  close(p[1]);
}

}  // namespace
}  // namespace feed
