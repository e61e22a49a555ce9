#include "legacy_html.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>

#include "xml_text.h"

namespace feed {

namespace {

struct NamedEntity {
  std::string_view name;
  char32_t cp;
};

// The 252 entities of HTML 4.01 plus &apos;, sorted by name (byte order) for
// binary search. Names are case-sensitive: &Alpha; and &alpha; differ.
constexpr NamedEntity kNamedEntities[] = {
    {"AElig", 0xC6}, {"Aacute", 0xC1}, {"Acirc", 0xC2}, {"Agrave", 0xC0},
    {"Alpha", 0x391}, {"Aring", 0xC5}, {"Atilde", 0xC3}, {"Auml", 0xC4},
    {"Beta", 0x392}, {"Ccedil", 0xC7}, {"Chi", 0x3A7}, {"Dagger", 0x2021},
    {"Delta", 0x394}, {"ETH", 0xD0}, {"Eacute", 0xC9}, {"Ecirc", 0xCA},
    {"Egrave", 0xC8}, {"Epsilon", 0x395}, {"Eta", 0x397}, {"Euml", 0xCB},
    {"Gamma", 0x393}, {"Iacute", 0xCD}, {"Icirc", 0xCE}, {"Igrave", 0xCC},
    {"Iota", 0x399}, {"Iuml", 0xCF}, {"Kappa", 0x39A}, {"Lambda", 0x39B},
    {"Mu", 0x39C}, {"Ntilde", 0xD1}, {"Nu", 0x39D}, {"OElig", 0x152},
    {"Oacute", 0xD3}, {"Ocirc", 0xD4}, {"Ograve", 0xD2}, {"Omega", 0x3A9},
    {"Omicron", 0x39F}, {"Oslash", 0xD8}, {"Otilde", 0xD5}, {"Ouml", 0xD6},
    {"Phi", 0x3A6}, {"Pi", 0x3A0}, {"Prime", 0x2033}, {"Psi", 0x3A8},
    {"Rho", 0x3A1}, {"Scaron", 0x160}, {"Sigma", 0x3A3}, {"THORN", 0xDE},
    {"Tau", 0x3A4}, {"Theta", 0x398}, {"Uacute", 0xDA}, {"Ucirc", 0xDB},
    {"Ugrave", 0xD9}, {"Upsilon", 0x3A5}, {"Uuml", 0xDC}, {"Xi", 0x39E},
    {"Yacute", 0xDD}, {"Yuml", 0x178}, {"Zeta", 0x396}, {"aacute", 0xE1},
    {"acirc", 0xE2}, {"acute", 0xB4}, {"aelig", 0xE6}, {"agrave", 0xE0},
    {"alefsym", 0x2135}, {"alpha", 0x3B1}, {"amp", 0x26}, {"and", 0x2227},
    {"ang", 0x2220}, {"apos", 0x27}, {"aring", 0xE5}, {"asymp", 0x2248},
    {"atilde", 0xE3}, {"auml", 0xE4}, {"bdquo", 0x201E}, {"beta", 0x3B2},
    {"brvbar", 0xA6}, {"bull", 0x2022}, {"cap", 0x2229}, {"ccedil", 0xE7},
    {"cedil", 0xB8}, {"cent", 0xA2}, {"chi", 0x3C7}, {"circ", 0x2C6},
    {"clubs", 0x2663}, {"cong", 0x2245}, {"copy", 0xA9}, {"crarr", 0x21B5},
    {"cup", 0x222A}, {"curren", 0xA4}, {"dArr", 0x21D3}, {"dagger", 0x2020},
    {"darr", 0x2193}, {"deg", 0xB0}, {"delta", 0x3B4}, {"diams", 0x2666},
    {"divide", 0xF7}, {"eacute", 0xE9}, {"ecirc", 0xEA}, {"egrave", 0xE8},
    {"empty", 0x2205}, {"emsp", 0x2003}, {"ensp", 0x2002}, {"epsilon", 0x3B5},
    {"equiv", 0x2261}, {"eta", 0x3B7}, {"eth", 0xF0}, {"euml", 0xEB},
    {"euro", 0x20AC}, {"exist", 0x2203}, {"fnof", 0x192}, {"forall", 0x2200},
    {"frac12", 0xBD}, {"frac14", 0xBC}, {"frac34", 0xBE}, {"frasl", 0x2044},
    {"gamma", 0x3B3}, {"ge", 0x2265}, {"gt", 0x3E}, {"hArr", 0x21D4},
    {"harr", 0x2194}, {"hearts", 0x2665}, {"hellip", 0x2026}, {"iacute", 0xED},
    {"icirc", 0xEE}, {"iexcl", 0xA1}, {"igrave", 0xEC}, {"image", 0x2111},
    {"infin", 0x221E}, {"int", 0x222B}, {"iota", 0x3B9}, {"iquest", 0xBF},
    {"isin", 0x2208}, {"iuml", 0xEF}, {"kappa", 0x3BA}, {"lArr", 0x21D0},
    {"lambda", 0x3BB}, {"lang", 0x2329}, {"laquo", 0xAB}, {"larr", 0x2190},
    {"lceil", 0x2308}, {"ldquo", 0x201C}, {"le", 0x2264}, {"lfloor", 0x230A},
    {"lowast", 0x2217}, {"loz", 0x25CA}, {"lrm", 0x200E}, {"lsaquo", 0x2039},
    {"lsquo", 0x2018}, {"lt", 0x3C}, {"macr", 0xAF}, {"mdash", 0x2014},
    {"micro", 0xB5}, {"middot", 0xB7}, {"minus", 0x2212}, {"mu", 0x3BC},
    {"nabla", 0x2207}, {"nbsp", 0xA0}, {"ndash", 0x2013}, {"ne", 0x2260},
    {"ni", 0x220B}, {"not", 0xAC}, {"notin", 0x2209}, {"nsub", 0x2284},
    {"ntilde", 0xF1}, {"nu", 0x3BD}, {"oacute", 0xF3}, {"ocirc", 0xF4},
    {"oelig", 0x153}, {"ograve", 0xF2}, {"oline", 0x203E}, {"omega", 0x3C9},
    {"omicron", 0x3BF}, {"oplus", 0x2295}, {"or", 0x2228}, {"ordf", 0xAA},
    {"ordm", 0xBA}, {"oslash", 0xF8}, {"otilde", 0xF5}, {"otimes", 0x2297},
    {"ouml", 0xF6}, {"para", 0xB6}, {"part", 0x2202}, {"permil", 0x2030},
    {"perp", 0x22A5}, {"phi", 0x3C6}, {"pi", 0x3C0}, {"piv", 0x3D6},
    {"plusmn", 0xB1}, {"pound", 0xA3}, {"prime", 0x2032}, {"prod", 0x220F},
    {"prop", 0x221D}, {"psi", 0x3C8}, {"quot", 0x22}, {"rArr", 0x21D2},
    {"radic", 0x221A}, {"rang", 0x232A}, {"raquo", 0xBB}, {"rarr", 0x2192},
    {"rceil", 0x2309}, {"rdquo", 0x201D}, {"real", 0x211C}, {"reg", 0xAE},
    {"rfloor", 0x230B}, {"rho", 0x3C1}, {"rlm", 0x200F}, {"rsaquo", 0x203A},
    {"rsquo", 0x2019}, {"sbquo", 0x201A}, {"scaron", 0x161}, {"sdot", 0x22C5},
    {"sect", 0xA7}, {"shy", 0xAD}, {"sigma", 0x3C3}, {"sigmaf", 0x3C2},
    {"sim", 0x223C}, {"spades", 0x2660}, {"sub", 0x2282}, {"sube", 0x2286},
    {"sum", 0x2211}, {"sup", 0x2283}, {"sup1", 0xB9}, {"sup2", 0xB2},
    {"sup3", 0xB3}, {"supe", 0x2287}, {"szlig", 0xDF}, {"tau", 0x3C4},
    {"there4", 0x2234}, {"theta", 0x3B8}, {"thetasym", 0x3D1},
    {"thinsp", 0x2009}, {"thorn", 0xFE}, {"tilde", 0x2DC}, {"times", 0xD7},
    {"trade", 0x2122}, {"uArr", 0x21D1}, {"uacute", 0xFA}, {"uarr", 0x2191},
    {"ucirc", 0xFB}, {"ugrave", 0xF9}, {"uml", 0xA8}, {"upsih", 0x3D2},
    {"upsilon", 0x3C5}, {"uuml", 0xFC}, {"weierp", 0x2118}, {"xi", 0x3BE},
    {"yacute", 0xFD}, {"yen", 0xA5}, {"yuml", 0xFF}, {"zeta", 0x3B6},
    {"zwj", 0x200D}, {"zwnj", 0x200C},
};
static_assert(std::size(kNamedEntities) == 253);
constexpr bool ByName(const NamedEntity& a, const NamedEntity& b) { return a.name < b.name; }
static_assert(std::is_sorted(std::begin(kNamedEntities), std::end(kNamedEntities), ByName));

constexpr size_t kLongestEntityName = 8;  // "thetasym"

std::optional<char32_t> FindNamedEntity(std::string_view name) {
  auto it = std::lower_bound(std::begin(kNamedEntities), std::end(kNamedEntities), name,
                             [](const NamedEntity& e, std::string_view n) { return e.name < n; });
  if (it == std::end(kNamedEntities) || it->name != name) return std::nullopt;
  return it->cp;
}

// Browsers read &#128;-&#159; as windows-1252, not as C1 controls (HTML5
// "numeric character reference end state"), so a board text's &#150; was
// shown as an en dash; 0 marks the five the table leaves alone.
constexpr std::array<char16_t, 32> kWindows1252C1 = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,
};

// A character reference at the start of a string that begins with '&'.
// `length` 0 means there is none (unknown name, no ';'): the '&' is text.
struct Reference {
  size_t length = 0;
  char32_t cp = 0;  // may be invalid or XML-illegal; the caller drops those
};

constexpr bool IsAsciiAlpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
constexpr bool IsAsciiDigit(unsigned char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAsciiAlnum(unsigned char c) { return IsAsciiAlpha(c) || IsAsciiDigit(c); }
constexpr bool IsHexDigit(unsigned char c) {
  return IsAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}
constexpr unsigned char AsciiLower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c | 0x20 : c; }

Reference ParseReference(std::string_view s) {
  const size_t n = s.size();
  if (n >= 2 && s[1] == '#') {
    bool hex = n >= 3 && (s[2] == 'x' || s[2] == 'X');
    size_t j = hex ? 3 : 2;
    const size_t digits = j;
    // Saturate past U+10FFFF so that &#99999999999; stays invalid instead of
    // wrapping around into a valid code point.
    char32_t value = 0;
    for (; j < n; ++j) {
      unsigned char c = static_cast<unsigned char>(s[j]);
      unsigned d;
      if (IsAsciiDigit(c)) {
        d = c - '0';
      } else if (hex && IsHexDigit(c)) {
        d = (c | 0x20) - 'a' + 10;
      } else {
        break;
      }
      value = std::min<char32_t>(value * (hex ? 16 : 10) + d, 0x110000);
    }
    if (j == digits || j == n || s[j] != ';') return {};
    if (value >= 0x80 && value <= 0x9F && kWindows1252C1[value - 0x80] != 0) {
      value = kWindows1252C1[value - 0x80];
    }
    return {j + 1, value};
  }
  size_t j = 1;
  while (j < n && j <= kLongestEntityName && IsAsciiAlnum(static_cast<unsigned char>(s[j]))) ++j;
  if (j == 1 || j == n || s[j] != ';') return {};
  std::optional<char32_t> cp = FindNamedEntity(s.substr(1, j - 1));
  if (!cp) return {};
  return {j + 1, *cp};
}

// What may follow '<' for it to open a tag.
constexpr bool IsTagStart(char32_t c) {
  if (c >= 0x80) return false;
  return IsAsciiAlpha(static_cast<unsigned char>(c)) || c == '/' || c == '!' || c == '?';
}

// HTML's tag name runs to whitespace, '/' or '>': "<script-x>" is not a
// script element and "</script-x>" does not close one.
constexpr bool EndsTagName(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>';
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

bool IsOneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (EqualsIgnoreCase(name, n)) return true;
  }
  return false;
}

