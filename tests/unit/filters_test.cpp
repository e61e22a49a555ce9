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
