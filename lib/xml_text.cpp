#include "xml_text.h"

#include <array>
#include <charconv>

namespace feed {

namespace {

// windows-1251 0x80-0xBF; 0xC0-0xFF are U+0410-U+044F in order and 0x00-0x7F
// are ASCII. The one table both directions are built from, so they cannot
// disagree.
constexpr std::array<char16_t, 64> kCp1251High = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,  // 80
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,  // 88
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 90
    0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,  // 98
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,  // A0
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,  // A8
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,  // B0
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,  // B8
};

// The reverse direction as three dense windows over the only places the
// code page's non-ASCII characters live: Latin-1 signs, Cyrillic, and
// punctuation. 0 means "not in the code page" (byte 0 is ASCII NUL, never
// looked up here).
template <char32_t kFirst, size_t kSize>
struct Cp1251Window {
  std::array<unsigned char, kSize> byte{};
  constexpr Cp1251Window() {
    for (size_t i = 0; i < kCp1251High.size(); ++i) {
      char32_t cp = kCp1251High[i];
      if (cp != 0xFFFD && cp >= kFirst && cp < kFirst + kSize) {
        byte[cp - kFirst] = static_cast<unsigned char>(0x80 + i);
      }
    }
    for (char32_t cp = 0x0410; cp <= 0x044F; ++cp) {
      if (cp >= kFirst && cp < kFirst + kSize) {
        byte[cp - kFirst] = static_cast<unsigned char>(0xC0 + (cp - 0x0410));
      }
    }
  }
  constexpr std::optional<unsigned char> Find(char32_t cp) const {
    if (cp < kFirst || cp >= kFirst + kSize || byte[cp - kFirst] == 0) return std::nullopt;
    return byte[cp - kFirst];
  }
};

constexpr Cp1251Window<0x00A0, 0x20> kLatin1Signs;
constexpr Cp1251Window<0x0400, 0x92> kCyrillic;
constexpr Cp1251Window<0x2010, 0x120> kPunctuation;

// Which ASCII bytes a context copies through untouched. Everything else in
// 0x00-0x7F is either escaped or an XML-illegal control to drop. kRaw is
// AppendEncoded / CleanUtf8: no escaping at all.
enum class Mode { kText, kAttribute, kCData, kRaw };
constexpr int kModeCount = 4;

constexpr std::array<std::array<bool, 128>, kModeCount> kPlainAscii = [] {
  std::array<std::array<bool, 128>, kModeCount> t{};
  for (auto& row : t) {
    for (int c = 0x20; c < 0x80; ++c) row[c] = true;
    row['\t'] = row['\n'] = row['\r'] = true;
  }
  auto& text = t[static_cast<int>(Mode::kText)];
  text['&'] = text['<'] = text['>'] = false;
  auto& attr = t[static_cast<int>(Mode::kAttribute)];
  attr['&'] = attr['<'] = attr['>'] = attr['"'] = false;
  attr['\t'] = attr['\n'] = attr['\r'] = false;
  // '>' is only special when it would complete "]]>"; it is checked on the
  // slow path so that a dropped byte between "]]" and ">" cannot end the
  // section either.
  t[static_cast<int>(Mode::kCData)]['>'] = false;
  return t;
}();

void AppendReference(std::string& out, char32_t cp) {
  char buf[16] = {'&', '#'};
  auto end = std::to_chars(buf + 2, buf + sizeof buf - 1, static_cast<uint32_t>(cp)).ptr;
  *end++ = ';';
  out.append(buf, end);
}

constexpr bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

void AppendXmlMode(std::string& out, std::string_view utf8, Mode mode, Charset cs) {
  const auto& plain = kPlainAscii[static_cast<int>(mode)];
  const char* const s = utf8.data();
  const size_t n = utf8.size();
  size_t run = 0;  // start of the bytes not yet copied to `out`
  size_t i = 0;
  while (i < n) {
    // The common case: long stretches of ASCII that go out as they came in.
    // In UTF-8 output valid multi-byte characters extend the same run.
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (plain[c]) {
        ++i;
        continue;
      }
      out.append(s + run, i - run);
      switch (c) {
        case '&': out.append("&amp;"); break;
        case '<': out.append("&lt;"); break;
        case '"': out.append("&quot;"); break;
        case '\t': out.append("&#9;"); break;
        case '\n': out.append("&#10;"); break;
        case '\r': out.append("&#13;"); break;
        case '>':
          if (mode != Mode::kCData) {
            out.append("&gt;");
          } else {
            size_t m = out.size();
            if (m >= 2 && out[m - 1] == ']' && out[m - 2] == ']') out.append("]]><![CDATA[");
            out.push_back('>');
          }
          break;
        default: break;  // C0 control other than TAB, LF, CR: illegal in XML
      }
      run = ++i;
      continue;
    }
    size_t len;
    std::optional<char32_t> cp;
    if (c >= 0xC2 && c <= 0xDF && i + 1 < n && IsContinuation(s[i + 1])) {
      // Two-byte sequences (all of Cyrillic) are the bulk of a Russian
      // feed, and every one of them is a legal XML character.
      cp = ((char32_t{c} & 0x1F) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      len = 2;
    } else {
      cp = DecodeUtf8(std::string_view(s + i, n - i), &len);
    }
    bool legal = cp && IsXmlChar(*cp);
    if (legal && cs == Charset::kUtf8) {
      i += len;
      continue;
    }
    out.append(s + run, i - run);
    i += len;
    run = i;
    if (!legal) continue;
    if (std::optional<unsigned char> b = ToCp1251(*cp)) {
      out.push_back(static_cast<char>(*b));
    } else if (mode == Mode::kCData) {
      out.append("]]>");
      AppendReference(out, *cp);
      out.append("<![CDATA[");
    } else {
      AppendReference(out, *cp);
    }
  }
  out.append(s + run, n - run);
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    unsigned char x = static_cast<unsigned char>(a[i]);
    unsigned char y = static_cast<unsigned char>(b[i]);
    if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
    if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
    if (x != y) return false;
  }
  return true;
}

}  // namespace

