// Rows held in memory, as a cp1251 connection's are (issue #12): the
// windows-1251 bytes kept as they came, each value converted to UTF-8 the
// first time Get asks for it in a row, and only then.
#include "database.h"

#include <gtest/gtest.h>

#include "text_samples.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xml_text.h"
#include "cp1251_reference.h"

namespace feed {
namespace {

using feed::testing::Cp1251ToUtf8;

using feed::testing::Visible;

using Cells = std::vector<std::optional<std::string>>;

TEST(RowsTest, HeldUtf8RowsAreAsGiven) {
  Rows rows({Cells{"Привет", std::nullopt, ""}});
  EXPECT_FALSE(rows.cp1251());
  ASSERT_TRUE(rows.Next());
  EXPECT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows.Get(0), "Привет");
  EXPECT_TRUE(rows.IsNull(1));
  EXPECT_EQ(rows.Get(1), "");
  EXPECT_FALSE(rows.IsNull(2));
  EXPECT_EQ(rows.Get(2), "");
  EXPECT_EQ(rows.conversions(), 0u);
  EXPECT_FALSE(rows.Next());
}

TEST(RowsTest, Cp1251ValuesConvertWhenFirstAskedFor) {
  Rows rows({Cells{"\xCF\xF0\xE8\xE2\xE5\xF2", "abc", "\x98\xB9\x88", std::nullopt, ""},
             Cells{"\xA8", "x", std::nullopt, "\xC0", ""}},
            SIZE_MAX, /*cp1251=*/true);
  EXPECT_TRUE(rows.cp1251());
  EXPECT_EQ(rows.conversions(), 0u);

  ASSERT_TRUE(rows.Next());
  EXPECT_EQ(rows.size(), 5u);
  // The bytes as they came cost nothing.
  EXPECT_EQ(Visible(rows.GetCp1251(0)), Visible("\xCF\xF0\xE8\xE2\xE5\xF2"));
  EXPECT_EQ(Visible(rows.GetCp1251(2)), Visible("\x98\xB9\x88"));
  EXPECT_EQ(rows.conversions(), 0u);
  // Get converts, once per value.
  const std::string_view first = rows.Get(0);
  EXPECT_EQ(first, "Привет");
  EXPECT_EQ(rows.conversions(), 1u);
  EXPECT_EQ(rows.Get(0), "Привет");
  EXPECT_EQ(rows.conversions(), 1u);
  EXPECT_EQ(rows.Get(2), "\uFFFD№€");
  EXPECT_EQ(rows.conversions(), 2u);
  EXPECT_EQ(rows.Get(1), "abc");
  EXPECT_EQ(rows.conversions(), 3u);
  EXPECT_EQ(rows.Get(2), "\uFFFD№€");
  EXPECT_EQ(rows.Get(1), "abc");
  EXPECT_EQ(rows.conversions(), 3u);
  // An earlier value stays valid while others are converted.
  EXPECT_EQ(first, "Привет");
  EXPECT_EQ(Visible(rows.GetCp1251(0)), Visible("\xCF\xF0\xE8\xE2\xE5\xF2"));
  // NULL and empty as before.
  EXPECT_TRUE(rows.IsNull(3));
  EXPECT_FALSE(rows.IsNull(4));
  EXPECT_EQ(rows.GetCp1251(3), "");
  EXPECT_EQ(rows.GetCp1251(4), "");
  EXPECT_EQ(rows.Get(3), "");
  EXPECT_EQ(rows.Get(4), "");
  EXPECT_TRUE(rows.IsNull(3));
  EXPECT_FALSE(rows.IsNull(4));
  const size_t after_first_row = rows.conversions();
  EXPECT_LE(after_first_row, 5u);
  EXPECT_GE(after_first_row, 3u);

  // The next row's values convert again, each once.
  ASSERT_TRUE(rows.Next());
  EXPECT_EQ(rows.conversions(), after_first_row);
  EXPECT_EQ(Visible(rows.GetCp1251(0)), Visible("\xA8"));
  EXPECT_EQ(rows.conversions(), after_first_row);
  EXPECT_EQ(rows.Get(0), "Ё");
  EXPECT_EQ(rows.conversions(), after_first_row + 1);
  EXPECT_EQ(rows.Get(0), "Ё");
  EXPECT_EQ(rows.Get(1), "x");  // converted in the first row, not in this one
  EXPECT_EQ(rows.conversions(), after_first_row + 2);
  EXPECT_EQ(rows.Get(1), "x");
  EXPECT_EQ(rows.conversions(), after_first_row + 2);
  EXPECT_TRUE(rows.IsNull(2));
  EXPECT_EQ(rows.Get(2), "");  // the first row's "\x98\xB9\x88" is gone
  EXPECT_FALSE(rows.IsNull(3));
  EXPECT_EQ(rows.Get(3), "А");
  EXPECT_FALSE(rows.IsNull(4));
  EXPECT_EQ(rows.Get(4), "");

  EXPECT_FALSE(rows.Next());
}

TEST(RowsTest, Cp1251ValueOfEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  std::vector<Cells> held;
  for (size_t k = 0; k < 40; ++k) held.push_back(Cells{all.substr(k), std::string(k, '\xE0') + all});
  Rows rows(std::move(held), 2, /*cp1251=*/true);
  for (size_t k = 0; k < 40; ++k) {
    ASSERT_TRUE(rows.Next());
    EXPECT_EQ(rows.GetCp1251(0), all.substr(k));
    EXPECT_EQ(rows.Get(0), Cp1251ToUtf8(all.substr(k))) << k;
    EXPECT_EQ(rows.Get(1), Cp1251ToUtf8(std::string(k, '\xE0') + all)) << k;
    EXPECT_EQ(rows.conversions(), 2 * (k + 1));
  }
  EXPECT_FALSE(rows.Next());
}

TEST(RowsTest, Cp1251RowsCountOnlyWhatIsAskedFor) {
  std::vector<Cells> held(100, Cells{"\xC0\xC1\xC2", "\xE0", "1"});
  Rows rows(std::move(held), SIZE_MAX, /*cp1251=*/true);
  size_t n = 0;
  while (rows.Next()) {
    EXPECT_EQ(Visible(rows.GetCp1251(0)), Visible("\xC0\xC1\xC2"));
    if (n % 2 == 0) {
      EXPECT_EQ(rows.Get(2), "1");
    }
    ++n;
  }
  EXPECT_EQ(n, 100u);
  EXPECT_EQ(rows.conversions(), 50u);
}

}  // namespace
}  // namespace feed
