#include "xml_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <vector>

#include <iconv.h>

#include "scan_back_off.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#if defined(__GNUC__)
// The windows-1251 fast paths (UTF-8 to windows-1251 and back) pack bytes
// with SSSE3's PSHUFB, in functions compiled for it and chosen at run time,
// so the build needs no -m flag.
#include <tmmintrin.h>
#define FEED_XML_TEXT_SSSE3 1
#endif
#endif

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

// The windows-1251 byte of `cp`, or 0 when the code page has none (byte 0 is
// U+0000, which no caller asks for: it is an XML-illegal control).
constexpr unsigned char Cp1251Byte(char32_t cp) {
  if (cp < 0x80) return static_cast<unsigned char>(cp);
  std::optional<unsigned char> b;
  if (cp < 0x2010) {
    b = cp >= 0x0400 ? kCyrillic.Find(cp) : kLatin1Signs.Find(cp);
  } else {
    b = kPunctuation.Find(cp);
  }
  return b ? *b : 0;
}

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

// The windows-1251 fast path's table, indexed by a code point below U+0800
// (what one- and two-byte UTF-8 sequences hold): the byte to write, or 0 when
// the slow path must look at the character (an ASCII byte the context
// escapes or drops, a character the code page lacks). Every code point from
// U+0080 to U+07FF is legal XML, so only encodability matters there.
constexpr std::array<std::array<unsigned char, 0x800>, kModeCount> kCp1251Short = [] {
  std::array<std::array<unsigned char, 0x800>, kModeCount> t{};
  for (int m = 0; m < kModeCount; ++m) {
    for (char32_t cp = 0; cp < 0x800; ++cp) {
      t[m][cp] = cp < 0x80 ? (kPlainAscii[m][cp] ? static_cast<unsigned char>(cp) : 0) : Cp1251Byte(cp);
    }
  }
  return t;
}();

constexpr char32_t kInvalid = utf8_detail::kInvalid;

constexpr bool IsContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

// DecodeUtf8's body (xml_text.h, inline there for the per-character loops).
inline char32_t Decode(const unsigned char* p, size_t n, size_t* len) { return utf8_detail::Decode(p, n, len); }

constexpr bool IsXmlCharInline(char32_t cp) {
  if (cp < 0x20) return cp == 0x9 || cp == 0xA || cp == 0xD;
  if (cp <= 0xD7FF) return true;
  if (cp < 0xE000) return false;
  if (cp <= 0xFFFD) return true;
  return cp >= 0x10000 && cp <= 0x10FFFF;
}

// "&#N;" into `p`, which has room for the longest, "&#1114111;"; returns the
// end.
inline char* WriteReference(char* p, char32_t cp) {
  *p++ = '&';
  *p++ = '#';
  p = std::to_chars(p, p + 10, static_cast<uint32_t>(cp)).ptr;
  *p++ = ';';
  return p;
}

#if defined(__SSE2__)
// The 16 bytes at s[i..n), padded with NUL past n when fewer remain (NUL is
// a control every fast path stops at).
inline __m128i LoadBlock(const unsigned char* s, size_t i, size_t n) {
  if (n - i >= 16) return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
  alignas(16) unsigned char tail[16] = {};
  std::memcpy(tail, s + i, n - i);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(tail));
}

inline unsigned Mask(__m128i bytes) { return static_cast<unsigned>(_mm_movemask_epi8(bytes)); }

inline __m128i Splat(unsigned char c) { return _mm_set1_epi8(static_cast<char>(c)); }

// The ASCII bytes of the 16 in `x` that context kMode does not copy as they
// are: escapes, and C0 controls to drop. `high` is x's sign-bit mask.
template <Mode kMode>
inline unsigned AsciiToHandle(__m128i x, unsigned high) {
  // Signed compare: 0x80-0xFF are negative, hence the mask with ~high.
  unsigned control = Mask(_mm_cmplt_epi8(x, Splat(0x20))) & ~high;
  if constexpr (kMode != Mode::kAttribute) {
    // TAB, LF and CR are plain everywhere but in attributes.
    control &= ~Mask(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, Splat('\t')), _mm_cmpeq_epi8(x, Splat('\n'))),
                                  _mm_cmpeq_epi8(x, Splat('\r'))));
  }
  __m128i special = _mm_setzero_si128();
  if constexpr (kMode == Mode::kText || kMode == Mode::kAttribute) {
    special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, Splat('&')), _mm_cmpeq_epi8(x, Splat('<'))),
                           _mm_cmpeq_epi8(x, Splat('>')));
  }
  if constexpr (kMode == Mode::kAttribute) {
    special = _mm_or_si128(special, _mm_cmpeq_epi8(x, Splat('"')));
  }
  if constexpr (kMode == Mode::kCData) special = _mm_cmpeq_epi8(x, Splat('>'));
  return control | Mask(special);
}

