#include "fcgi_sink.h"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>

#include "error.h"

namespace feed {
namespace {

constexpr size_t kDirect = 16 * 1024;
constexpr size_t kMaxRecord = 65535;

[[noreturn]] void Gone(const char* what) { throw FeedError(ErrorKind::kClientGone, what); }

// Writes both pieces of `v`, across short writes.
void WriteAll(int fd, iovec* v) {
  int count = 2;
  while (count > 0) {
    ssize_t w = writev(fd, v, count);
    if (w < 0) {
      if (errno == EINTR) continue;
      Gone("FastCGI write failed");
    }
    // Skip what was written, across the two pieces.
    while (count > 0 && static_cast<size_t>(w) >= v->iov_len) {
      w -= static_cast<ssize_t>(v->iov_len);
      ++v;
      --count;
    }
    if (count > 0) {
      v->iov_base = static_cast<char*>(v->iov_base) + w;
      v->iov_len -= static_cast<size_t>(w);
    }
  }
}

}  // namespace

void WriteStdoutRecords(int fd, int request_id, std::string_view b) {
  while (!b.empty()) {
    const size_t n = std::min(b.size(), kMaxRecord);
    // FastCGI record header: version 1, FCGI_STDOUT (6), request id,
    // content length, no padding.
    unsigned char h[8] = {1,
                          6,
                          static_cast<unsigned char>(request_id >> 8),
                          static_cast<unsigned char>(request_id & 0xff),
                          static_cast<unsigned char>(n >> 8),
                          static_cast<unsigned char>(n & 0xff),
                          0,
                          0};
    iovec v[2] = {{h, sizeof h}, {const_cast<char*>(b.data()), n}};
    WriteAll(fd, v);
    b.remove_prefix(n);
  }
}

void FcgiSink::Write(std::string_view b) {
  if (b.size() < kDirect) {
    if (!b.empty() && FCGX_PutStr(b.data(), static_cast<int>(b.size()), r_->out) < 0) Gone("FastCGI write failed");
    return;
  }
  Flush();
  WriteStdoutRecords(r_->ipcFd, r_->requestId, b);
}

void FcgiSink::Flush() {
  if (FCGX_FFlush(r_->out) < 0) Gone("FastCGI flush failed");
}

}  // namespace feed
