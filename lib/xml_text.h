// Writing text into an XML document in the feed's output encoding, in one
// pass: UTF-8 in (possibly invalid, straight from the database), escaped
// bytes out.
//
// Rules (FEEDS.md, "Common to every feed"):
//  - Invalid UTF-8 (stray continuation bytes, overlong forms, surrogates,
//    code points past U+10FFFF, truncated sequences) never reaches the
//    output: each invalid byte is dropped.
//  - Characters XML 1.0 forbids (anything outside #x9 #xA #xD #x20-#xD7FF
//    #xE000-#xFFFD #x10000-#x10FFFF) are dropped; they are illegal even as
//    references.
//  - A character the output charset cannot hold is written as a decimal
//    numeric character reference of its code point (&#128512;), never '?'.
//  - Text context escapes & < > ; attribute context also escapes " (as
//    &quot;) and writes TAB, LF, CR as &#9; &#10; &#13; so that attribute
//    normalisation keeps them.
//  - CDATA context writes the content raw, except that ']]>' is split across
//    two sections (']]' + ']]><![CDATA[' + '>') and a character the charset
//    cannot hold closes the section, is written as a reference and a new
//    section opens: "]]>&#128512;<![CDATA[". The caller writes the opening
//    "<![CDATA[" and the closing "]]>" around the content.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace feed {

// An output character set: UTF-8 and windows-1251, each with fast paths of
// its own, or any other single-byte character set that iconv knows and
// that keeps ASCII as it is (KOI8-R, ISO-8859-5, windows-1252, ...), read
// from iconv once into a table when it is named. A value: copies share the
// table, which never changes.
class Charset {
 public:
  static const Charset kUtf8;
  static const Charset kWindows1251;

  // "UTF-8"/"utf8" and "windows-1251"/"cp1251" (case-insensitive) are the
  // built-in ones; any other name is asked of iconv. nullopt, with the
  // reason in *why, for a name iconv does not know, a character set of
  // more than one byte a character, or one that writes ASCII otherwise.
  static std::optional<Charset> Named(std::string_view name, std::string* why = nullptr);

  // The name written in the XML declaration and Content-Type: "UTF-8",
  // "windows-1251", or the other set's name as it was given.
  const char* name() const;
  // Whether the set has a character for `cp` (UTF-8 has them all).
  bool Has(char32_t cp) const;

  friend bool operator==(const Charset& a, const Charset& b) { return a.kind_ == b.kind_ && a.table_ == b.table_; }

  struct Table;  // a single-byte set: each byte's code point and back
  enum class Kind { kUtf8, kWindows1251, kTable };
  Kind kind() const { return kind_; }
  const Table* table() const { return table_.get(); }

 private:
  constexpr explicit Charset(Kind kind) : kind_(kind) {}
  explicit Charset(std::shared_ptr<const Table> table) : kind_(Kind::kTable), table_(std::move(table)) {}

  Kind kind_;
  std::shared_ptr<const Table> table_;
};

// Charset::Named without the reason.
std::optional<Charset> CharsetFromName(std::string_view name);
// cs.name().
const char* CharsetName(const Charset& cs);

enum class XmlContext { kText, kAttribute, kCData };

// Appends `utf8` to `out`, cleaned, escaped for `ctx` and encoded in `cs`.
void AppendXml(std::string& out, std::string_view utf8, XmlContext ctx, const Charset& cs);

// Appends windows-1251 text `cp1251` (bytes straight from a cp1251
// connection) to `out`, a windows-1251 document, cleaned and escaped for
// `ctx` by the rules above without a trip through UTF-8: the bytes the
// code page defines pass as they are. Byte for byte what
// AppendXml(out, <cp1251 as UTF-8>, ctx, Charset::kWindows1251) appends
// (so 0x98, undefined, which reads as U+FFFD, becomes "&#65533;", and a
// CDATA section's "]]" may end what `out` already holds).
void AppendXmlCp1251(std::string& out, std::string_view cp1251, XmlContext ctx);

// Appends `utf8` to `out` encoded in `cs` with no escaping: for template
// literals (tag names, literal text already escaped by the template parser).
// Characters `cs` cannot hold become references, as above.
void AppendEncoded(std::string& out, std::string_view utf8, const Charset& cs);

// Decodes one UTF-8 sequence at the start of `s`. On success returns the code
// point and sets *len to the sequence length (1-4). On an invalid sequence
// returns std::nullopt and sets *len to 1 (the byte to skip).
// REQUIRES: !s.empty().
inline std::optional<char32_t> DecodeUtf8(std::string_view s, size_t* len);

// Appends code point `cp` (REQUIRES: a valid scalar value) as UTF-8.
void AppendUtf8(std::string& out, char32_t cp);

// True when XML 1.0 allows `cp` in a document.
bool IsXmlChar(char32_t cp);

// True when `utf8` is an XML 1.0 Name (Fifth Edition: a NameStartChar, then
// NameChars), in valid UTF-8. For element and attribute names, which no
// escaping can repair.
bool IsXmlName(std::string_view utf8);

// The windows-1251 byte for `cp`, or std::nullopt when the code page has none.
std::optional<unsigned char> ToCp1251(char32_t cp);

// The code point of windows-1251 byte `b` (0x98, undefined, gives U+FFFD
// which is never produced by ToCp1251).
char32_t FromCp1251(unsigned char b);

// Sets `out` to windows-1251 text `cp1251` converted to UTF-8 (every byte
// maps to a code point; 0x98, undefined, gives U+FFFD). For reading a cp1251
// database connection.
void AssignCp1251AsUtf8(std::string& out, std::string_view cp1251);

// Returns `utf8` with invalid sequences and XML-illegal characters removed,
// still UTF-8. Used where text is tested before it is written (rules such as
// "required field is empty").
std::string CleanUtf8(std::string_view utf8);

// The longest prefix of `utf8` of at most `max_bytes` bytes that does not
// end inside a multi-byte character.
std::string_view Utf8Prefix(std::string_view utf8, size_t max_bytes);

// `text` as a JSON string, quotes included: CleanUtf8'd, '"' and backslash
// escaped, control characters as \u00XX.
std::string JsonString(std::string_view text);

namespace utf8_detail {

constexpr char32_t kInvalid = 0xFFFFFFFF;

// The code point of the UTF-8 sequence at p (n >= 1 bytes available) and
// its length, or kInvalid and length 1.
inline char32_t Decode(const unsigned char* p, size_t n, size_t* len) {
  *len = 1;
  const unsigned char b0 = p[0];
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
    return kInvalid;  // continuation byte, C0/C1 overlong lead, F5-FF
  }
  if (n < need || p[1] < lo || p[1] > hi) return kInvalid;
  cp = (cp << 6) | (p[1] & 0x3F);
  for (size_t k = 2; k < need; ++k) {
    if (!((p[k] & 0xC0) == 0x80)) return kInvalid;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  *len = need;
  return cp;
}

}  // namespace utf8_detail

inline std::optional<char32_t> DecodeUtf8(std::string_view s, size_t* len) {
  const char32_t cp = utf8_detail::Decode(reinterpret_cast<const unsigned char*>(s.data()), s.size(), len);
  if (cp == utf8_detail::kInvalid) return std::nullopt;
  return cp;
}

}  // namespace feed