// The fast path of UTF-8 output: from s[i], a character boundary, past every
// character that goes out unchanged (ASCII the context leaves alone, and
// two-byte sequences, all of which are legal XML), 16 bytes at a time at a
// fixed stride (a lead byte at the end of a block is carried over to the
// next). Returns where the first other character starts: a longer sequence,
// invalid bytes, something to escape or drop, or the end.
template <Mode kMode>
inline size_t SkipPlainUtf8(const unsigned char* s, size_t i, size_t n) {
  unsigned carry = 0;  // the byte before s[i] is a lead byte
  for (;;) {
    const __m128i x = LoadBlock(s, i, n);
    const unsigned high = Mask(x);
    // Leads C2-DF, continuations 80-BF (signed compares).
    const unsigned lead = Mask(_mm_and_si128(_mm_cmpgt_epi8(x, Splat(0xC1)), _mm_cmplt_epi8(x, Splat(0xE0))));
    const unsigned cont = Mask(_mm_cmplt_epi8(x, Splat(0xC0)));
    // A continuation must follow a lead and a lead be followed by one; the
    // bit of a mismatch is set at the position after the lead.
    const unsigned bad =
        AsciiToHandle<kMode>(x, high) | (high & ~lead & ~cont) | (cont ^ (((lead << 1) | carry) & 0xFFFF));
    if (bad == 0) {
      carry = lead >> 15;
      i += 16;
      continue;
    }
    // A lead byte right before the first problem is part of it.
    const unsigned k = static_cast<unsigned>(__builtin_ctz(bad));
    const unsigned lead_before = k > 0 ? (lead >> (k - 1)) & 1 : carry;
    return i + k - lead_before;
  }
}
#endif

// What ASCII byte `c`, which context kMode does not copy as it is,
// becomes: an escape, '>' itself in a CDATA section, or nothing for a
// control XML forbids.
template <Mode kMode>
inline std::string_view AsciiEscape(unsigned char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '"':
      return "&quot;";
    case '\t':
      return "&#9;";
    case '\n':
      return "&#10;";
    case '\r':
      return "&#13;";
    case '>':
      return kMode != Mode::kCData ? "&gt;" : ">";
    default:
      return "";  // C0 control other than TAB, LF, CR: illegal in XML (never a null data())
  }
}

// A CDATA section's '>' after "]]" would end it: the section is closed
// before the '>' and opened again (kCDataSplit). Whether `c`, written at
// `end` of the output that starts at `begin`, is such a '>'.
constexpr std::string_view kCDataSplit = "]]><![CDATA[";
template <Mode kMode>
inline bool ClosesCData(unsigned char c, const char* begin, const char* end) {
  return kMode == Mode::kCData && c == '>' && end - begin >= 2 && end[-1] == ']' && end[-2] == ']';
}

template <Mode kMode>
void AppendAsUtf8(std::string& out, std::string_view utf8) {
  const auto& plain = kPlainAscii[static_cast<int>(kMode)];
  const char* const s = utf8.data();
  const auto* const u = reinterpret_cast<const unsigned char*>(s);
  const size_t n = utf8.size();
  // Short values that go out as they are (ids, numbers, dates): looked at
  // byte by byte and appended whole, without the 16-byte scan's set-up.
  if (n <= 32) {
    size_t k = 0;
    while (k < n && u[k] < 0x80 && plain[u[k]]) ++k;
    if (k == n) {
      out.append(s, n);
      return;
    }
  }
  size_t run = 0;  // start of the bytes not yet copied to `out`
  size_t i = 0;
#if defined(__SSE2__)
  ScanBackOff scan;
#endif
  while (i < n) {
    // The common case: long stretches of characters that go out as they
    // came in, only looked at, and copied in one piece when the run ends.
#if defined(__SSE2__)
    i = scan.Skip(i, [&](size_t at) { return SkipPlainUtf8<kMode>(u, at, n); });
    if (i >= n) break;
#endif
    const unsigned char c = u[i];
    if (c < 0x80) {
      if (plain[c]) {
        ++i;
        continue;
      }
      out.append(s + run, i - run);
      if (ClosesCData<kMode>(c, out.data(), out.data() + out.size())) out.append(kCDataSplit);
      out.append(AsciiEscape<kMode>(c));
      run = ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF && i + 1 < n && IsContinuation(u[i + 1])) {
      // Two-byte sequences (all of Cyrillic) are every one a legal XML
      // character.
      i += 2;
      continue;
    }
    size_t len;
    const char32_t cp = Decode(u + i, n - i, &len);
    if (cp != kInvalid && IsXmlCharInline(cp)) {
      i += len;
      continue;
    }
    out.append(s + run, i - run);
    i += len;
    run = i;
  }
  out.append(s + run, n - run);
}

// windows-1251 output is written through a pointer `p` into `out`, grown in
// advance. A character that goes out as one byte never takes more room than
// it had in UTF-8, and the slow path restores kSlack bytes of room beyond
// what the rest of the input can need before it writes an escape (at most
// kLongestEscape bytes, "]]>&#1114111;<![CDATA["), so that
// end - p >= (n - i) + kSlack - kLongestEscape holds everywhere else: room
// for the 16 bytes a fast-path block stores.
constexpr size_t kLongestEscape = 22;
constexpr size_t kSlack = kLongestEscape + 16 + 10;

// At `p`: what AsciiEscape says, after kCDataSplit where ClosesCData
// does; returns the end. `begin` is where the output starts.
template <Mode kMode>
inline char* WriteAsciiEscape(char* p, unsigned char c, const char* begin) {
  if (ClosesCData<kMode>(c, begin, p)) {
    std::memcpy(p, kCDataSplit.data(), kCDataSplit.size());
    p += kCDataSplit.size();
  }
  const std::string_view esc = AsciiEscape<kMode>(c);
  std::memcpy(p, esc.data(), esc.size());
  return p + esc.size();
}

