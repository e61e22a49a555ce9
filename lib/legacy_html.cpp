#include "legacy_html.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>
#include <optional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "scan_back_off.h"
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
    {"AElig", 0xC6},     {"Aacute", 0xC1},   {"Acirc", 0xC2},    {"Agrave", 0xC0},   {"Alpha", 0x391},
    {"Aring", 0xC5},     {"Atilde", 0xC3},   {"Auml", 0xC4},     {"Beta", 0x392},    {"Ccedil", 0xC7},
    {"Chi", 0x3A7},      {"Dagger", 0x2021}, {"Delta", 0x394},   {"ETH", 0xD0},      {"Eacute", 0xC9},
    {"Ecirc", 0xCA},     {"Egrave", 0xC8},   {"Epsilon", 0x395}, {"Eta", 0x397},     {"Euml", 0xCB},
    {"Gamma", 0x393},    {"Iacute", 0xCD},   {"Icirc", 0xCE},    {"Igrave", 0xCC},   {"Iota", 0x399},
    {"Iuml", 0xCF},      {"Kappa", 0x39A},   {"Lambda", 0x39B},  {"Mu", 0x39C},      {"Ntilde", 0xD1},
    {"Nu", 0x39D},       {"OElig", 0x152},   {"Oacute", 0xD3},   {"Ocirc", 0xD4},    {"Ograve", 0xD2},
    {"Omega", 0x3A9},    {"Omicron", 0x39F}, {"Oslash", 0xD8},   {"Otilde", 0xD5},   {"Ouml", 0xD6},
    {"Phi", 0x3A6},      {"Pi", 0x3A0},      {"Prime", 0x2033},  {"Psi", 0x3A8},     {"Rho", 0x3A1},
    {"Scaron", 0x160},   {"Sigma", 0x3A3},   {"THORN", 0xDE},    {"Tau", 0x3A4},     {"Theta", 0x398},
    {"Uacute", 0xDA},    {"Ucirc", 0xDB},    {"Ugrave", 0xD9},   {"Upsilon", 0x3A5}, {"Uuml", 0xDC},
    {"Xi", 0x39E},       {"Yacute", 0xDD},   {"Yuml", 0x178},    {"Zeta", 0x396},    {"aacute", 0xE1},
    {"acirc", 0xE2},     {"acute", 0xB4},    {"aelig", 0xE6},    {"agrave", 0xE0},   {"alefsym", 0x2135},
    {"alpha", 0x3B1},    {"amp", 0x26},      {"and", 0x2227},    {"ang", 0x2220},    {"apos", 0x27},
    {"aring", 0xE5},     {"asymp", 0x2248},  {"atilde", 0xE3},   {"auml", 0xE4},     {"bdquo", 0x201E},
    {"beta", 0x3B2},     {"brvbar", 0xA6},   {"bull", 0x2022},   {"cap", 0x2229},    {"ccedil", 0xE7},
    {"cedil", 0xB8},     {"cent", 0xA2},     {"chi", 0x3C7},     {"circ", 0x2C6},    {"clubs", 0x2663},
    {"cong", 0x2245},    {"copy", 0xA9},     {"crarr", 0x21B5},  {"cup", 0x222A},    {"curren", 0xA4},
    {"dArr", 0x21D3},    {"dagger", 0x2020}, {"darr", 0x2193},   {"deg", 0xB0},      {"delta", 0x3B4},
    {"diams", 0x2666},   {"divide", 0xF7},   {"eacute", 0xE9},   {"ecirc", 0xEA},    {"egrave", 0xE8},
    {"empty", 0x2205},   {"emsp", 0x2003},   {"ensp", 0x2002},   {"epsilon", 0x3B5}, {"equiv", 0x2261},
    {"eta", 0x3B7},      {"eth", 0xF0},      {"euml", 0xEB},     {"euro", 0x20AC},   {"exist", 0x2203},
    {"fnof", 0x192},     {"forall", 0x2200}, {"frac12", 0xBD},   {"frac14", 0xBC},   {"frac34", 0xBE},
    {"frasl", 0x2044},   {"gamma", 0x3B3},   {"ge", 0x2265},     {"gt", 0x3E},       {"hArr", 0x21D4},
    {"harr", 0x2194},    {"hearts", 0x2665}, {"hellip", 0x2026}, {"iacute", 0xED},   {"icirc", 0xEE},
    {"iexcl", 0xA1},     {"igrave", 0xEC},   {"image", 0x2111},  {"infin", 0x221E},  {"int", 0x222B},
    {"iota", 0x3B9},     {"iquest", 0xBF},   {"isin", 0x2208},   {"iuml", 0xEF},     {"kappa", 0x3BA},
    {"lArr", 0x21D0},    {"lambda", 0x3BB},  {"lang", 0x2329},   {"laquo", 0xAB},    {"larr", 0x2190},
    {"lceil", 0x2308},   {"ldquo", 0x201C},  {"le", 0x2264},     {"lfloor", 0x230A}, {"lowast", 0x2217},
    {"loz", 0x25CA},     {"lrm", 0x200E},    {"lsaquo", 0x2039}, {"lsquo", 0x2018},  {"lt", 0x3C},
    {"macr", 0xAF},      {"mdash", 0x2014},  {"micro", 0xB5},    {"middot", 0xB7},   {"minus", 0x2212},
    {"mu", 0x3BC},       {"nabla", 0x2207},  {"nbsp", 0xA0},     {"ndash", 0x2013},  {"ne", 0x2260},
    {"ni", 0x220B},      {"not", 0xAC},      {"notin", 0x2209},  {"nsub", 0x2284},   {"ntilde", 0xF1},
    {"nu", 0x3BD},       {"oacute", 0xF3},   {"ocirc", 0xF4},    {"oelig", 0x153},   {"ograve", 0xF2},
    {"oline", 0x203E},   {"omega", 0x3C9},   {"omicron", 0x3BF}, {"oplus", 0x2295},  {"or", 0x2228},
    {"ordf", 0xAA},      {"ordm", 0xBA},     {"oslash", 0xF8},   {"otilde", 0xF5},   {"otimes", 0x2297},
    {"ouml", 0xF6},      {"para", 0xB6},     {"part", 0x2202},   {"permil", 0x2030}, {"perp", 0x22A5},
    {"phi", 0x3C6},      {"pi", 0x3C0},      {"piv", 0x3D6},     {"plusmn", 0xB1},   {"pound", 0xA3},
    {"prime", 0x2032},   {"prod", 0x220F},   {"prop", 0x221D},   {"psi", 0x3C8},     {"quot", 0x22},
    {"rArr", 0x21D2},    {"radic", 0x221A},  {"rang", 0x232A},   {"raquo", 0xBB},    {"rarr", 0x2192},
    {"rceil", 0x2309},   {"rdquo", 0x201D},  {"real", 0x211C},   {"reg", 0xAE},      {"rfloor", 0x230B},
    {"rho", 0x3C1},      {"rlm", 0x200F},    {"rsaquo", 0x203A}, {"rsquo", 0x2019},  {"sbquo", 0x201A},
    {"scaron", 0x161},   {"sdot", 0x22C5},   {"sect", 0xA7},     {"shy", 0xAD},      {"sigma", 0x3C3},
    {"sigmaf", 0x3C2},   {"sim", 0x223C},    {"spades", 0x2660}, {"sub", 0x2282},    {"sube", 0x2286},
    {"sum", 0x2211},     {"sup", 0x2283},    {"sup1", 0xB9},     {"sup2", 0xB2},     {"sup3", 0xB3},
    {"supe", 0x2287},    {"szlig", 0xDF},    {"tau", 0x3C4},     {"there4", 0x2234}, {"theta", 0x3B8},
    {"thetasym", 0x3D1}, {"thinsp", 0x2009}, {"thorn", 0xFE},    {"tilde", 0x2DC},   {"times", 0xD7},
    {"trade", 0x2122},   {"uArr", 0x21D1},   {"uacute", 0xFA},   {"uarr", 0x2191},   {"ucirc", 0xFB},
    {"ugrave", 0xF9},    {"uml", 0xA8},      {"upsih", 0x3D2},   {"upsilon", 0x3C5}, {"uuml", 0xFC},
    {"weierp", 0x2118},  {"xi", 0x3BE},      {"yacute", 0xFD},   {"yen", 0xA5},      {"yuml", 0xFF},
    {"zeta", 0x3B6},     {"zwj", 0x200D},    {"zwnj", 0x200C},
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
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,
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
constexpr bool IsHexDigit(unsigned char c) { return IsAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
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

// Room the writer keeps past its write position: a 16-byte block store, or a
// separator and a four-byte character, always fits.
constexpr size_t kSlack = 32;

constexpr bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

#if defined(__SSE2__)
inline unsigned Mask(__m128i bytes) { return static_cast<unsigned>(_mm_movemask_epi8(bytes)); }
inline __m128i Splat(unsigned char c) { return _mm_set1_epi8(static_cast<char>(c)); }
#endif

// Builds the plain text, collapsing whitespace as it goes: a space or line
// break is only written once the next visible character arrives, so runs
// collapse and the ends come out trimmed with no second pass. Written through
// a pointer into a buffer sized up front (the text never comes out longer
// than the HTML, but the writer does not rely on it). kCp1251: the text is
// windows-1251 bytes, one a character, rather than UTF-8.
template <bool kCp1251>
class PlainTextWriter {
 public:
  // Appends to `out` (which is resized as the text grows: Finish() sets its
  // final size).
  PlainTextWriter(std::string& out, size_t capacity) : out_(out), base_(out.size()) {
    out_.resize(base_ + capacity + kSlack);
    begin_ = p_ = out_.data() + base_;
    end_ = out_.data() + out_.size();
  }
  PlainTextWriter(const PlainTextWriter&) = delete;
  PlainTextWriter& operator=(const PlainTextWriter&) = delete;

  // True when the next visible character goes out with nothing before it,
  // and a space before a visible character goes out as it is.
  bool Clean() const { return gap_ == Gap::kNone && !guard_lt_ && p_ != begin_; }

  // A visible character given as its bytes (1-4 of UTF-8, or the one of
  // windows-1251).
  void Visible(const char* bytes, size_t len, bool tag_start) {
    Room();
    if (p_ != begin_) {
      if (gap_ == Gap::kLine) {
        *p_++ = '\n';
      } else if (gap_ == Gap::kSpace) {
        *p_++ = ' ';
      } else if (guard_lt_ && tag_start) {
        // "<<b>script>" or "<\x01script>": removing the inner markup must
        // not assemble a tag out of the pieces around it.
        *p_++ = ' ';
      }
    }
    gap_ = Gap::kNone;
    guard_lt_ = false;
    for (size_t k = 0; k < len; ++k) *p_++ = bytes[k];
  }

  void VisibleAscii(char c) { Visible(&c, 1, IsTagStart(static_cast<unsigned char>(c))); }

  void Visible(char32_t cp) {
    if constexpr (kCp1251) {
      std::optional<unsigned char> b = ToCp1251(cp);
      if (!b) {
        lacking_ = true;  // the caller gives up on the windows-1251 way
        return;
      }
      const char c = static_cast<char>(*b);
      Visible(&c, 1, IsTagStart(cp));
    } else {
      std::string utf8;
      AppendUtf8(utf8, cp);
      Visible(utf8.data(), utf8.size(), IsTagStart(cp));
    }
  }

  // kCp1251: a character reference stood for a character windows-1251 lacks.
  bool lacking() const { return lacking_; }

  void Space() {
    if (gap_ == Gap::kNone) gap_ = Gap::kSpace;
  }
  void LineBreak() { gap_ = Gap::kLine; }

  // Something between two pieces of text was taken out.
  void Removed() {
    if (gap_ == Gap::kNone && p_ != begin_ && p_[-1] == '<') guard_lt_ = true;
  }

  // A character decoded from a reference (where U+00A0, &nbsp;, is a space).
  void Character(char32_t cp) {
    if (cp == ' ' || cp == '\t' || cp == 0xA0) {
      Space();
    } else if (cp == '\n' || cp == '\r') {
      LineBreak();
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || !IsXmlChar(cp)) {
      Removed();
    } else {
      Visible(cp);
    }
  }

#if defined(__SSE2__)
  // The fast path (REQUIRES: Clean()): from s[i], a character boundary,
  // copies every character that goes out exactly as it came in (printable
  // ASCII other than '<' and '&', two-byte sequences from U+00C0 up or, in
  // windows-1251, every byte from 0x80 up, and single spaces with a visible
  // character after them), 16 bytes at a time at a fixed stride, and
  // returns where the first other one starts.
  size_t CopyPlain(const unsigned char* s, size_t i, size_t n) {
    const size_t start = i;
    char* p = p_;              // a local: stores through it cannot change it
    unsigned lead_carry = 0;   // the byte before the block is a lead byte
    unsigned space_carry = 0;  // ... is a space
    for (;;) {
      if (static_cast<size_t>(end_ - p) < 16) {
        p_ = p;
        Grow();
        p = p_;
      }
      __m128i x;
      if (n - i >= 16) {
        x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      } else {
        // The tail, padded with NUL, a control, which ends the copy.
        alignas(16) unsigned char tail[16] = {};
        std::memcpy(tail, s + i, n - i);
        x = _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
      }
      const unsigned high = Mask(x);
      // Signed compares: 0x80-0xFF are negative. Every C0 control (TAB, LF
      // and CR included) takes the slow path, and so do DEL, '<' and '&'.
      const unsigned special =
          (Mask(_mm_cmplt_epi8(x, Splat(0x20))) & ~high) |
          Mask(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, Splat('<')), _mm_cmpeq_epi8(x, Splat('&'))),
                            _mm_cmpeq_epi8(x, Splat(0x7F))));
      const unsigned space = Mask(_mm_cmpeq_epi8(x, Splat(' ')));
      // A second space in a row is a run to collapse.
      unsigned bad = special | (space & (((space << 1) | space_carry) & 0xFFFF));
      unsigned lead = 0;
      if constexpr (!kCp1251) {
        // In windows-1251 every byte from 0x80 up is a visible character.
        // In UTF-8: leads C3-DF (C2 starts the C1 controls, left to the
        // slow path), continuations 80-BF; a continuation must follow a
        // lead and a lead be followed by one (a mismatch is flagged at the
        // position after the lead).
        lead = Mask(_mm_and_si128(_mm_cmpgt_epi8(x, Splat(0xC2)), _mm_cmplt_epi8(x, Splat(0xE0))));
        const unsigned cont = Mask(_mm_cmplt_epi8(x, Splat(0xC0)));
        bad |= (high & ~lead & ~cont) | (cont ^ (((lead << 1) | lead_carry) & 0xFFFF));
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
      if (bad == 0) {
        lead_carry = lead >> 15;
        space_carry = space >> 15;
        p += 16;
        i += 16;
        continue;
      }
      const unsigned k = static_cast<unsigned>(__builtin_ctz(bad));
      p += k;
      i += k;
      // Neither a lead byte without its continuation nor a space whose
      // next character is not known to be visible may end the copy. In
      // what UTF-8 was copied a byte from C3 to DF can only be a lead.
      if (!kCp1251 && i > start && s[i - 1] >= 0xC3 && s[i - 1] <= 0xDF) {
        --i;
        --p;
      }
      if (i > start && s[i - 1] == ' ') {
        --i;
        --p;
      }
      p_ = p;
      return i;
    }
  }