std::optional<Charset> CharsetFromName(std::string_view name) {
  for (std::string_view utf8 : {"utf-8", "utf8"}) {
    if (EqualsIgnoreCase(name, utf8)) return Charset::kUtf8;
  }
  for (std::string_view cp1251 : {"windows-1251", "cp1251"}) {
    if (EqualsIgnoreCase(name, cp1251)) return Charset::kWindows1251;
  }
  return std::nullopt;
}

const char* CharsetName(Charset cs) {
  switch (cs) {
    case Charset::kUtf8: return "UTF-8";
    case Charset::kWindows1251: return "windows-1251";
  }
  return "UTF-8";
}

void AppendXml(std::string& out, std::string_view utf8, XmlContext ctx, Charset cs) {
  Mode mode = Mode::kText;
  switch (ctx) {
    case XmlContext::kText: mode = Mode::kText; break;
    case XmlContext::kAttribute: mode = Mode::kAttribute; break;
    case XmlContext::kCData: mode = Mode::kCData; break;
  }
  AppendXmlMode(out, utf8, mode, cs);
}

void AppendEncoded(std::string& out, std::string_view utf8, Charset cs) {
  AppendXmlMode(out, utf8, Mode::kRaw, cs);
}

std::optional<char32_t> DecodeUtf8(std::string_view s, size_t* len) {
  *len = 1;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  unsigned char b0 = p[0];
  if (b0 < 0x80) return b0;
  // The second byte's range depends on the first: that is what rules out
  // overlong forms (E0 80-9F, F0 80-8F), surrogates (ED A0-BF) and code
  // points past U+10FFFF (F4 90-BF), per RFC 3629's table.
  unsigned char lo = 0x80, hi = 0xBF;
  size_t need;
  char32_t cp;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 2;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 3;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 4;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return std::nullopt;  // continuation byte, C0/C1 overlong lead, F5-FF
  }
  if (n < need || p[1] < lo || p[1] > hi) return std::nullopt;
  cp = (cp << 6) | (p[1] & 0x3F);
  for (size_t k = 2; k < need; ++k) {
    if (!IsContinuation(p[k])) return std::nullopt;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  *len = need;
  return cp;
}

void AppendUtf8(std::string& out, char32_t cp) {
  char buf[4];
  size_t n;
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    n = 1;
  } else if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    buf[0] = static_cast<char>(0xF0 | (cp >> 18));
    buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  out.append(buf, n);
}

bool IsXmlChar(char32_t cp) {
  if (cp < 0x20) return cp == 0x9 || cp == 0xA || cp == 0xD;
  if (cp <= 0xD7FF) return true;
  if (cp < 0xE000) return false;
  if (cp <= 0xFFFD) return true;
  return cp >= 0x10000 && cp <= 0x10FFFF;
}

std::optional<unsigned char> ToCp1251(char32_t cp) {
  if (cp < 0x80) return static_cast<unsigned char>(cp);
  if (cp < 0x2010) {
    if (cp >= 0x0400) return kCyrillic.Find(cp);
    return kLatin1Signs.Find(cp);
  }
  return kPunctuation.Find(cp);
}

char32_t FromCp1251(unsigned char b) {
  if (b < 0x80) return b;
  if (b >= 0xC0) return 0x0410 + (b - 0xC0);
  return kCp1251High[b - 0x80];
}

std::string CleanUtf8(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  AppendXmlMode(out, utf8, Mode::kRaw, Charset::kUtf8);
  return out;
}

}  // namespace feed
