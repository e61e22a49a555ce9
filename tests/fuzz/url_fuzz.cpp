// Fuzz target for url: whatever bytes the database hands over,
// AppendUriEncoded writes printable ASCII that encodes to itself, that
// UriEncodedLength predicts, and that percent-decodes to the characters the
// input keeps; and IsAbsoluteHttpUrl judges the encoded text as a plain
// parser of it does. Each is checked against a byte-at-a-time reference
// written here from the contract, on the input and on its suffixes (the
// fast scan goes four bytes at a time).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "url.h"
#include "xml_text.h"

namespace {

void Check(bool ok, const char* what, std::string_view in, std::string_view out) {
  if (ok) return;
  std::fprintf(stderr, "url_fuzz: %s\n  input  (%zu bytes)\n  output \"%.*s\"\n", what, in.size(),
               static_cast<int>(out.size()), out.data());
  std::abort();
}

constexpr std::string_view kKeptAscii =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

bool IsUpperHex(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

int HexValue(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// The input trimmed, without invalid UTF-8 and control characters: the
// characters the contract keeps, still UTF-8.
std::string KeptCharacters(std::string_view in) {
  while (!in.empty() && IsSpace(in.front())) in.remove_prefix(1);
  while (!in.empty() && IsSpace(in.back())) in.remove_suffix(1);
  std::string kept;
  for (size_t i = 0; i < in.size();) {
    size_t len;
    const std::optional<char32_t> cp = feed::DecodeUtf8(in.substr(i), &len);
    const bool control = cp && (*cp < 0x20 || (*cp >= 0x7F && *cp < 0xA0));
    if (cp && !control) kept.append(in.substr(i, len));
    i += len;
  }
  return kept;
}

// The contract's encoding of kept characters, one byte at a time.
std::string ReferenceEncode(std::string_view kept) {
  std::string out;
  for (size_t i = 0; i < kept.size(); ++i) {
    const char c = kept[i];
    if (kKeptAscii.find(c) != std::string_view::npos) {
      out += c;
    } else if (c == '%' && i + 2 < kept.size() && IsHex(kept[i + 1]) && IsHex(kept[i + 2])) {
      out += '%';
      out += Upper(kept[i + 1]);
      out += Upper(kept[i + 2]);
      i += 2;
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += '%';
      out += "0123456789ABCDEF"[b >> 4];
      out += "0123456789ABCDEF"[b & 0xF];
    }
  }
  return out;
}

// %XX decoded, any other '%' left as it is.
std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && IsHex(s[i + 1]) && IsHex(s[i + 2])) {
      out += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

using feed::fuzz::IsValidUtf8;

bool AllDigits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// IsAbsoluteHttpUrl's contract read on the encoded text with string
// operations.
bool ReferenceIsAbsoluteHttp(std::string_view encoded, size_t max_chars) {
  if (encoded.size() > max_chars) return false;
  const size_t colon = encoded.find(':');
  if (colon == std::string_view::npos) return false;
  std::string scheme(encoded.substr(0, colon));
  for (char& c : scheme) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (scheme != "http" && scheme != "https") return false;
  std::string_view rest = encoded.substr(colon + 1);
  if (!rest.starts_with("//")) return false;
  rest.remove_prefix(2);
  std::string_view hostport = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = hostport.find('@'); at != std::string_view::npos) {
    if (hostport.substr(0, at).find_first_of("[]") != std::string_view::npos) return false;
    hostport.remove_prefix(at + 1);
    if (hostport.find('@') != std::string_view::npos) return false;
  }
  std::string_view port;
  if (hostport.starts_with("[")) {
    const size_t close = hostport.find(']');
    if (close == std::string_view::npos || close == 1) return false;
    if (hostport.substr(1, close - 1).find('[') != std::string_view::npos) return false;
    const std::string_view after = hostport.substr(close + 1);
    if (after.empty()) return true;
    if (after[0] != ':') return false;
    port = after.substr(1);
  } else {
    const size_t c = hostport.find(':');
    const std::string_view host = hostport.substr(0, c);
    if (host.empty() || host.find_first_of("[]") != std::string_view::npos) return false;
    if (c != std::string_view::npos) port = hostport.substr(c + 1);
  }
  return AllDigits(port);
}

std::string Encode(std::string_view in) {
  std::string out;
  feed::AppendUriEncoded(out, in);
  return out;
}

void CheckEncoding(std::string_view in) {
  const std::string kept = KeptCharacters(in);
  Check(IsValidUtf8(kept), "the kept characters are not valid UTF-8", in, kept);

  std::string out = "stale";
  feed::AppendUriEncoded(out, in);
  Check(out.starts_with("stale"), "AppendUriEncoded changed what `out` held", in, out);
  out.erase(0, 5);

  Check(out == ReferenceEncode(kept), "AppendUriEncoded differs from the reference", in, out);
  Check(feed::UriEncodedLength(in) == out.size(), "UriEncodedLength differs from the length appended", in, out);
  for (size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    Check(c > ' ' && c < 0x7F, "output byte is not printable ASCII", in, out);
    Check(c == '%' || kKeptAscii.find(c) != std::string_view::npos, "output holds a character RFC 3986 excludes", in,
          out);
    if (c == '%') {
      Check(i + 2 < out.size() && IsUpperHex(out[i + 1]) && IsUpperHex(out[i + 2]),
            "'%' not followed by two upper-case hex digits", in, out);
    }
  }
  Check(Encode(out) == out, "encoding the output again changes it", in, out);
  Check(feed::UriEncodedLength(out) == out.size(), "UriEncodedLength of the output is not its length", in, out);
  // Escapes already in the text stay escapes, so both sides are decoded.
  Check(PercentDecode(out) == PercentDecode(kept), "decoding the output does not give the kept characters", in, out);
}

// The encoder and the length against the reference only.
void CheckSuffix(std::string_view in) {
  const std::string out = Encode(in);
  Check(out == ReferenceEncode(KeptCharacters(in)), "AppendUriEncoded differs from the reference on a suffix", in, out);
  Check(feed::UriEncodedLength(in) == out.size(), "UriEncodedLength differs on a suffix", in, out);
}

void CheckUrl(std::string_view in) {
  const std::string out = Encode(in);
  // No limit, and either side of the encoded length.
  const size_t limits[] = {static_cast<size_t>(-1), out.size(), out.empty() ? 0 : out.size() - 1};
  for (size_t max : limits) {
    Check(feed::IsAbsoluteHttpUrl(in, max) == ReferenceIsAbsoluteHttp(out, max),
          "IsAbsoluteHttpUrl differs from the reference", in, out);
  }
  Check(feed::IsAbsoluteHttpUrl(out) == feed::IsAbsoluteHttpUrl(in), "IsAbsoluteHttpUrl differs on the encoded text",
        in, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  CheckEncoding(in);
  CheckUrl(in);
  // The same from the next few starts, where the fast scan's four-byte
  // steps fall differently (on the first bytes only: a scan starts afresh
  // at each run); and behind a real URL's start, so that the host and path
  // checks see the fuzzed bytes.
  const std::string_view head = in.substr(0, 72);
  for (size_t k = 1; k <= std::min<size_t>(head.size(), 8); ++k) CheckSuffix(head.substr(k));
  const std::string prefixed = "https://doska.example" + std::string(in);
  CheckEncoding(prefixed);
  CheckUrl(prefixed);
  CheckUrl("http://" + std::string(in));
  return 0;
}
