// The sink of `feed.fcgi render` on the command line: the response's head
// (up to the blank line) is read, not written; the body of a 200 goes to
// `out`, the one-line message of any other status to `err`.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "output.h"

namespace feed {

class CommandLineSink : public Sink {
 public:
  // Does not own `out` or `err`.
  explicit CommandLineSink(FILE* out, FILE* err = stderr) : out_(out), err_(err) {}
  void Write(std::string_view b) override;
  void Flush() override;
  // The response's "Status: N", once its head is whole; 0 before.
  int status() const { return status_; }

 private:
  FileSink out_, err_;
  Sink* target_ = nullptr;
  std::string head_;
  int status_ = 0;
};

}  // namespace feed
