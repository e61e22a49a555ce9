// A gzip member read back by zlib itself (inflate with gzip framing), not
// by the program's own lib/output Gunzip: the tests' reading of what a
// robot gets compressed, so that a fault the program's reader shares with
// its writer cannot pass unseen.
#pragma once

#include <zlib.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace feed::testing {

// The bytes of the gzip stream `gz` (one or more members); throws
// std::runtime_error when it is not whole, valid gzip.
inline std::string ZlibGunzip(std::string_view gz) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2");
  std::string out;
  char buf[65536];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  int rc = Z_OK;
  while (true) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) break;
      inflateReset(&z);  // a next member
      continue;
    }
    if (rc != Z_OK) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("not whole, valid gzip");
  return out;
}

}  // namespace feed::testing
