// Addresses and CIDR ranges ([status] allow): what parses, and what lies in
// a range, from a table of cases.
#include "address_range.h"

#include <gtest/gtest.h>

namespace feed {
namespace {

TEST(AddressRange, ParsesAndContains) {
  struct Case {
    const char* range;
    const char* address;
    bool in;
  } cases[] = {
      {"127.0.0.1", "127.0.0.1", true},
      {"127.0.0.1", "127.0.0.2", false},
      {"127.0.0.1", "::ffff:127.0.0.1", true},  // IPv4 seen through an IPv6 socket
      {"10.0.0.0/8", "10.255.3.4", true},
      {"10.0.0.0/8", "11.0.0.1", false},
      {"192.168.1.0/25", "192.168.1.127", true},
      {"192.168.1.0/25", "192.168.1.128", false},
      {"0.0.0.0/0", "203.0.113.9", true},
      {"0.0.0.0/0", "2001:db8::1", false},  // all of IPv4, not IPv6
      {"::1", "::1", true},
      {"::1", "0:0:0:0:0:0:0:1", true},
      {"::1", "127.0.0.1", false},
      {"2001:db8::/32", "2001:db8:ffff::7", true},
      {"2001:db8::/32", "2001:db9::7", false},
      {"127.0.0.1", "", false},
      {"127.0.0.1", "127.0.0.1/32", false},  // a client's address has no prefix
      {"127.0.0.1", "localhost", false},
  };
  for (const Case& c : cases) {
    auto r = AddressRange::Parse(c.range);
    ASSERT_TRUE(r) << c.range;
    EXPECT_EQ(r->Contains(c.address), c.in) << c.range << " contains " << c.address;
  }
  for (const char* bad : {"", "/8", "10.0.0.0/", "10.0.0.0/33", "::1/129", "10.0.0.0/8/8", "10.0.0.0/-1", "10.0.0.0/ 8",
                          "1.2.3", "example.com", "10.0.0.0/0008"}) {
    EXPECT_FALSE(AddressRange::Parse(bad)) << bad;
  }
}

}  // namespace
}  // namespace feed
