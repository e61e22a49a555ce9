#include "output.h"

#include <zlib.h>

#include "error.h"

namespace feed {

void FileSink::Write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) {
    throw FeedError(ErrorKind::kClientGone, "write failed");
  }
}

void FileSink::Flush() {
  if (std::fflush(f_) != 0) throw FeedError(ErrorKind::kClientGone, "write failed");
}

GzipSink::GzipSink(Sink& next, int level) : next_(next), z_(new z_stream_s{}) {
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(z_.get(), level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw InternalError("deflateInit2 failed");
  }
  out_.resize(64 * 1024);
}

GzipSink::~GzipSink() { deflateEnd(z_.get()); }

void GzipSink::Deflate(int flush) {
  for (;;) {
    z_->next_out = reinterpret_cast<Bytef*>(out_.data());
    z_->avail_out = static_cast<uInt>(out_.size());
    int rc = deflate(z_.get(), flush);
    if (rc == Z_STREAM_ERROR) throw InternalError("deflate failed");
    size_t have = out_.size() - z_->avail_out;
    if (have) next_.Write(std::string_view(out_.data(), have));
    if (z_->avail_out != 0 && (flush != Z_FINISH || rc == Z_STREAM_END)) break;
  }
}

void GzipSink::Write(std::string_view bytes) {
  z_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z_->avail_in = static_cast<uInt>(bytes.size());
  Deflate(Z_NO_FLUSH);
}

void GzipSink::Flush() {
  z_->avail_in = 0;
  Deflate(Z_SYNC_FLUSH);
  next_.Flush();
}

void GzipSink::Finish() {
  if (finished_) return;
  finished_ = true;
  z_->avail_in = 0;
  Deflate(Z_FINISH);
  next_.Flush();
}

}  // namespace feed
