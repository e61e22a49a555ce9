// `render`'s sink: the head is read and dropped, a 200's body goes to the
// output, any other status's message to the error stream; a head split
// across writes is put together first.
#include "command_line_sink.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace feed {
namespace {

std::string Contents(FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

TEST(CommandLineSink, TheBodyOfA200GoesToTheOutput) {
  FILE* out = std::tmpfile();
  FILE* err = std::tmpfile();
  {
    CommandLineSink sink(out, err);
    sink.Write("Status: 200 OK\r\nContent-Type: text/xml\r");
    EXPECT_EQ(sink.status(), 0);
    sink.Write("\n\r\n<a>");
    sink.Write("</a>");
    sink.Flush();
    EXPECT_EQ(sink.status(), 200);
  }
  EXPECT_EQ(Contents(out), "<a></a>");
  EXPECT_EQ(Contents(err), "");
  std::fclose(out);
  std::fclose(err);
}

TEST(CommandLineSink, AnErrorsMessageGoesToTheErrorStream) {
  FILE* out = std::tmpfile();
  FILE* err = std::tmpfile();
  {
    CommandLineSink sink(out, err);
    sink.Write("Status: 404 Not Found\r\nContent-Type: text/plain\r\n\r\nno feed at /nope\n");
    sink.Flush();
    EXPECT_EQ(sink.status(), 404);
  }
  EXPECT_EQ(Contents(out), "");
  EXPECT_EQ(Contents(err), "no feed at /nope\n");
  std::fclose(out);
  std::fclose(err);
}

}  // namespace
}  // namespace feed