bool IsRawContentElement(std::string_view name) {
  return IsOneOf(name, {"script", "style", "noscript", "iframe", "object", "template"});
}

bool IsLineBreakTag(std::string_view name, bool closing) {
  // </br> too: browsers treat it as <br>.
  if (IsOneOf(name, {"br", "p", "div", "h1", "h2", "h3", "h4", "h5", "h6"})) return true;
  return !closing && IsOneOf(name, {"li", "tr"});
}

// Builds the plain text, collapsing whitespace as it goes: a space or line
// break is only written once the next visible character arrives, so runs
// collapse and the ends come out trimmed with no second pass.
class PlainTextWriter {
 public:
  explicit PlainTextWriter(size_t capacity) { out_.reserve(capacity); }

  void Visible(char32_t cp) {
    if (!out_.empty()) {
      if (gap_ == Gap::kLine) {
        out_.push_back('\n');
      } else if (gap_ == Gap::kSpace) {
        out_.push_back(' ');
      } else if (guard_lt_ && IsTagStart(cp)) {
        // "<<b>script>" or "<\x01script>": removing the inner markup must
        // not assemble a tag out of the pieces around it.
        out_.push_back(' ');
      }
    }
    gap_ = Gap::kNone;
    guard_lt_ = false;
    AppendUtf8(out_, cp);
  }

