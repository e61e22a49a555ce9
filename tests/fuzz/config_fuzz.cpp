// The INI config parser on arbitrary text: a config or a kConfig error
// naming the file, never a crash or another kind of failure.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "config.h"
#include "error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    feed::ParseConfig(text, "fuzz.ini", "/nonexistent");
  } catch (const feed::FeedError& e) {
    if (e.kind() != feed::ErrorKind::kConfig) std::abort();
    if (std::string(e.what()).find("fuzz.ini") == std::string::npos &&
        std::string(e.what()).find("FEED_DB_PORT") == std::string::npos) {
      std::abort();
    }
  }
  return 0;
}
