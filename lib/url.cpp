#include "url.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "ascii.h"
#include "xml_text.h"

namespace feed {

namespace {

// What the encoder does with a byte, judged on the byte alone.
enum ByteClass : uint8_t {
  kEscape,    // space " < > \ ^ ` { | }: written as %XX
  kKeep,      // unreserved, gen-delims, sub-delims: copied
  kPercent,   // '%': copied before two hex digits, else %25
  kDrop,      // C0 controls and DEL
  kNonAscii,  // 0x80-0xFF: the UTF-8 decoder decides
};

constexpr std::string_view kKeptAscii =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"  // unreserved
    ":/?#[]@"                                                             // gen-delims
    "!$&'()*+,;=";                                                        // sub-delims

constexpr std::array<ByteClass, 256> kByteClass = [] {
  std::array<ByteClass, 256> t{};
  for (int c = 0; c < 256; ++c) {
    t[c] = c < 0x20 || c == 0x7F ? kDrop : c >= 0x80 ? kNonAscii : kEscape;
  }
  for (char c : kKeptAscii) t[static_cast<unsigned char>(c)] = kKeep;
  t['%'] = kPercent;
  return t;
}();

// The upper-case hex digit for a hex digit byte, 0 for any other byte.
constexpr std::array<char, 256> kHexUpper = [] {
  std::array<char, 256> t{};
  for (char c = '0'; c <= '9'; ++c) t[static_cast<unsigned char>(c)] = c;
  for (char c = 'A'; c <= 'F'; ++c) t[static_cast<unsigned char>(c)] = c;
  for (char c = 'a'; c <= 'f'; ++c) t[static_cast<unsigned char>(c)] = static_cast<char>(c - 'a' + 'A');
  return t;
}();

constexpr char kHexDigits[] = "0123456789ABCDEF";

// The end of the run of kept bytes starting at s[i].
inline size_t SkipKept(const unsigned char* s, size_t i, size_t n) {
  // Four at a time: URLs are mostly long runs of kept bytes.
  while (n - i >= 4 && kByteClass[s[i]] == kKeep && kByteClass[s[i + 1]] == kKeep && kByteClass[s[i + 2]] == kKeep &&
         kByteClass[s[i + 3]] == kKeep) {
    i += 4;
  }
  while (i < n && kByteClass[s[i]] == kKeep) ++i;
  return i;
}

// The UTF-8 character at s[i] (i < n, s[i] >= 0x80): true when it is kept,
// false when it is dropped; *len is how many bytes it spans either way.
// Invalid bytes go one at a time (DecodeUtf8 sets *len to 1); C1 controls
// go whole.
inline bool DecodeKept(const unsigned char* s, size_t i, size_t n, size_t* len) {
  const std::optional<char32_t> cp = DecodeUtf8(std::string_view(reinterpret_cast<const char*>(s + i), n - i), len);
  return cp && *cp >= 0xA0;
}

// The position of the first kept character at or after s[i] (n when none).
inline size_t NextKept(const unsigned char* s, size_t i, size_t n) {
  while (i < n) {
    const ByteClass c = kByteClass[s[i]];
    if (c == kDrop) {
      ++i;
      continue;
    }
    size_t len;
    if (c != kNonAscii || DecodeKept(s, i, n, &len)) break;
    i += len;
  }
  return i;
}

// Walks trimmed text `s` (n bytes) as AppendUriEncoded encodes it, and tells
// `sink` what to write, in order:
//   sink.Copy(p, len)   bytes written as they are (kept ASCII);
//   sink.Escape(p, len) bytes each written as %XX;
//   sink.Hex(a, b)      an escape already in the text, '%' a b (a, b hex
//                       digits of either case).
// Dropped bytes are skipped without a word. One walk for the encoder, the
// length and the URL check, so that they cannot disagree.
template <class Sink>
inline void Walk(const unsigned char* s, size_t n, Sink& sink) {
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    switch (kByteClass[c]) {
      case kKeep: {
        const size_t j = SkipKept(s, i + 1, n);
        sink.Copy(s + i, j - i);
        i = j;
        break;
      }
      case kPercent: {
        // The two digits are looked for among the characters kept, as if
        // the dropped bytes had never been there.
        const size_t a = NextKept(s, i + 1, n);
        const size_t b = a < n && kHexUpper[s[a]] != 0 ? NextKept(s, a + 1, n) : n;
        if (b < n && kHexUpper[s[b]] != 0) {
          sink.Hex(s[a], s[b]);
          i = b + 1;
        } else {
          sink.Escape(s + i, 1);
          ++i;
        }
        break;
      }
      case kEscape:
        sink.Escape(s + i, 1);
        ++i;
        break;
      case kDrop:
        ++i;
        break;
      case kNonAscii: {
        size_t len;
        if (DecodeKept(s, i, n, &len)) sink.Escape(s + i, len);
        i += len;
        break;
      }
    }
  }
}

// Writes into a buffer sized for the worst case (every byte as %XX).
struct Writer {
  char* d;
  void Copy(const unsigned char* p, size_t len) {
    std::memcpy(d, p, len);
    d += len;
  }
  void Escape(const unsigned char* p, size_t len) {
    for (size_t k = 0; k < len; ++k) {
      d[0] = '%';
      d[1] = kHexDigits[p[k] >> 4];
      d[2] = kHexDigits[p[k] & 0xF];
      d += 3;
    }
  }
  void Hex(unsigned char a, unsigned char b) {
    d[0] = '%';
    d[1] = kHexUpper[a];
    d[2] = kHexUpper[b];
    d += 3;
  }
};

struct Counter {
  size_t n = 0;
  void Copy(const unsigned char*, size_t len) { n += len; }
  void Escape(const unsigned char*, size_t len) { n += 3 * len; }
  void Hex(unsigned char, unsigned char) { n += 3; }
};

// Counts like Counter and reads the encoded text's scheme and authority on
// the way, one character at a time until the authority ends. Structure
// characters (: / ? # [ ] @) only ever come from Copy; an escape is an
// ordinary character of whatever part it falls in.
class HttpUrlShape {
 public:
  size_t length = 0;

