#include "filters.h"

#include <gtest/gtest.h>

#include "text_samples.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datetime.h"
#include "time_zone.h"
#include "xml_text.h"
#include "cp1251_reference.h"

namespace feed {
namespace {

using feed::testing::Cp1251ToUtf8;
using feed::testing::Utf8ToCp1251;

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
      // Only a scheme (a letter, then letters, digits, + - .) is taken off.
      {"noscheme", "svn+ssh://host/x", "host/x"},
      {"noscheme", "1http://host/x", "1http://host/x"},
      {"noscheme", "д://host/x", "д://host/x"},
      {"noscheme", "a b://host/x", "a b://host/x"},
  };
  for (const Case& c : cases) EXPECT_EQ(Apply(c.filter, c.in), c.out) << c.filter << "(" << c.in << ")";
}

// Baidu's document sitemap (seed 002 and the issue's decisions): sizes of
// at least three characters in 1024-based units, its file types, its dates.
TEST(Filters, BaiduSizesTypesAndDates) {
  struct Case {
    const char* filter;
    std::string in, out;
  } cases[] = {
      {"filesize", "0", "0.00KB"},
      {"filesize", "1", "0.01KB"},
      {"filesize", "9", "0.01KB"},
      {"filesize", "10", "10B"},
      {"filesize", "999", "999B"},
      {"filesize", "1023", "1023B"},
      {"filesize", "1024", "1.0KB"},
      {"filesize", "1536", "1.5KB"},
      {"filesize", "10188", "9.9KB"},       // 9.949 KB
      {"filesize", "10189", "10KB"},        // 9.950 KB rounds to 10.0: whole
      {"filesize", "114688", "112KB"},      // the seed's 112KB
      {"filesize", "1048063", "1023KB"},    // 1023.499 KB
      {"filesize", "1048064", "1.0MB"},     // 1023.5 KB rounds to 1024 KB: the next unit
      {"filesize", "3565158", "3.4MB"},     // 3.39999 MB
      {"filesize", "209715200", "200MB"},
      {"filesize", "1073741824", "1.0GB"},
      {"filesize", "5000000000000", "4657GB"},
      {"filesize", " 2048 ", "2.0KB"},
      {"filesize", "", ""},
      {"filesize", "-5", ""},
      {"filesize", "12.5", ""},
      {"filesize", "999999999999999999999", ""},
      {"baidu_filetype", "pdf", "PDF"},
      {"baidu_filetype", "PPT", "PPT"},
      {"baidu_filetype", "pptx", "PPTX"},
      {"baidu_filetype", "doc", "DOC"},
      {"baidu_filetype", " .Docx ", "DOCX"},
      {"baidu_filetype", "xls", "XLS"},
      {"baidu_filetype", "xlsx", "XLSX"},
      {"baidu_filetype", "txt", "TXT"},
      {"baidu_filetype", "rtf", "RTF"},
      {"baidu_filetype", "exe", "EXE"},
      {"baidu_filetype", "zip", "ZIP"},
      {"baidu_filetype", "rar", "RAR"},
      {"baidu_filetype", "jpg", "图片"},
      {"baidu_filetype", "PNG", "图片"},
      {"baidu_filetype", "html", "HTML/CHM"},
      {"baidu_filetype", "chm", "HTML/CHM"},
      {"baidu_filetype", "7z", "压缩文件"},
      {"baidu_filetype", "tar", "压缩文件"},
      {"baidu_filetype", "swf", "Flash"},
      {"baidu_filetype", "odt", "其他"},
      {"baidu_filetype", "", "其他"},
      {"baidu_filetype", "pdf.exe", "其他"},
      {"isolocal", "2026-11-01 08:05:09", "2026-11-01T08:05:09"},
      {"isolocal", "2026-11-01", "2026-11-01T00:00:00"},
      {"isolocal", "bad", ""},
      {"ymdhm", "2013-07-09 19:48:59", "2013-7-9 19:48"},
      {"ymdhm", "2026-11-30 09:05:00", "2026-11-30 09:05"},
      {"ymdhm", "", ""},
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

// The filters' windows-1251 ways (issue #12) against the UTF-8 filters: the
// bytes read as UTF-8 (FromCp1251 one byte at a time), the UTF-8 filter,
// its output written back in windows-1251 (ToCp1251, U+FFFD as 0x98, the
// byte it came from); false with nothing appended where the code page
// lacks a character of it.
namespace feed {
namespace {

using namespace std::string_literals;
using feed::testing::Visible;

const char* const kCp1251Filters[] = {"plain",   "trim",       "flag",     "date",     "datetime", "dmy",     "rfc822",
                                      "rfc3339", "rfc3339utc", "noscheme", "isolocal", "ymdhm",    "filesize"};

const TimeZone& Kiev() {
  static const TimeZone zone = *TimeZone::Load("Europe/Kiev");
  return zone;
}

// The windows-1251 way of `name` on `in`, after a prefix that must stay,
// against the UTF-8 way.
void ExpectCp1251WayMatches(const char* name, const std::string& in) {
  Cp1251FilterFn f = FindCp1251Filter(name);
  ASSERT_NE(f, nullptr) << name;
  const std::string prefix = "pre\xC6";
  std::string out = prefix;
  const bool ok = f(in, out, Kiev());
  std::string utf8;
  FindFilter(name)(Cp1251ToUtf8(in), utf8, Kiev());
  const std::optional<std::string> want = Utf8ToCp1251(utf8);
  const std::string where = std::string(name) + "(\"" + Visible(in) + "\")";
  if (!want) {
    EXPECT_FALSE(ok) << where << " gave \"" << Visible(out) << "\" but the UTF-8 way gives \"" << Visible(utf8) << "\"";
    EXPECT_EQ(Visible(out), Visible(prefix)) << where << " returned false having appended";
    return;
  }
  ASSERT_TRUE(ok) << where << " returned false, want \"" << Visible(*want) << "\"";
  EXPECT_EQ(Visible(out), Visible(prefix + *want)) << where;
}

TEST(Cp1251Filters, OnlyUrlAndBaiduFileTypeHaveNone) {
  EXPECT_EQ(FindCp1251Filter("url"), nullptr);
  EXPECT_EQ(FindCp1251Filter("baidu_filetype"), nullptr);
  EXPECT_EQ(FindCp1251Filter("nosuch"), nullptr);
  EXPECT_EQ(FindCp1251Filter(""), nullptr);
  EXPECT_EQ(FindCp1251Filter("Plain"), nullptr);
  for (const char* name : kCp1251Filters) EXPECT_NE(FindCp1251Filter(name), nullptr) << name;
  // Every filter there is, by FilterNames.
  const std::string names = FilterNames();
  for (size_t start = 0; start < names.size();) {
    size_t end = names.find(", ", start);
    if (end == std::string::npos) end = names.size();
    const std::string name = names.substr(start, end - start);
    const bool none = name == "url" || name == "baidu_filetype";
    EXPECT_EQ(FindCp1251Filter(name) == nullptr, none) << name;
    start = end + 2;
  }
}

TEST(Cp1251Filters, EachFilterMatchesTheUtf8Way) {
  const std::vector<std::string> inputs = {
      "",
      " ",
      "   \t ",
      "0",
      " 0 ",
      "1",
      "\xCF\xF0\xEE\xE4\xE0\xEC \xE3\xE0\xF0\xE0\xE6",  // Продам гараж
      " <b>\xCF\xF0\xEE\xE4\xE0\xEC</b> &quot;\xC2\xC0\xC7&quot;<br>\xF2\xE5\xEB. &#8470;5 ",
      "&laquo;\xC0\xE1\xE2&raquo; &mdash; &euro;",
      "\xA8\xB8\xB2\xB3\xAA\xBA\xAF\xBF\xA5\xB4 \x80\x81\x85\x88\x96\x97\x99\xB9",
      "\xA0\xCF\xF0\xE8\xE2\xE5\xF2\xA0",
      "2026-11-30 12:34:56",
      " 2026-11-30 12:34:56 ",
      "2026-11-30",
      "2026-10-25 03:30:00",
      "2026-13-07",
      "2026-11-30 12:34:56\xC0",
      "\xA0"
      "2026-11-30",
      "@1700000000",
      " @1700000000 ",
      "@",
      "@-5",
      "@12\xC0",
      "http://x/\xFB",
      "https://\xF1\xE0\xE9\xF2.\xF0\xF4/\xEE\xE1?\xE0=1",
      "\xF1\xE0\xE9\xF2://x",
      "x/\xFB",
      "1024",
      " 2048 ",
      "5000000000000",
      "12.5",
      "-5",
      "\x98",
      "a\x98z",
      " \x98 ",
      "\x01\x02\x1F",
      "a\x01z",
      "a\x00z"s,
      "\t\r\n",
      "a\r\nb",
      "\x7F",
      "&#128512;",
      "\xC0&#x1F600;\xC0",
      "&alpha;",
      "caf&eacute;",
      "<script>&#128512;</script>\xC0",
      "&amp;#128512;",
  };
  for (const char* name : kCp1251Filters) {
    for (const std::string& in : inputs) ExpectCp1251WayMatches(name, in);
    for (int b = 0; b < 256; ++b) {
      const std::string c(1, static_cast<char>(b));
      ExpectCp1251WayMatches(name, c);
      ExpectCp1251WayMatches(name, " " + c + "\xC0 ");
    }
  }
}

TEST(Cp1251Filters, ByHand) {
  const TimeZone& zone = Kiev();
  std::string out;
  EXPECT_TRUE(
      FindCp1251Filter("plain")(" <b>\xCF\xF0\xEE\xE4\xE0\xEC</b> &laquo;\xC2\xC0\xC7&raquo;<br>&#8470;5 ", out, zone));
  EXPECT_EQ(Visible(out), Visible("\xCF\xF0\xEE\xE4\xE0\xEC \xAB\xC2\xC0\xC7\xBB\n\xB9"
                                  "5"));
  out = "x";
  EXPECT_FALSE(FindCp1251Filter("plain")("&#128512;", out, zone));
  EXPECT_EQ(out, "x");
  out.clear();
  EXPECT_FALSE(FindCp1251Filter("plain")("\xC0 &alpha; \xC0", out, zone));
  EXPECT_EQ(out, "");
  out.clear();
  EXPECT_TRUE(FindCp1251Filter("trim")(" \t\xCF\x98\xA0 \r\n", out, zone));
  EXPECT_EQ(Visible(out), Visible("\xCF\x98\xA0"));
  out.clear();
  EXPECT_TRUE(FindCp1251Filter("flag")("\xC0", out, zone));
  EXPECT_TRUE(FindCp1251Filter("flag")(" 0 ", out, zone));
  EXPECT_EQ(out, "10");
  out.clear();
  EXPECT_TRUE(FindCp1251Filter("rfc3339utc")("2026-11-01 12:00:00", out, zone));
  EXPECT_EQ(out, "2026-11-01T10:00:00Z");
  out.clear();
  EXPECT_TRUE(FindCp1251Filter("date")("\xC0", out, zone));
  EXPECT_EQ(out, "");
  out.clear();
  EXPECT_TRUE(FindCp1251Filter("noscheme")("http://\xF1\xE0\xE9\xF2.\xF0\xF4/", out, zone));
  EXPECT_EQ(Visible(out), Visible("\xF1\xE0\xE9\xF2.\xF0\xF4/"));
}

}  // namespace
}  // namespace feed