struct Cp1251Out {
  std::string& out;
  char* p;
  char* end;
};

// One character at s[i] (i < n) into windows-1251; returns where the next
// one starts.
template <Mode kMode>
inline size_t Cp1251Step(const unsigned char* s, size_t n, size_t i, Cp1251Out& o) {
  const auto& table = kCp1251Short[static_cast<int>(kMode)];
  const unsigned char c = s[i];
  if (c >= 0xC2 && c <= 0xDF && i + 1 < n && IsContinuation(s[i + 1])) {
    if (unsigned char b = table[((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu)]) {
      *o.p++ = static_cast<char>(b);
      return i + 2;
    }
  } else if (c < 0x80 && table[c] != 0) {
    *o.p++ = static_cast<char>(c);
    return i + 1;
  }
  // An escape, something to drop, a longer sequence, or a character the
  // code page lacks.
  if (static_cast<size_t>(o.end - o.p) < n - i + kSlack) {
    const size_t written = static_cast<size_t>(o.p - o.out.data());
    o.out.resize(std::max(o.out.size() * 2, written + n - i + kSlack));
    o.p = o.out.data() + written;
    o.end = o.out.data() + o.out.size();
  }
  char* p = o.p;
  if (c < 0x80) {
    o.p = WriteAsciiEscape<kMode>(p, c, o.out.data());
    return i + 1;
  }
  size_t len;
  const char32_t cp = Decode(s + i, n - i, &len);
  if (cp == kInvalid || !IsXmlCharInline(cp)) return i + len;
  if (unsigned char b = Cp1251Byte(cp)) {
    *p++ = static_cast<char>(b);
  } else if (kMode == Mode::kCData) {
    std::memcpy(p, "]]>", 3);
    p = WriteReference(p + 3, cp);
    std::memcpy(p, "<![CDATA[", 9);
    p += 9;
  } else {
    p = WriteReference(p, cp);
  }
  o.p = p;
  return i + len;
}

#if defined(FEED_XML_TEXT_SSSE3)
// For each 8-bit mask, the positions of its set bits in order, then 0x80
// (which makes PSHUFB write a zero); and how many there are.
constexpr std::array<std::array<unsigned char, 8>, 256> kCompact = [] {
  std::array<std::array<unsigned char, 8>, 256> t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int b = 0; b < 8; ++b) {
      if (m & (1 << b)) t[m][k++] = static_cast<unsigned char>(b);
    }
    while (k < 8) t[m][k++] = 0x80;
  }
  return t;
}();

constexpr std::array<unsigned char, 256> kBitCount = [] {
  std::array<unsigned char, 256> t{};
  for (int m = 0; m < 256; ++m) {
    for (int b = 0; b < 8; ++b) t[m] += (m >> b) & 1;
  }
  return t;
}();

// The windows-1251 fast path, for the bulk of a Russian text: ASCII the
// context leaves alone and the Cyrillic alphabet (U+0410-U+044F, U+0401 Ё,
// U+0451 ё; D0 and D1 lead bytes), 16 input bytes at a time at a fixed
// stride, converted in one go and packed with PSHUFB. From s[i], a character
// boundary, converts every such character into o.p and returns where the
// first other character starts (or n). REQUIRES: the room invariant above.
template <Mode kMode>
__attribute__((target("ssse3"))) size_t ConvertCyrillic(const unsigned char* s, size_t i, size_t n, char*& out) {
  char* p = out;
  unsigned carry = 0;                  // the byte before the block is a lead
  __m128i last = _mm_setzero_si128();  // the previous block
  const __m128i d0 = Splat(0xD0);
  const __m128i d1 = Splat(0xD1);
  for (;;) {
    const __m128i x = LoadBlock(s, i, n);
    const unsigned high = Mask(x);
    const unsigned lead = Mask(_mm_cmpeq_epi8(_mm_and_si128(x, Splat(0xFE)), d0));  // D0, D1
    const unsigned cont = Mask(_mm_cmplt_epi8(x, Splat(0xC0)));
    // Byte j of `prev` is the input byte before byte j of the block.
    const __m128i prev = _mm_alignr_epi8(x, last, 15);
    const __m128i after_d0 = _mm_cmpeq_epi8(prev, d0);
    const __m128i after_d1 = _mm_cmpeq_epi8(prev, d1);
    const __m128i yo_upper = _mm_and_si128(after_d0, _mm_cmpeq_epi8(x, Splat(0x81)));
    const __m128i yo_lower = _mm_and_si128(after_d1, _mm_cmpeq_epi8(x, Splat(0x91)));
    const __m128i yo = _mm_or_si128(yo_upper, yo_lower);
    // D0 90-BF (U+0410-U+043F) are C0-EF: +0x30; D1 80-8F (U+0440-U+044F)
    // are F0-FF: +0x70. The other continuations after D0 and D1 come out
    // below C0 (D1 90-BF wrap around to 00-2F), so a letter is a sum of C0
    // or more; Ё and ё, A8 and B8, are the exceptions. ASCII stays as it is.
    __m128i v =
        _mm_add_epi8(x, _mm_or_si128(_mm_and_si128(after_d0, Splat(0x30)), _mm_and_si128(after_d1, Splat(0x70))));
    const unsigned alphabet = Mask(_mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(v, Splat(0xC0)), Splat(0xC0)), yo));
    v = _mm_or_si128(_mm_andnot_si128(yo, v),
                     _mm_or_si128(_mm_and_si128(yo_upper, Splat(0xA8)), _mm_and_si128(yo_lower, Splat(0xB8))));
    // Every continuation must complete a letter after its lead (a
    // continuation after anything else comes out of the sum unchanged, below
    // C0), every lead be followed by a continuation (a mismatch is flagged at
    // the position after the lead), and no other non-ASCII byte appear.
    const unsigned bad = AsciiToHandle<kMode>(x, high) | (high & ~lead & ~cont) | (cont & ~alphabet) |
                         (cont ^ (((lead << 1) | carry) & 0xFFFF));
    const unsigned k = bad == 0 ? 16 : static_cast<unsigned>(__builtin_ctz(bad));
    // One byte per character (leads dropped), up to the first problem.
    const unsigned keep = ~lead & ((1u << k) - 1);
    const unsigned lo = keep & 0xFF;
    const unsigned hi = keep >> 8;
    const __m128i index = _mm_unpacklo_epi64(
        _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kCompact[lo].data())),
        _mm_add_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kCompact[hi].data())), Splat(8)));
    const __m128i packed = _mm_shuffle_epi8(v, index);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), packed);
    p += kBitCount[lo];
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_unpackhi_epi64(packed, packed));
    p += kBitCount[hi];
    if (bad == 0) {
      carry = lead >> 15;
      last = x;
      i += 16;
      continue;
    }
    // A lead byte right before the first problem is part of it (and was
    // not written).
    const unsigned lead_before = k > 0 ? (lead >> (k - 1)) & 1 : carry;
    out = p;
    return i + k - lead_before;
  }
}