  void Copy(const unsigned char* p, size_t len) {
    length += len;
    for (size_t k = 0; k < len && state_ < kPath; ++k) {
      // Most of an authority is host name: counted here, not stepped.
      if (state_ == kAuthority && (host_ == kRegName || host_ == kLiteral) && !kAuthorityDelimiter[p[k]]) {
        ++host_len_;
      } else {
        Step(static_cast<char>(p[k]));
      }
    }
  }
  void Escape(const unsigned char*, size_t len) {
    length += 3 * len;
    if (state_ < kPath) Step(kOther);
  }
  void Hex(unsigned char, unsigned char) {
    length += 3;
    if (state_ < kPath) Step(kOther);
  }
  // True when the text ended past a valid authority.
  bool Valid() {
    if (state_ == kAuthority) EndAuthority();
    return state_ == kPath;
  }

 private:
  // The characters that mean something in an authority; inside a host
  // name or an IP literal the others only make it longer.
  static constexpr std::array<bool, 256> kAuthorityDelimiter = [] {
    std::array<bool, 256> t{};
    for (char c : std::string_view("/?#@:[]")) t[static_cast<unsigned char>(c)] = true;
    return t;
  }();

  // Stands for an escaped character, which is none of the structure
  // characters, nor a letter of the scheme, nor a digit of the port.
  static constexpr char kOther = '\0';

  enum State { kScheme, kSlash1, kSlash2, kAuthority, kPath, kBad };
  // Where in [userinfo@]host[:port] the authority stands.
  enum Host { kHostStart, kRegName, kLiteral, kAfterLiteral, kPort, kHostBad };