#endif

  void Finish() { out_.resize(base_ + static_cast<size_t>(p_ - begin_)); }
  // Leaves the output as it was before the writer.
  void Undo() { out_.resize(base_); }

 private:
  enum class Gap { kNone, kSpace, kLine };

  void Room() {
    if (static_cast<size_t>(end_ - p_) < kSlack) Grow();
  }
  void Grow() {
    const size_t written = static_cast<size_t>(p_ - begin_);
    out_.resize(out_.size() * 2 + kSlack);
    begin_ = out_.data() + base_;
    p_ = begin_ + written;
    end_ = out_.data() + out_.size();
  }

  std::string& out_;
  const size_t base_;
  char* begin_;
  char* p_;
  char* end_;
  Gap gap_ = Gap::kNone;
  bool guard_lt_ = false;
  bool lacking_ = false;
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
template <class Writer>
size_t Markup(std::string_view s, size_t i, Writer& w) {
  const size_t n = s.size();
  if (i + 1 == n || !IsTagStart(static_cast<unsigned char>(s[i + 1]))) {
    w.VisibleAscii('<');
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

// LegacyHtmlToText's loop, into `w`; kCp1251: `html` and the text are
// windows-1251. False when a reference stood for a character windows-1251
// lacks (kCp1251 only).
template <bool kCp1251>
bool Convert(std::string_view html, PlainTextWriter<kCp1251>& w) {
  const char* const s = html.data();
  const auto* const u = reinterpret_cast<const unsigned char*>(s);
  const size_t n = html.size();
  size_t i = 0;
#if defined(__SSE2__)
  ScanBackOff scan;
#endif
  while (i < n) {
#if defined(__SSE2__)
    // The common case: words and single spaces that go out as they are.
    if (w.Clean()) {
      i = scan.Skip(i, [&](size_t at) { return w.CopyPlain(u, at, n); });
      if (i >= n) break;
    }
#endif
    const unsigned char c = u[i];
    if (c < 0x80) {
      switch (c) {
        case '<':
          i = Markup(html, i, w);
          continue;
        case '&': {
          Reference ref = ParseReference(html.substr(i));
          if (ref.length == 0) {
            w.VisibleAscii('&');
            ++i;
          } else {
            w.Character(ref.cp);
            if constexpr (kCp1251) {
              if (w.lacking()) return false;
            }
            i += ref.length;
          }
          continue;
        }
        case ' ':
        case '\t':
          w.Space();
          break;
        case '\n':
        case '\r':
          w.LineBreak();
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            w.Removed();
          } else {
            w.VisibleAscii(static_cast<char>(c));
          }
          break;
      }
      ++i;
    } else if constexpr (kCp1251) {
      // Every byte from 0x80 up is a visible character of the code page
      // (0x98, undefined, too: it reads as U+FFFD), none of them a space.
      w.Visible(s + i, 1, false);
      ++i;
    } else if (c >= 0xC2 && c <= 0xDF && i + 1 < n && IsContinuation(u[i + 1])) {
      // Two-byte sequences are copied as they came, save the C1 controls
      // (C2 80 - C2 9F); a literal no-break space is a character.
      if (c == 0xC2 && u[i + 1] < 0xA0) {
        w.Removed();
      } else {
        w.Visible(s + i, 2, false);
      }
      i += 2;
    } else {
      size_t len;
      std::optional<char32_t> cp = DecodeUtf8(html.substr(i), &len);
      // What is left: three- and four-byte sequences (never whitespace or
      // C1 controls) and invalid bytes.
      if (cp && IsXmlChar(*cp)) {
        w.Visible(s + i, len, false);
      } else {
        w.Removed();
      }
      i += len;
    }
  }
  return true;
}

}  // namespace

void AppendLegacyHtmlToText(std::string& out, std::string_view html) {
  PlainTextWriter<false> w(out, html.size());
  Convert(html, w);
  w.Finish();
}

std::string LegacyHtmlToText(std::string_view html) {
  std::string out;
  AppendLegacyHtmlToText(out, html);
  return out;
}

bool AppendLegacyHtmlToTextCp1251(std::string& out, std::string_view cp1251) {
  PlainTextWriter<true> w(out, cp1251.size());
  if (!Convert(cp1251, w)) {
    w.Undo();
    return false;
  }
  w.Finish();
  return true;
}

std::optional<std::string> LegacyHtmlToTextCp1251(std::string_view cp1251) {
  std::string out;
  if (!AppendLegacyHtmlToTextCp1251(out, cp1251)) return std::nullopt;
  return out;
}

}  // namespace feed