bool HaveSsse3() {
  static const bool have = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("ssse3") != 0;
  }();
  return have;
}
#endif

template <Mode kMode>
void AppendAsCp1251(std::string& out, std::string_view utf8) {
  const auto* const s = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t n = utf8.size();
  const size_t used = out.size();
  out.resize(used + n + kSlack);
  Cp1251Out o{out, out.data() + used, out.data() + out.size()};
  size_t i = 0;
#if defined(FEED_XML_TEXT_SSSE3)
  if (HaveSsse3()) {
    ScanBackOff scan;
    while (i < n) {
      i = scan.Skip(i, [&](size_t at) { return ConvertCyrillic<kMode>(s, at, n, o.p); });
      if (i >= n) break;
      i = Cp1251Step<kMode>(s, n, i, o);
    }
    out.resize(static_cast<size_t>(o.p - out.data()));
    return;
  }
#endif
  const auto& table = kCp1251Short[static_cast<int>(kMode)];
  char* p = o.p;
  for (;;) {
    // The common case: ASCII and two-byte characters the code page holds,
    // one table look-up each and no unpredictable branch between the two.
    while (i + 1 < n) {
      const unsigned c0 = s[i];
      const unsigned c1 = s[i + 1];
      const unsigned two = static_cast<unsigned>(c0 - 0xC2u < 0x1Eu) & static_cast<unsigned>((c1 & 0xC0u) == 0x80u);
      // Selected with masks rather than a conditional, which compilers turn
      // into a branch that mispredicts at every ASCII/Cyrillic boundary.
      // A non-ASCII byte that does not start a two-byte sequence reads
      // entry 0, which sends it to the slow path.
      const unsigned both = 0u - two;
      const unsigned ascii = c0 & ((c0 >> 7) - 1u);
      const unsigned index = ((((c0 & 0x1Fu) << 6) | (c1 & 0x3Fu)) & both) | (ascii & ~both);
      const unsigned char b = table[index];
      if (b == 0) break;
      *p++ = static_cast<char>(b);
      i += 1 + two;
    }
    if (i >= n) break;
    o.p = p;
    i = Cp1251Step<kMode>(s, n, i, o);
    p = o.p;
  }
  out.resize(static_cast<size_t>(p - out.data()));
}

// Which windows-1251 bytes context kMode copies as they are: the ASCII of
// kPlainAscii, and every byte from 0x80 up but 0x98, undefined in the code
// page (it reads as U+FFFD, as in AssignCp1251AsUtf8).
constexpr std::array<std::array<bool, 256>, kModeCount> kPlainCp1251 = [] {
  std::array<std::array<bool, 256>, kModeCount> t{};
  for (int m = 0; m < kModeCount; ++m) {
    for (int c = 0; c < 256; ++c) t[m][c] = c < 0x80 ? kPlainAscii[m][c] : c != 0x98;
  }
  return t;
}();

// From s[i], past every byte context kMode copies as it is; returns where
// the first other one is, or n.
template <Mode kMode>
inline size_t SkipPlainCp1251(const unsigned char* s, size_t i, size_t n) {
#if defined(__SSE2__)
  for (; n - i >= 16; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const unsigned bad = AsciiToHandle<kMode>(x, Mask(x)) | Mask(_mm_cmpeq_epi8(x, Splat(0x98)));
    if (bad != 0) return i + static_cast<unsigned>(__builtin_ctz(bad));
  }
#endif
  const auto& plain = kPlainCp1251[static_cast<int>(kMode)];
  while (i < n && plain[s[i]]) ++i;
  return i;
}