  void Space() {
    if (gap_ == Gap::kNone) gap_ = Gap::kSpace;
  }
  void LineBreak() { gap_ = Gap::kLine; }

  // Something between two pieces of text was taken out.
  void Removed() {
    if (gap_ == Gap::kNone && !out_.empty() && out_.back() == '<') guard_lt_ = true;
  }

  // A character from the input, literal or decoded from a reference.
  void Character(char32_t cp, bool from_reference) {
    if (cp == ' ' || cp == '\t' || (cp == 0xA0 && from_reference)) {
      Space();
    } else if (cp == '\n' || cp == '\r') {
      LineBreak();
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || !IsXmlChar(cp)) {
      Removed();
    } else {
      Visible(cp);
    }
  }

  std::string Take() { return std::move(out_); }

 private:
  enum class Gap { kNone, kSpace, kLine };
  std::string out_;
  Gap gap_ = Gap::kNone;
  bool guard_lt_ = false;
};

// From `from`, past the close tag of raw-content element `name`, or the end
// of the input when it is never closed.
size_t SkipElementContent(std::string_view s, size_t from, std::string_view name) {
  for (;;) {
    size_t open = s.find("</", from);
    if (open == std::string_view::npos) return s.size();
    size_t after = open + 2 + name.size();
    if (after <= s.size() && EqualsIgnoreCase(s.substr(open + 2, name.size()), name) &&
        (after == s.size() || EndsTagName(s[after]))) {
      size_t gt = s.find('>', after);
      return gt == std::string_view::npos ? s.size() : gt + 1;
    }
    from = open + 2;
  }
}

