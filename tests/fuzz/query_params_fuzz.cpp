// The query string parser on arbitrary bytes: it accepts or answers 400,
// never anything else; accepted names and values are valid UTF-8 without
// control characters, unique, at most 16.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "error.h"
#include "http.h"
#include "xml_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string qs(reinterpret_cast<const char*>(data), size);
  try {
    feed::QueryParams q = feed::QueryParams::Parse(qs);
    if (q.all().size() > 16) std::abort();
    std::set<std::string> names;
    for (const auto& [n, v] : q.all()) {
      if (n.empty() || !names.insert(n).second) std::abort();
      for (const std::string* s : {&n, &v}) {
        if (feed::CleanUtf8(*s) != *s) std::abort();
        for (unsigned char c : *s) {
          if (c < 0x20 || c == 0x7f) std::abort();
        }
      }
    }
    // Whatever gzip negotiation or validators make of the same bytes, they
    // must not crash either.
    feed::AcceptsGzip(qs);
    feed::NoneMatchHits(qs, "\"abc\"");
  } catch (const feed::FeedError& e) {
    if (e.kind() != feed::ErrorKind::kBadRequest) std::abort();
    if (std::string(e.what()).find('\n') != std::string::npos) std::abort();
  }
  return 0;
}
