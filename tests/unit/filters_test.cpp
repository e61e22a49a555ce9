#include "filters.h"

#include <gtest/gtest.h>

#include "datetime.h"
#include "time_zone.h"

namespace feed {
namespace {

std::string Apply(const char* filter, std::string_view in) {
  FilterFn f = FindFilter(filter);
  EXPECT_NE(f, nullptr) << filter;
  std::string out;
  if (f) f(in, out, *TimeZone::Load("Europe/Kiev"));
  return out;
}

TEST(Filters, EachFilterOnTypicalAndAwkwardValues) {
  struct Case {
    const char* filter;
    std::string in, out;
  } cases[] = {
      {"plain", " <b>Продам</b> &quot;ВАЗ&quot;<br>тел. ", "Продам \"ВАЗ\"\nтел."},
      {"trim", "\t a b \r\n", "a b"},
      {"flag", "+380501234567", "1"},
      {"flag", "", "0"},
      {"flag", " \t", "0"},
      {"flag", "0", "0"},
      {"flag", "1", "1"},
      {"flag", "photo.jpg", "1"},
      {"date", "2026-10-01 08:05:09", "2026-10-01"},
      {"date", "2026-10-01", "2026-10-01"},
      {"date", "not a date", ""},
      {"date", "", ""},
      {"datetime", "2026-10-01 08:05:09", "2026-10-01 08:05:09"},
      {"datetime", "2026-10-01", "2026-10-01 00:00:00"},
      {"dmy", "2026-03-07", "07.03.2026"},
      {"dmy", "2026-13-07", ""},
      {"rfc822", "2026-07-01 12:00:00", "Wed, 01 Jul 2026 12:00:00 +0300"},
      {"rfc822", "2026-11-01 12:00:00", "Sun, 01 Nov 2026 12:00:00 +0200"},
      {"rfc3339", "2026-11-01 12:00:00", "2026-11-01T12:00:00+02:00"},
      {"rfc3339utc", "2026-11-01 12:00:00", "2026-11-01T10:00:00Z"},
      // Instants the engine computed ("@SECONDS") skip the wall time: the
      // second 03:30 of 25 Oct 2026 in Kiev (summer time ended at 04:00) is
      // 01:30Z, not the first one's 00:30Z.
      {"rfc3339utc", "@1793527200", "2026-11-01T10:00:00Z"},
      {"rfc3339utc", "@1792891800", "2026-10-25T01:30:00Z"},
      {"rfc3339utc", "2026-10-25 03:30:00", "2026-10-25T00:30:00Z"},
      {"rfc3339", "@1792891800", "2026-10-25T03:30:00+02:00"},
      {"rfc822", "@1793527200", "Sun, 01 Nov 2026 12:00:00 +0200"},
      {"date", "@1793527200", "2026-11-01"},
      {"datetime", "@1793527200", "2026-11-01 12:00:00"},
      {"rfc3339utc", "@", ""},
      {"rfc3339utc", "@-5", ""},
      {"rfc3339utc", "@12a", ""},
      {"rfc3339utc", "@99999999999999", ""},
      {"noscheme", "http://doska.example/ad/1.html", "doska.example/ad/1.html"},
      {"noscheme", "https://doska.example/", "doska.example/"},
      {"noscheme", "doska.example/ad/1.html", "doska.example/ad/1.html"},
  };
  for (const Case& c : cases) EXPECT_EQ(Apply(c.filter, c.in), c.out) << c.filter << "(" << c.in << ")";
}

TEST(Filters, UnknownNamesAreNotFilters) {
  EXPECT_EQ(FindFilter("nosuch"), nullptr);
  EXPECT_EQ(FindFilter(""), nullptr);
  EXPECT_NE(FilterNames().find("plain, trim, flag"), std::string::npos);
}

}  // namespace
}  // namespace feed