  void Step(char c) {
    switch (state_) {
      case kScheme:
        if (c == ':') {
          const std::string_view scheme(scheme_, scheme_len_);
          state_ = scheme == "http" || scheme == "https" ? kSlash1 : kBad;
        } else if (scheme_len_ < sizeof scheme_ && c != kOther) {
          scheme_[scheme_len_++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        } else {
          state_ = kBad;
        }
        return;
      case kSlash1:
      case kSlash2:
        state_ = c == '/' ? static_cast<State>(state_ + 1) : kBad;
        return;
      case kAuthority:
        if (c == '/' || c == '?' || c == '#') {
          EndAuthority();
        } else if (c == '@') {
          // What came before was userinfo, which has no brackets and comes
          // once; the host starts again.
          if (segment_bracket_ || saw_at_) {
            state_ = kBad;
          } else {
            saw_at_ = true;
            host_ = kHostStart;
            host_len_ = 0;
          }
        } else {
          StepHost(c);
        }
        return;
      case kPath:
      case kBad:
        return;
    }
  }

  void StepHost(char c) {
    if (c == '[' || c == ']') segment_bracket_ = true;
    switch (host_) {
      case kHostStart:
        host_ = c == '[' ? kLiteral : c == ':' ? kPort : c == ']' ? kHostBad : kRegName;
        if (host_ == kRegName) ++host_len_;
        return;
      case kRegName:
        if (c == ':') {
          host_ = kPort;
        } else if (c == '[' || c == ']') {
          host_ = kHostBad;
        } else {
          ++host_len_;
        }
        return;
      case kLiteral:
        if (c == ']') {
          host_ = host_len_ > 0 ? kAfterLiteral : kHostBad;
        } else if (c == '[') {
          host_ = kHostBad;
        } else {
          ++host_len_;
        }
        return;
      case kAfterLiteral:
        host_ = c == ':' ? kPort : kHostBad;
        return;
      case kPort:
        // A ':' here may still turn out to be userinfo's (user:password@),
        // so a bad port is only final when the authority ends.
        if (c < '0' || c > '9') host_ = kHostBad;
        return;
      case kHostBad:
        return;
    }
  }

  void EndAuthority() {
    const bool host_ok = host_len_ > 0 && (host_ == kRegName || host_ == kAfterLiteral || host_ == kPort);
    state_ = host_ok ? kPath : kBad;
  }

  State state_ = kScheme;
  char scheme_[5] = {};
  size_t scheme_len_ = 0;
  Host host_ = kHostStart;
  size_t host_len_ = 0;
  bool segment_bracket_ = false;
  bool saw_at_ = false;
};

inline const unsigned char* Bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

}  // namespace

void AppendUriEncoded(std::string& out, std::string_view text) {
  text = TrimSpace(text);
  const unsigned char* const s = Bytes(text);
  const size_t n = text.size();
  // The common case: a URL that is already all kept ASCII.
  const size_t plain = SkipKept(s, 0, n);
  if (plain == n) {
    out.append(text);
    return;
  }
  // Nothing grows more than threefold (one byte, %XX): size once, write
  // through a pointer, cut to what was written.
  const size_t start = out.size();
  out.resize(start + plain + 3 * (n - plain));
  Writer w{out.data() + start};
  w.Copy(s, plain);
  Walk(s + plain, n - plain, w);
  out.resize(static_cast<size_t>(w.d - out.data()));
}

size_t UriEncodedLength(std::string_view text) {
  text = TrimSpace(text);
  Counter c;
  Walk(Bytes(text), text.size(), c);
  return c.n;
}

namespace {

// The common case, decided without the full walk: "http://" or "https://",
// a host of letters, digits, dots and hyphens (and a port), then only
// bytes the encoder keeps as they are. Such a URL is its own encoding.
// Returns nullopt when the text is not of that kind (the walk decides).
std::optional<bool> PlainHttpUrl(std::string_view text, size_t max_chars) {
  size_t at = text.rfind("http://", 0) == 0 ? 7 : text.rfind("https://", 0) == 0 ? 8 : 0;
  if (at == 0) return std::nullopt;
  const size_t host = at;
  while (at < text.size()) {
    const char c = text[at];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) break;
    ++at;
  }
  if (at == host) return std::nullopt;
  if (at < text.size() && text[at] == ':') {
    ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  }
  if (at < text.size() && text[at] != '/' && text[at] != '?' && text[at] != '#') return std::nullopt;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  if (SkipKept(b, at, text.size()) != text.size()) return std::nullopt;
  return text.size() <= max_chars;
}

}  // namespace

bool IsAbsoluteHttpUrl(std::string_view text, size_t max_chars) {
  text = TrimSpace(text);
  if (auto plain = PlainHttpUrl(text, max_chars)) return *plain;
  HttpUrlShape shape;
  Walk(Bytes(text), text.size(), shape);
  return shape.Valid() && shape.length <= max_chars;
}

std::string QueryComponentEncoded(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace feed
