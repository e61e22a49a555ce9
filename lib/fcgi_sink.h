// The sink of one FastCGI request (libfcgi's FCGX_Request). libfcgi cuts
// what it is given into 8 KB FCGI_STDOUT records, one write(2) each; a feed
// of hundreds of MB goes out in large pieces, so those are written here as
// records of up to 64 KB (the protocol's limit) straight to the connection,
// after flushing whatever libfcgi holds so that the order stays right.
// libfcgi still ends the stream and the request in FCGX_Finish_r.
#pragma once

#include <fcgiapp.h>

#include <string_view>

#include "output.h"

namespace feed {

// Writes `body` to `fd` as FCGI_STDOUT records of request `request_id`,
// each at most 65535 bytes with no padding, in order; EINTR and short
// writes are retried. Throws FeedError(kClientGone) when a write fails.
void WriteStdoutRecords(int fd, int request_id, std::string_view body);

class FcgiSink : public Sink {
 public:
  // REQUIRES: `r` accepted (FCGX_Accept_r) and outliving the sink.
  explicit FcgiSink(FCGX_Request* r) : r_(r) {}
  // Pieces under 16 KB go through libfcgi's buffer; larger ones as records
  // of their own. Throws FeedError(kClientGone) when the connection is gone.
  void Write(std::string_view b) override;
  void Flush() override;

 private:
  FCGX_Request* r_;
};

}  // namespace feed
