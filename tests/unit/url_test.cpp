#include "url.h"

#include <gtest/gtest.h>

#include "text_samples.h"

#include <string>
#include <string_view>
#include <vector>

namespace feed {
namespace {

using feed::testing::Visible;

using namespace std::string_literals;

std::string Encode(std::string_view in) {
  std::string out;
  AppendUriEncoded(out, in);
  return out;
}

struct EncodeCase {
  std::string in, want;
};

// Each case is checked for AppendUriEncoded and for UriEncodedLength.
void CheckEncodes(const std::vector<EncodeCase>& cases) {
  for (const EncodeCase& c : cases) {
    EXPECT_EQ(Encode(c.in), c.want) << Visible(c.in);
    EXPECT_EQ(UriEncodedLength(c.in), c.want.size()) << Visible(c.in);
  }
}

TEST(UrlEncode, KeepsWhatRfc3986Allows) {
  CheckEncodes({
      {"", ""},
      {"http://doska.example/ad/1.html", "http://doska.example/ad/1.html"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~",
       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"},
      {":/?#[]@", ":/?#[]@"},
      {"!$&'()*+,;=", "!$&'()*+,;="},
      // '&' stays: the XML encoder escapes it once, later.
      {"http://doska.example/search?q=1&page=2#top", "http://doska.example/search?q=1&page=2#top"},
      {"https://u:p@[::1]:8080/a;b=c", "https://u:p@[::1]:8080/a;b=c"},
  });
}

TEST(UrlEncode, PercentEncodesNonAsciiAsUtf8) {
  CheckEncodes({
      // Cyrillic (2 bytes a letter).
      {"http://doska.example/объявление/1.html",
       "http://doska.example/%D0%BE%D0%B1%D1%8A%D1%8F%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5/1.html"},
      {"http://doska.example/Ёж/їє", "http://doska.example/%D0%81%D0%B6/%D1%97%D1%94"},
      // A non-ASCII host is encoded like the rest (no punycode).
      {"http://доска.example/", "http://%D0%B4%D0%BE%D1%81%D0%BA%D0%B0.example/"},
      // Chinese (3 bytes).
      {"http://news.example.cn/新闻/北京.html", "http://news.example.cn/%E6%96%B0%E9%97%BB/%E5%8C%97%E4%BA%AC.html"},
      // Emoji (4 bytes).
      {"http://x.example/😀", "http://x.example/%F0%9F%98%80"},
      {"café", "caf%C3%A9"},
      // U+00A0, the first character past C1, is encoded, not trimmed.
      {"a\u00A0", "a%C2%A0"},
      {"\u00A0a", "%C2%A0a"},
      // U+FFFF and U+10FFFF: valid UTF-8, encoded like any other.
      {"\uFFFF", "%EF%BF%BF"},
      {"\U0010FFFF", "%F4%8F%BF%BF"},
  });
}

TEST(UrlEncode, PercentEncodesExcludedAscii) {
  CheckEncodes({
      {"a b", "a%20b"},
      {"a  b", "a%20%20b"},
      {"a\"b", "a%22b"},
      {"a<b", "a%3Cb"},
      {"a>b", "a%3Eb"},
      {"a\\b", "a%5Cb"},
      {"a^b", "a%5Eb"},
      {"a`b", "a%60b"},
      {"a{b", "a%7Bb"},
      {"a|b", "a%7Cb"},
      {"a}b", "a%7Db"},
      {"http://doska.example/поиск?q=ВАЗ 2107&city=Київ",
       "http://doska.example/%D0%BF%D0%BE%D0%B8%D1%81%D0%BA?q=%D0%92%D0%90%D0%97%202107&city=%D0%9A%D0%B8%D1%97%D0%B2"},
  });
}

TEST(UrlEncode, KeepsEscapesAndEncodesStrayPercent) {
  CheckEncodes({
      {"%41", "%41"},
      {"%e2", "%E2"},
      {"%aF", "%AF"},
      {"%2f%2F", "%2F%2F"},
      {"%D0%BE", "%D0%BE"},
      {"%zz", "%25zz"},
      {"%", "%25"},
      {"a%", "a%25"},
      {"%4", "%254"},
      {"a%4", "a%254"},
      {"%4g", "%254g"},
      {"%g4", "%25g4"},
      {"%%41", "%25%41"},
      {"100%", "100%25"},
      {"%25", "%25"},
      {"50% off", "50%25%20off"},
      {"%\xD0\xB6", "%25%D0%B6"},
      // A dropped character between '%' and its digits was never there.
      {"%4\x01"
       "1",
       "%41"},
      {"%\x7F"
       "41",
       "%41"},
      {"%4\xC2\x80"
       "1",
       "%41"},
      {"%4\xFF"
       "1",
       "%41"},
      {"%\x01", "%25"},
  });
}

TEST(UrlEncode, DropsControlCharacters) {
  CheckEncodes({
      {"a\x01"
       "b",
       "ab"},
      {"a\x1F"
       "b",
       "ab"},
      {"a\0b"s, "ab"},
      {"a\tb", "ab"},
      {"a\nb", "ab"},
      {"a\rb", "ab"},
      {"a\x7F"
       "b",
       "ab"},
      // C1: U+0080, U+0085 (NEL), U+009F.
      {"a\xC2\x80"
       "b",
       "ab"},
      {"a\xC2\x85"
       "b",
       "ab"},
      {"a\xC2\x9F"
       "b",
       "ab"},
      {"\x01\x02\x03", ""},
  });
}

TEST(UrlEncode, DropsInvalidUtf8) {
  CheckEncodes({
      // Stray continuation bytes.
      {"a\x80"
       "b",
       "ab"},
      {"a\xBF\xBF"
       "b",
       "ab"},
      // Overlong forms of '/' and of U+0000.
      {"a\xC0\xAF"
       "b",
       "ab"},
      {"a\xE0\x80\xAF"
       "b",
       "ab"},
      {"a\xF0\x80\x80\xAF"
       "b",
       "ab"},
      {"a\xC0\x80"
       "b",
       "ab"},
      // Surrogates, alone and as a CESU-8 pair.
      {"a\xED\xA0\x80"
       "b",
       "ab"},
      {"a\xED\xA0\xBD\xED\xB8\x80"
       "b",
       "ab"},
      // Past U+10FFFF, bytes never in UTF-8.
      {"a\xF4\x90\x80\x80"
       "b",
       "ab"},
      {"a\xF5\xFE\xFF"
       "b",
       "ab"},
      // Truncated sequences, at the end and before ASCII.
      {"a\xD0", "a"},
      {"a\xE2\x82", "a"},
      {"a\xF0\x9F\x98"
       "b",
       "ab"},
      // A valid character right after an invalid byte survives.
      {"\x80\xD0\xB6", "%D0%B6"},
      {"\xD0\xD0\xB6", "%D0%B6"},
  });
}

TEST(UrlEncode, TrimsWhitespaceFirst) {
  CheckEncodes({
      {"  http://doska.example/ \r\n", "http://doska.example/"},
      {"\t\n\r http://doska.example/объявление\t",
       "http://doska.example/%D0%BE%D0%B1%D1%8A%D1%8F%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5"},
      {" \t\r\n", ""},
      {" a b ", "a%20b"},
      // Trimming comes before dropping: the space behind a control stays.
      {"\x01 a", "%20a"},
      {"a \x01", "a%20"},
  });
}

TEST(UrlEncode, AppendsToWhatIsThere) {
  std::string out = "<loc>";
  AppendUriEncoded(out, "http://x.example/ж");
  AppendUriEncoded(out, " http://y.example/ ");
  EXPECT_EQ(out, "<loc>http://x.example/%D0%B6http://y.example/");
}

// The scan for kept bytes goes four at a time: put one character of each
// kind at every offset of a long run (of letters that are not hex digits,
// never at an end, where a space would be trimmed).
TEST(UrlEncode, EveryOffsetOfTheFastScan) {
  const std::vector<EncodeCase> specials = {
      {"ж", "%D0%B6"}, {" ", "%20"}, {"%", "%25"},     {"%41", "%41"},
      {"\x01", ""},    {"\x80", ""}, {"\xC2\x85", ""}, {"😀", "%F0%9F%98%80"},
  };
  for (const EncodeCase& sp : specials) {
    for (size_t k = 0; k <= 20; ++k) {
      const std::string in = std::string(k + 1, 'x') + sp.in + std::string(21 - k, 'y');
      const std::string want = std::string(k + 1, 'x') + sp.want + std::string(21 - k, 'y');
      EXPECT_EQ(Encode(in), want) << Visible(in);
      EXPECT_EQ(UriEncodedLength(in), want.size()) << Visible(in);
    }
  }
}

TEST(UrlEncode, EncodingTwiceChangesNothing) {
  for (const char* in : {"http://doska.example/объявление/1.html?q=a b&x=%zz%e2", "%", "%%", "a\x01%41"}) {
    const std::string once = Encode(in);
    EXPECT_EQ(Encode(once), once) << in;
  }
}

struct UrlCase {
  const char* in;
  bool absolute;
};

TEST(UrlIsAbsoluteHttp, SchemeAndHost) {
  const UrlCase cases[] = {
      {"http://doska.example/", true},
      {"http://doska.example", true},
      {"https://doska.example/ad/1.html", true},
      {"HTTPS://DOSKA.EXAMPLE/AD", true},
      {"HtTp://x", true},
      {"http://x?q=1", true},
      {"http://x#top", true},
      {"http://doska.example/объявление/1.html", true},
      {"http://доска.example/", true},
      {"http://a b.example/", true},  // the host is a%20b.example, a valid reg-name
      {"  http://doska.example/  ", true},
      {"ht\x01tp://x", true},  // judged once encoded: the control is dropped
      {"http://user:password@doska.example/", true},
      {"http://:password@doska.example/", true},
      {"http://doska.example:8080/", true},
      {"http://doska.example:/", true},  // RFC 3986: port = *DIGIT
      {"http://[::1]/", true},
      {"http://[::1]:8080/", true},
      {"http://127.0.0.1/", true},

      {"", false},
      {"   ", false},
      {"ftp://doska.example/", false},
      {"mailto:ads@doska.example", false},
      {"file:///etc/passwd", false},
      {"javascript:alert(1)", false},
      {"/ad/1.html", false},
      {"ad/1.html", false},
      {"//doska.example/ad/1.html", false},
      {"doska.example/ad/1.html", false},
      {"http://", false},
      {"https://", false},
      {"http:///x", false},
      {"http://?q", false},
      {"http://#f", false},
      {"http:/x", false},
      {"http:x", false},
      {"http//x", false},
      {"httpx://x", false},
      {"http s://x", false},  // the space becomes %20 in the scheme
      {"%68ttp://x", false},
      {"http://:8080/", false},
      {"http://user@/x", false},
      {"http://doska.example:80a/", false},
      {"http://doska.example:8:8/", false},
      {"http://[::1/", false},
      {"http://[]/", false},
      {"http://[::1]x/", false},
      {"http://a[b]/", false},
      {"http://a]/", false},
      {"http://u[1]@doska.example/", false},
      {"http://a@b@doska.example/", false},
  };
  for (const UrlCase& c : cases) EXPECT_EQ(IsAbsoluteHttpUrl(c.in), c.absolute) << Visible(c.in);
}

// "http://doska.example/" is 21 characters and each "ж" (two bytes) becomes
// six once encoded: 337 of them and "a.htm" make 21 + 2022 + 5 = 2048
// characters from a 700-byte field, "a.html" one more.
TEST(UrlIsAbsoluteHttp, LengthCountsEncodedCharacters) {
  std::string letters, encoded_letters;
  for (int i = 0; i < 337; ++i) {
    letters += "ж";
    encoded_letters += "%D0%B6";
  }
  const std::string at_limit = "http://doska.example/" + letters + "a.htm";
  const std::string past_limit = "http://doska.example/" + letters + "a.html";
  ASSERT_EQ(at_limit.size(), 700u);

  EXPECT_EQ(Encode(at_limit), "http://doska.example/" + encoded_letters + "a.htm");
  EXPECT_EQ(UriEncodedLength(at_limit), 2048u);
  EXPECT_EQ(UriEncodedLength(past_limit), 2049u);

  EXPECT_TRUE(IsAbsoluteHttpUrl(at_limit));
  EXPECT_FALSE(IsAbsoluteHttpUrl(past_limit));
  EXPECT_TRUE(IsAbsoluteHttpUrl(past_limit, 2049));
  EXPECT_FALSE(IsAbsoluteHttpUrl(at_limit, 2047));
  // Trimmed whitespace and dropped bytes do not count.
  EXPECT_TRUE(IsAbsoluteHttpUrl("  " + at_limit + "\x01\x80\r\n"));
  // A stray '%' counts as the three characters of %25.
  EXPECT_FALSE(IsAbsoluteHttpUrl("http://doska.example/" + letters + "a.h%"));
  EXPECT_TRUE(IsAbsoluteHttpUrl("http://doska.example/" + letters + "a%"));
  // The other limit a caller may pass: Baidu's 256.
  EXPECT_TRUE(IsAbsoluteHttpUrl("http://doska.example/" + std::string(235, 'a'), 256));
  EXPECT_FALSE(IsAbsoluteHttpUrl("http://doska.example/" + std::string(236, 'a'), 256));
}

TEST(QueryComponentEncoded, KeepsOnlyUnreservedBytes) {
  EXPECT_EQ(QueryComponentEncoded("2026-11-01 00:00:00"), "2026-11-01%2000%3A00%3A00");
  EXPECT_EQ(QueryComponentEncoded("a&b=c+d%"), "a%26b%3Dc%2Bd%25");
  EXPECT_EQ(QueryComponentEncoded("Az09-_.~"), "Az09-_.~");
  EXPECT_EQ(QueryComponentEncoded("\xd0\x96"), "%D0%96");  // UTF-8 bytes as they are
  EXPECT_EQ(QueryComponentEncoded(""), "");
}

}  // namespace
}  // namespace feed
