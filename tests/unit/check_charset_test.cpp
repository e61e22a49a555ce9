// check's rule for result columns and connections: which connection
// character sets carry every character a column's can hold (MariaDB's
// names; utf8 is utf8mb3, the Basic Multilingual Plane only).
#include <gtest/gtest.h>

#include "check.h"

namespace feed {
namespace {

TEST(CheckCharset, AConnectionHoldsNarrowerColumnsAndRefusesWiderOnes) {
  struct Case {
    const char* connection;
    const char* column;
    bool holds;
  } cases[] = {
      // utf8mb4 carries everything.
      {"utf8mb4", "utf8mb4", true},
      {"utf8mb4", "utf8", true},
      {"utf8mb4", "cp1251", true},
      {"utf8mb4", "latin1", true},
      {"utf8mb4", "koi8r", true},
      {"UTF8MB4", "utf16", true},
      // utf8 (utf8mb3) lacks 4-byte characters: emoji, rare CJK.
      {"utf8", "utf8mb4", false},
      {"utf8", "utf16", false},
      {"utf8", "utf8", true},
      {"utf8", "utf8mb3", true},
      {"utf8mb3", "utf8", true},
      {"utf8", "cp1251", true},
      {"utf8", "latin1", true},
      // A single-byte set holds itself alone.
      {"cp1251", "cp1251", true},
      {"cp1251", "utf8mb4", false},
      {"cp1251", "utf8", false},
      {"cp1251", "latin1", false},
      {"cp1251", "koi8r", false},
      // Numbers, dates and BLOBs (binary), and ASCII, fit any connection.
      {"cp1251", "binary", true},
      {"cp1251", "ascii", true},
      {"utf8", "binary", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ConnectionHolds(c.connection, c.column), c.holds) << c.connection << " <- " << c.column;
  }
}

}  // namespace
}  // namespace feed
