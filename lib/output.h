// Where a response goes. A Sink takes bytes; the FastCGI stream, a file, a
// string (tests) and a gzip encoder stacked on another sink are sinks. A
// sink that cannot write (the client went away) throws
// FeedError(kClientGone).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

struct z_stream_s;

namespace feed {

class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Write(std::string_view bytes) = 0;
  // Pushes buffered bytes on towards the client.
  virtual void Flush() {}
};

class StringSink : public Sink {
 public:
  void Write(std::string_view bytes) override { data.append(bytes); }
  std::string data;
};

// Writes to a stdio stream (stdout in CGI and command-line modes). Does not
// own it.
class FileSink : public Sink {
 public:
  explicit FileSink(FILE* f) : f_(f) {}
  void Write(std::string_view bytes) override;
  void Flush() override;

 private:
  FILE* f_;
};

// gzip (RFC 1952) of everything written, passed on to `next` as it
// compresses. Finish() writes the trailer; without it the stream is cut
// (which is what a failure mid-feed must leave).
class GzipSink : public Sink {
 public:
  explicit GzipSink(Sink& next, int level = 6);
  ~GzipSink() override;
  void Write(std::string_view bytes) override;
  void Flush() override;
  void Finish();

 private:
  void Deflate(int flush);
  Sink& next_;
  std::unique_ptr<z_stream_s> z_;
  std::string out_;
  bool finished_ = false;
};

}  // namespace feed