// windows-1251 text into a windows-1251 document: runs of bytes that go
// out as they are appended whole, the others escaped, dropped, or (0x98)
// written as the reference of U+FFFD.
template <Mode kMode>
void AppendCp1251AsCp1251(std::string& out, std::string_view cp1251) {
  const auto* const s = reinterpret_cast<const unsigned char*>(cp1251.data());
  const size_t n = cp1251.size();
  size_t i = 0;
  for (;;) {
    const size_t j = SkipPlainCp1251<kMode>(s, i, n);
    out.append(cp1251.data() + i, j - i);
    if (j >= n) return;
    const unsigned char c = s[j];
    i = j + 1;
    if (c >= 0x80) {
      out += kMode == Mode::kCData ? "]]>&#65533;<![CDATA[" : "&#65533;";
    } else if (kMode == Mode::kCData && c == '>') {
      if (out.ends_with("]]")) out += "]]><![CDATA[";
      out += '>';
    } else {
      char esc[8];
      out.append(esc, WriteAsciiEscape<kMode>(esc, c, esc));
    }
  }
}

// Escaped UTF-8 (what AppendAsUtf8 writes: valid, XML characters only) into
// a single-byte set: ASCII as it is, other characters by the table, a
// character the set lacks as a reference (closing and reopening a CDATA
// section around it).
template <Mode kMode>
void TranscodeToTable(std::string& out, std::string_view escaped, const Charset::Table& t);

template <Mode kMode>
void AppendXmlMode(std::string& out, std::string_view utf8, const Charset& cs) {
  switch (cs.kind()) {
    case Charset::Kind::kUtf8:
      AppendAsUtf8<kMode>(out, utf8);
      return;
    case Charset::Kind::kWindows1251:
      AppendAsCp1251<kMode>(out, utf8);
      return;
    case Charset::Kind::kTable: {
      // A CDATA section's "]]" may end what came before: the escaping
      // sees it as it would in `out` (ASCII is the same in both).
      thread_local std::string escaped;  // a buffer kept between calls
      const size_t seen = kMode == Mode::kCData ? std::min<size_t>(out.size(), 2) : 0;
      escaped.assign(out, out.size() - seen, seen);
      AppendAsUtf8<kMode>(escaped, utf8);
      TranscodeToTable<kMode>(out, std::string_view(escaped).substr(seen), *cs.table());
      return;
    }
  }
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

struct Charset::Table {
  std::string name;
  std::array<char32_t, 256> decode{};       // each byte's code point (0: none)
  std::vector<std::pair<char32_t, unsigned char>> encode;  // bytes 0x80 up, by code point
};

namespace {

// The code point iconv reads from byte `b` in `cd`'s set: nullopt when the
// byte is no character, and *incomplete when it starts a longer one.
std::optional<char32_t> DecodeByte(iconv_t cd, unsigned char b, bool* incomplete) {
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // initial state
  char in[1] = {static_cast<char>(b)};
  unsigned char out[8];
  char* ip = in;
  char* op = reinterpret_cast<char*>(out);
  size_t il = 1, ol = sizeof out;
  if (iconv(cd, &ip, &il, &op, &ol) == static_cast<size_t>(-1)) {
    if (errno == EINVAL) *incomplete = true;
    return std::nullopt;
  }
  if (iconv(cd, nullptr, nullptr, &op, &ol) == static_cast<size_t>(-1) || sizeof out - ol != 4) return std::nullopt;
  return static_cast<char32_t>(out[0] | out[1] << 8 | out[2] << 16 | static_cast<char32_t>(out[3]) << 24);
}

}  // namespace

constinit const Charset Charset::kUtf8{Charset::Kind::kUtf8};
constinit const Charset Charset::kWindows1251{Charset::Kind::kWindows1251};

std::optional<Charset> Charset::Named(std::string_view name, std::string* why) {
  auto refuse = [&](std::string reason) -> std::optional<Charset> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  for (std::string_view utf8 : {"utf-8", "utf8"}) {
    if (EqualsIgnoreCase(name, utf8)) return kUtf8;
  }
  for (std::string_view cp1251 : {"windows-1251", "cp1251"}) {
    if (EqualsIgnoreCase(name, cp1251)) return kWindows1251;
  }
  const std::string n(name);
  if (n.empty() || n.size() > 64 || n.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:") !=
                                       std::string::npos) {
    return refuse("'" + n + "' is not the name of a character set");
  }
  iconv_t cd = iconv_open("UTF-32LE", n.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) return refuse("iconv does not know the character set '" + n + "'");
  auto table = std::make_shared<Table>();
  table->name = n;
  bool multibyte = false, ascii = true;
  for (int b = 0; b < 256; ++b) {
    const std::optional<char32_t> cp = DecodeByte(cd, static_cast<unsigned char>(b), &multibyte);
    if (b < 0x80 && b != 0 && cp != static_cast<char32_t>(b)) ascii = false;
    if (cp && b >= 0x80) {
      table->decode[static_cast<size_t>(b)] = *cp;
      if (*cp >= 0x80) table->encode.emplace_back(*cp, static_cast<unsigned char>(b));
    } else if (cp) {
      table->decode[static_cast<size_t>(b)] = *cp;
    }
  }
  iconv_close(cd);
  if (multibyte) return refuse("'" + n + "' writes a character in more than one byte; the output can be UTF-8 or a single-byte set");
  if (!ascii) return refuse("'" + n + "' does not write ASCII as ASCII, which XML markup needs");
  std::sort(table->encode.begin(), table->encode.end());
  // Two bytes for one character (rare aliases): the first is written.
  table->encode.erase(std::unique(table->encode.begin(), table->encode.end(),
                                  [](const auto& a, const auto& b) { return a.first == b.first; }),
                      table->encode.end());
  return Charset(std::shared_ptr<const Table>(std::move(table)));
}

const char* Charset::name() const {
  switch (kind_) {
    case Kind::kUtf8:
      return "UTF-8";
    case Kind::kWindows1251:
      return "windows-1251";
    case Kind::kTable:
      return table_->name.c_str();
  }
  return "UTF-8";
}

namespace {

// The table set's byte for non-ASCII `cp`, or 0 when it has none.
unsigned char TableByte(const Charset::Table& t, char32_t cp) {
  auto it = std::lower_bound(t.encode.begin(), t.encode.end(), std::make_pair(cp, static_cast<unsigned char>(0)));
  return it != t.encode.end() && it->first == cp ? it->second : 0;
}

}  // namespace

bool Charset::Has(char32_t cp) const {
  switch (kind_) {
    case Kind::kUtf8:
      return true;
    case Kind::kWindows1251:
      return ToCp1251(cp).has_value();
    case Kind::kTable:
      return cp < 0x80 || TableByte(*table_, cp) != 0;
  }
  return false;
}

namespace {

template <Mode kMode>
void TranscodeToTable(std::string& out, std::string_view escaped, const Charset::Table& t) {
  const auto* s = reinterpret_cast<const unsigned char*>(escaped.data());
  const size_t n = escaped.size();
  size_t run = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    out.append(escaped.data() + run, i - run);
    size_t len;
    const char32_t cp = Decode(s + i, n - i, &len);  // valid: AppendAsUtf8 wrote it
    if (unsigned char b = TableByte(t, cp)) {
      out.push_back(static_cast<char>(b));
    } else {
      char ref[16];
      const size_t k = static_cast<size_t>(WriteReference(ref, cp) - ref);
      if (kMode == Mode::kCData) out.append("]]>");
      out.append(ref, k);
      if (kMode == Mode::kCData) out.append("<![CDATA[");
    }
    i += len;
    run = i;
  }
  out.append(escaped.data() + run, n - run);
}

}  // namespace

