#include "gtid_position.h"

#include <gtest/gtest.h>

#include <string>

namespace feed {
namespace {

// What MariaDB writes (@@gtid_binlog_pos, @@gtid_slave_pos), and the one
// spelling each position has in a token.
TEST(GtidPosition, ReadsTheServersForm) {
  struct Case {
    std::string text, server_form, token_form;
  } cases[] = {
      {"0-1-4", "0-1-4", "0.1.4"},
      {"0-1-18446744073709551615", "0-1-18446744073709551615", "0.1.18446744073709551615"},
      {"4294967295-4294967295-0", "4294967295-4294967295-0", "4294967295.4294967295.0"},
      {"2-3-7,0-1-100", "0-1-100,2-3-7", "0.1.100_2.3.7"},  // domains ascending
      {" 0-1-5 , 1-2-6 ", "0-1-5,1-2-6", "0.1.5_1.2.6"},
      {"0-1-007", "0-1-7", "0.1.7"},  // the server's form is read leniently
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    auto p = GtidPosition::Parse(c.text);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->ToString(), c.server_form);
    EXPECT_EQ(p->TokenForm(), c.token_form);
    auto back = GtidPosition::ParseTokenForm(c.token_form);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, *p);
  }
  auto empty = GtidPosition::Parse("");
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(empty->ToString(), "");
}

TEST(GtidPosition, RefusesWhatIsNotAPosition) {
  for (const char* text :
       {"0-1", "0-1-", "-1-2", "0-1-2,", ",0-1-2", "0-1-2,,1-2-3", "0--1-2", "a-1-2", "0-1-2x", "+0-1-2", "0-1--2",
        "4294967296-1-2", "0-4294967296-2", "0-1-18446744073709551616", "0-1-2,0-3-4", "0.1.2", "0-1-2;1-2-3",
        "0-1-1,1-1-1,2-1-1,3-1-1,4-1-1,5-1-1,6-1-1,7-1-1,8-1-1,9-1-1,10-1-1,11-1-1,12-1-1,13-1-1,"
        "14-1-1,15-1-1,16-1-1"}) {
    EXPECT_FALSE(GtidPosition::Parse(text).has_value()) << text;
  }
}

TEST(GtidPosition, TokenFormHasOneSpelling) {
  for (const char* text : {"", "0.1.07", "00.1.7", "0.01.7", "1.1.1_0.1.1", "0.1.1_0.2.2", " 0.1.2", "0.1.2 ", "0-1-2",
                           "0.1.2,1.2.3", "0.1.2_", "_0.1.2", "0.1", "0.1.2.3"}) {
    EXPECT_FALSE(GtidPosition::ParseTokenForm(text).has_value()) << text;
  }
  EXPECT_TRUE(GtidPosition::ParseTokenForm("0.0.0").has_value());
  EXPECT_TRUE(GtidPosition::ParseTokenForm("0.1.2_1.2.3").has_value());
}

}  // namespace
// A position kept beside its moment is read back only for that moment: a
// row an older version rewrote (another moment) reads as unknown (empty).
TEST(StampedPosition, IsReadBackOnlyForItsOwnMoment) {
  const GtidPosition p = *GtidPosition::Parse("0-1-100,1-2-5");
  const std::string stamped = StampPosition(1764600000, p);
  EXPECT_EQ(stamped, "1764600000 0-1-100,1-2-5");
  EXPECT_EQ(StampedPosition(stamped, 1764600000), p);
  EXPECT_TRUE(StampedPosition(stamped, 1764600001).empty());
  EXPECT_TRUE(StampedPosition(stamped, 176460000).empty());  // a prefix of the moment is not it
  EXPECT_TRUE(StampedPosition("", 1764600000).empty());
  EXPECT_TRUE(StampedPosition("1764600000 junk", 1764600000).empty());
  EXPECT_TRUE(StampedPosition(StampPosition(0, GtidPosition{}), 0).empty());
  EXPECT_EQ(StampedPosition(StampPosition(0, p), 0), p);
}

}  // namespace feed