// Handles the '<' at `i`: a tag, a comment, or a '<' that is just text.
// Returns where the text continues.
size_t Markup(std::string_view s, size_t i, PlainTextWriter& w) {
  const size_t n = s.size();
  if (i + 1 == n || !IsTagStart(static_cast<unsigned char>(s[i + 1]))) {
    w.Visible('<');
    return i + 1;
  }
  if (s.substr(i, 4) == "<!--") {
    // Searching from the opener's own dashes accepts "<!-->" and "<!--->"
    // as empty comments, as browsers do.
    size_t close = s.find("-->", i + 2);
    w.Removed();
    return close == std::string_view::npos ? n : close + 3;
  }
  // An unterminated tag swallows the rest of the input: "<script" at the end
  // of a field must not survive as text.
  size_t gt = s.find('>', i + 1);
  size_t end = gt == std::string_view::npos ? n : gt + 1;
  bool closing = s[i + 1] == '/';
  size_t name_begin = i + 1 + (closing ? 1 : 0);
  size_t name_end = name_begin;
  while (name_end < n && !EndsTagName(s[name_end])) ++name_end;
  std::string_view name = s.substr(name_begin, name_end - name_begin);
  if (!closing && IsRawContentElement(name)) {
    w.Removed();
    return end == n ? n : SkipElementContent(s, end, name);
  }
  if (IsLineBreakTag(name, closing)) {
    w.LineBreak();
  } else {
    w.Removed();
  }
  return end;
}

}  // namespace

std::string LegacyHtmlToText(std::string_view html) {
  PlainTextWriter w(html.size());
  const size_t n = html.size();
  size_t i = 0;
  while (i < n) {
    char c = html[i];
    if (c == '<') {
      i = Markup(html, i, w);
    } else if (c == '&') {
      Reference ref = ParseReference(html.substr(i));
      if (ref.length == 0) {
        w.Visible('&');
        ++i;
      } else {
        w.Character(ref.cp, true);
        i += ref.length;
      }
    } else {
      size_t len;
      std::optional<char32_t> cp = DecodeUtf8(html.substr(i), &len);
      i += len;
      if (cp) {
        w.Character(*cp, false);
      } else {
        w.Removed();
      }
    }
  }
  return w.Take();
}

}  // namespace feed