std::optional<Charset> CharsetFromName(std::string_view name) { return Charset::Named(name); }

const char* CharsetName(const Charset& cs) { return cs.name(); }

void AppendXml(std::string& out, std::string_view utf8, XmlContext ctx, const Charset& cs) {
  switch (ctx) {
    case XmlContext::kText:
      AppendXmlMode<Mode::kText>(out, utf8, cs);
      return;
    case XmlContext::kAttribute:
      AppendXmlMode<Mode::kAttribute>(out, utf8, cs);
      return;
    case XmlContext::kCData:
      AppendXmlMode<Mode::kCData>(out, utf8, cs);
      return;
  }
  AppendXmlMode<Mode::kText>(out, utf8, cs);
}

void AppendEncoded(std::string& out, std::string_view utf8, const Charset& cs) { AppendXmlMode<Mode::kRaw>(out, utf8, cs); }

void AppendXmlCp1251(std::string& out, std::string_view cp1251, XmlContext ctx) {
  switch (ctx) {
    case XmlContext::kText:
      AppendCp1251AsCp1251<Mode::kText>(out, cp1251);
      return;
    case XmlContext::kAttribute:
      AppendCp1251AsCp1251<Mode::kAttribute>(out, cp1251);
      return;
    case XmlContext::kCData:
      AppendCp1251AsCp1251<Mode::kCData>(out, cp1251);
      return;
  }
  AppendCp1251AsCp1251<Mode::kText>(out, cp1251);
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

bool IsXmlChar(char32_t cp) { return IsXmlCharInline(cp); }

namespace {

bool IsNameStartChar(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ':' || c == '_' || (c >= 0xC0 && c <= 0xD6) ||
         (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
         (c >= 0x37F && c <= 0x1FFF) || c == 0x200C || c == 0x200D || (c >= 0x2070 && c <= 0x218F) ||
         (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
         (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

bool IsNameChar(char32_t c) {
  return IsNameStartChar(c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7 ||
         (c >= 0x300 && c <= 0x36F) || c == 0x203F || c == 0x2040;
}

}  // namespace

bool IsXmlName(std::string_view utf8) {
  if (utf8.empty()) return false;
  for (size_t i = 0; i < utf8.size();) {
    size_t len;
    const std::optional<char32_t> cp = DecodeUtf8(utf8.substr(i), &len);
    if (!cp || !(i == 0 ? IsNameStartChar(*cp) : IsNameChar(*cp))) return false;
    i += len;
  }
  return true;
}

std::optional<unsigned char> ToCp1251(char32_t cp) {
  if (cp == 0) return 0;
  if (unsigned char b = Cp1251Byte(cp)) return b;
  return std::nullopt;
}

char32_t FromCp1251(unsigned char b) {
  if (b < 0x80) return b;
  if (b >= 0xC0) return 0x0410 + (b - 0xC0);
  return kCp1251High[b - 0x80];
}

std::string_view Utf8Prefix(std::string_view utf8, size_t max_bytes) {
  if (utf8.size() <= max_bytes) return utf8;
  size_t cut = max_bytes;
  // At most three continuation bytes (10xxxxxx) end a character early.
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(utf8[cut]) & 0xC0) == 0x80; ++k) --cut;
  return utf8.substr(0, cut);
}

std::string CleanUtf8(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  AppendAsUtf8<Mode::kRaw>(out, utf8);
  return out;
}

namespace {

// windows-1251 byte -> its UTF-8 form, built from the same table as
// FromCp1251 (bytes: the sequence, padded with zeros to 4; len: 1-3).
struct Cp1251Utf8 {
  char bytes[4];
  unsigned char len;
};

constexpr std::array<Cp1251Utf8, 256> kCp1251Utf8 = [] {
  std::array<Cp1251Utf8, 256> t{};
  for (int b = 0; b < 256; ++b) {
    const char32_t cp = b < 0x80    ? static_cast<char32_t>(b)
                        : b >= 0xC0 ? static_cast<char32_t>(0x0410 + (b - 0xC0))
                                    : static_cast<char32_t>(kCp1251High[b - 0x80]);
    Cp1251Utf8& e = t[b];
    if (cp < 0x80) {
      e.bytes[0] = static_cast<char>(cp);
      e.len = 1;
    } else if (cp < 0x800) {
      e.bytes[0] = static_cast<char>(0xC0 | (cp >> 6));
      e.bytes[1] = static_cast<char>(0x80 | (cp & 0x3F));
      e.len = 2;
    } else {  // every code point of the code page is in the BMP
      e.bytes[0] = static_cast<char>(0xE0 | (cp >> 12));
      e.bytes[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      e.bytes[2] = static_cast<char>(0x80 | (cp & 0x3F));
      e.len = 3;
    }
  }
  return t;
}();

// AssignCp1251AsUtf8 writes through a pointer into `out`, sized in advance.
// With the 16-byte block path: 2 bytes a byte plus kUtf8Slack, enough for
// ASCII and every letter but not for the three-byte punctuation (€ ‰ № and
// so on), so before each run of 80-BF bytes the room is grown to 3 bytes a
// byte for the rest. The block path stores at most 32 bytes from where it
// stands (two 16-byte stores, the second at most 16 past the first) and the
// table path copies 4; since each byte converted uses at most 2 bytes of room
// on the block path and at most 3 on the table path, the room before reading
// byte i stays at least 2 * (n - i) + kUtf8Slack (3 * (n - i) + kUtf8Slack
// once the table path has been taken), enough for either. Without it: 3
// bytes a byte plus kUtf8Slack from the start.
constexpr size_t kUtf8Slack = 32;

// One byte by the table: REQUIRES 4 bytes of room at d.
inline char* Cp1251ByteToUtf8(unsigned char c, char* d) {
  const Cp1251Utf8& e = kCp1251Utf8[c];
  std::memcpy(d, e.bytes, 4);
  return d + e.len;
}

#if defined(FEED_XML_TEXT_SSSE3)
// For 8 characters laid out as byte pairs (first byte, second byte) and the
// 8-bit mask of those that are ASCII: PSHUFB indices that keep both bytes of
// a two-byte character and only the first byte of an ASCII one, packed to
// the front, then 0x80 (zero). The packed length is 16 - kBitCount[mask].
constexpr std::array<std::array<unsigned char, 16>, 256> kPairCompact = [] {
  std::array<std::array<unsigned char, 16>, 256> t{};
  for (int m = 0; m < 256; ++m) {
    int k = 0;
    for (int j = 0; j < 8; ++j) {
      t[m][k++] = static_cast<unsigned char>(2 * j);
      if (!(m & (1 << j))) t[m][k++] = static_cast<unsigned char>(2 * j + 1);
    }
    while (k < 16) t[m][k++] = 0x80;
  }
  return t;
}();

// 16 bytes from kShiftDown + (16 - t), as PSHUFB indices, move the last t
// bytes of a block to its front and zero the rest; 16 bytes from kKeepFront
// + (16 - t), as an AND mask, keep the first t bytes and zero the rest.
alignas(32) constexpr unsigned char kShiftDown[32] = {0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,
                                                      11,   12,   13,   14,   15,   0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                                      0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
alignas(32) constexpr unsigned char kKeepFront[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                      0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,    0,    0,    0,    0,    0,
                                                      0,    0,    0,    0,    0,    0,    0,    0,    0,    0};

inline __m128i LoadU(const unsigned char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline uint64_t Load32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The t < 16 bytes at p, zero-padded to 16, read with overlapping loads that
// stay inside them (a copy through memory would stall on store forwarding,
// and short fields, author names, are common).
inline __m128i LoadShort(const unsigned char* p, size_t t) {
  uint64_t lo = 0, hi = 0;
  if (t >= 8) {
    lo = Load64(p);
    // Bytes 8..t-1 are the top of the 8 ending at t; two shifts, since the
    // total may be 64.
    hi = (Load64(p + t - 8) >> (8 * (15 - t))) >> 8;
  } else if (t >= 4) {
    lo = Load32(p) | (Load32(p + t - 4) << (8 * (t - 4)));
  } else if (t > 0) {
    lo = uint64_t{p[0]} | (uint64_t{p[t / 2]} << (8 * (t / 2))) | (uint64_t{p[t - 1]} << (8 * (t - 1)));
  }
  return _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo));
}

// The fast path of AssignCp1251AsUtf8, for the bulk of a Russian text: from
// s[i], converts ASCII and the letters А-я (C0-FF, U+0410-U+044F, each two
// UTF-8 bytes: C0-EF are D0 90-BF, F0-FF are D1 80-8F) 16 bytes at a time
// into d, and returns where the first other byte (80-BF) is, or n. A block
// that ends early (the end of the input, or an 80-BF byte) has its bytes from
// there on zeroed: they convert to one NUL each at the end of the output,
// which is taken back. REQUIRES: the room invariant above.
__attribute__((target("ssse3"))) inline size_t Cp1251LettersToUtf8(const unsigned char* s, size_t i, size_t n,
                                                                   char*& d) {
  char* p = d;
  while (i < n) {
    size_t t = n - i;  // bytes of the block that are input
    __m128i x;
    if (t >= 16) {
      x = LoadU(s + i);
      t = 16;
    } else if (n >= 16) {
      // The last 16 bytes of the input, moved down: no read past its end.
      x = _mm_shuffle_epi8(LoadU(s + n - 16), LoadU(kShiftDown + 16 - t));
    } else {
      x = LoadShort(s + i, t);
    }
    // 80-BF are below C0 as signed bytes (-128..-65); NUL padding is not.
    const unsigned other = Mask(_mm_cmplt_epi8(x, Splat(0xC0)));
    if (other != 0) {
      const unsigned k = static_cast<unsigned>(__builtin_ctz(other));
      if (k == 0) break;
      t = k;
      x = _mm_and_si128(x, LoadU(kKeepFront + 16 - t));
    }
    const __m128i ascii = _mm_cmpgt_epi8(x, Splat(0xFF));  // 00-7F: > -1
    // F0-FF: > -17 as signed bytes and not ASCII.
    const __m128i d1 = _mm_andnot_si128(ascii, _mm_cmpgt_epi8(x, Splat(0xEF)));
    // First byte: the ASCII byte itself, or D0 (D1 for F0-FF: D0 - (-1)).
    const __m128i first = _mm_or_si128(_mm_and_si128(ascii, x), _mm_andnot_si128(ascii, _mm_sub_epi8(Splat(0xD0), d1)));
    // Second byte (unused for ASCII): C0-EF - 30 = 90-BF, F0-FF - 70 = 80-8F.
    const __m128i second = _mm_sub_epi8(x, _mm_or_si128(Splat(0x30), _mm_and_si128(d1, Splat(0x40))));
    const unsigned m = Mask(ascii);
    const unsigned lo = m & 0xFF;
    const unsigned hi = m >> 8;
    const __m128i pairs_lo = _mm_unpacklo_epi8(first, second);
    const __m128i pairs_hi = _mm_unpackhi_epi8(first, second);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_shuffle_epi8(pairs_lo, LoadU(kPairCompact[lo].data())));
    p += 16 - kBitCount[lo];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm_shuffle_epi8(pairs_hi, LoadU(kPairCompact[hi].data())));
    p += 16 - kBitCount[hi];
    p -= 16 - t;  // the NULs the zeroed bytes wrote
    i += t;
  }
  d = p;
  return i;
}

// `out` made at least `need` bytes long, keeping what it holds; d points
// into it and is kept pointing at the same offset.
inline void GrowTo(std::string& out, char*& d, size_t need) {
  if (out.size() < need) {
    const size_t written = static_cast<size_t>(d - out.data());
    out.resize(need);
    d = out.data() + written;
  }
}

// AssignCp1251AsUtf8 with the 16-byte block path; all in one function
// compiled for SSSE3 so that the block path is inlined, its constants
// loaded once, and a short field costs one call.
__attribute__((target("ssse3"))) void AssignCp1251AsUtf8Ssse3(std::string& out, const unsigned char* s, size_t n) {
  out.resize(n * 2 + kUtf8Slack);
  char* d = out.data();
  size_t i = 0;
  for (;;) {
    i = Cp1251LettersToUtf8(s, i, n, d);
    if (i >= n) break;
    // A run of 80-BF: signs, punctuation, Ё ё and the other Cyrillic letters
    // outside А-я, some of them three bytes long.
    GrowTo(out, d, static_cast<size_t>(d - out.data()) + 3 * (n - i) + kUtf8Slack);
    do {
      d = Cp1251ByteToUtf8(s[i++], d);
    } while (i < n && (s[i] & 0xC0) == 0x80);
  }
  out.resize(static_cast<size_t>(d - out.data()));
}
#endif

}  // namespace

void AssignCp1251AsUtf8(std::string& out, std::string_view cp1251) {
  const auto* const s = reinterpret_cast<const unsigned char*>(cp1251.data());
  const size_t n = cp1251.size();
#if defined(FEED_XML_TEXT_SSSE3)
  if (HaveSsse3()) {
    AssignCp1251AsUtf8Ssse3(out, s, n);
    return;
  }
#endif
  out.resize(n * 3 + kUtf8Slack);
  char* d = out.data();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      *d++ = static_cast<char>(c);
    } else {
      d = Cp1251ByteToUtf8(c, d);
    }
  }
  out.resize(static_cast<size_t>(d - out.data()));
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : CleanUtf8(text)) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace feed
