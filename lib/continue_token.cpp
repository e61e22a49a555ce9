#include "continue_token.h"

#include "error.h"

#include <array>
#include <stdexcept>

// Token layout. The header promises at most 32 characters of [0-9A-Za-z];
// 62^32 is just over 2^190, so the token is one number below 2^190 written
// in base 62, most significant digit first, with no leading '0'. Its bits,
// from the least significant:
//
//   48  MAC: SipHash-2-4 under (k0, k1) of payload bytes + '\0' + binding,
//       low 48 bits
//    4  version (1)
//    2  count of keyset values, 1 to 3
//       run_start, then each keyset value, each as one of:
//         0   + 32 bits   v in [0, 2^32)                       33 bits
//         10  + 34 bits   v - 2^32, v in [2^32, 2^32 + 2^34)   36 bits
//         110 + 16 bits   zigzag(v), v in [-2^15, 2^15)        19 bits
//         111 + 48 bits   zigzag(v), anything else             51 bits
//       (prefix bits in reading order, which starts at the low end)
//
// Payload bytes are the bits after the MAC, little-endian, zero-padded to a
// whole byte. Fields are read from the low end, so leading zero bits need no
// sentinel: the reader knows where it stops and demands that nothing but
// zeros lie beyond.
//
// Why not byte varints: four ~32-bit values (run_start and two epoch
// seconds, one id up to 2^32) take 5 LEB128 bytes each; with a version byte
// and the MAC that is 27 bytes, 37 base62 characters. The bit classes above
// spend 33 bits on anything below 2^32 (every epoch second until 2106) and
// 36 on an id up to 2^32 + 2^34, so that token is 189 bits: 32 characters.
// Each value has exactly one encoding (the cheapest class that holds it);
// the decoder rejects any other.
//
// So the header's REQUIRES is narrowed by the length limit: Encode throws
// std::length_error when the values need more than 136 bits together. What
// always fits: run_start and one keyset value anywhere in [-2^47, 2^47);
// run_start in [-2^15, 2^32) and two keyset values anywhere; run_start and
// three keyset values all in [-2^15, 2^32), or with one of the four in
// [2^32, 2^32 + 2^34) instead. Values outside [-2^47, 2^47), or a keyset of 0
// or more than 3 values, throw std::invalid_argument.

namespace feed {
namespace {

constexpr int kMacBits = 48;
constexpr int kVersionBits = 4;
constexpr int kCountBits = 2;
constexpr uint64_t kVersion = 1;
constexpr int kMaxBits = 190;  // 2^190 <= 62^32
constexpr size_t kMaxChars = 32;
constexpr int kMaxKeyset = 3;
constexpr int64_t kValueLimit = int64_t{1} << 47;
constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

uint64_t Rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

void SipRound(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3) {
  v0 += v1;
  v1 = Rotl(v1, 13);
  v1 ^= v0;
  v0 = Rotl(v0, 32);
  v2 += v3;
  v3 = Rotl(v3, 16);
  v3 ^= v2;
  v0 += v3;
  v3 = Rotl(v3, 21);
  v3 ^= v0;
  v2 += v1;
  v1 = Rotl(v1, 17);
  v1 ^= v2;
  v2 = Rotl(v2, 32);
}

uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ (v < 0 ? ~uint64_t{0} : 0); }
int64_t UnZigZag(uint64_t z) { return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1); }

// A 192-bit unsigned number, little-endian 64-bit limbs: the whole token.
class Number {
 public:
  // REQUIRES: 0 < n <= 64, pos + n <= 192, the bits are still zero.
  void Put(int pos, int n, uint64_t v) {
    if (n < 64) v &= (uint64_t{1} << n) - 1;
    const int limb = pos / 64, shift = pos % 64;
    w_[limb] |= v << shift;
    if (shift != 0 && shift + n > 64) w_[limb + 1] |= v >> (64 - shift);
  }
  // REQUIRES: 0 < n <= 64, pos + n <= 192.
  uint64_t Get(int pos, int n) const {
    const int limb = pos / 64, shift = pos % 64;
    uint64_t v = w_[limb] >> shift;
    if (shift != 0 && shift + n > 64) v |= w_[limb + 1] << (64 - shift);
    return n < 64 ? v & ((uint64_t{1} << n) - 1) : v;
  }
  // True when no bit at or above `pos` is set.
  bool ZeroFrom(int pos) const {
    for (int p = pos; p < 192; p = (p / 64 + 1) * 64) {
      if (Get(p, 64 - p % 64) != 0) return false;
    }
    return true;
  }
  bool IsZero() const { return w_[0] == 0 && w_[1] == 0 && w_[2] == 0; }

  // *this = *this / d, returning the remainder.
  uint64_t DivMod(uint64_t d) {
    unsigned __int128 rem = 0;
    for (int i = 2; i >= 0; --i) {
      const unsigned __int128 cur = (rem << 64) | w_[i];
      w_[i] = static_cast<uint64_t>(cur / d);
      rem = cur % d;
    }
    return static_cast<uint64_t>(rem);
  }
  // *this = *this * m + a; the caller keeps the result below 2^192.
  void MulAdd(uint64_t m, uint64_t a) {
    unsigned __int128 carry = a;
    for (uint64_t& limb : w_) {
      const unsigned __int128 cur = static_cast<unsigned __int128>(limb) * m + carry;
      limb = static_cast<uint64_t>(cur);
      carry = cur >> 64;
    }
  }

 private:
  std::array<uint64_t, 3> w_{};
};

enum class ValueClass { kWord, kWide, kSmall, kFull };

ValueClass ClassOf(int64_t v) {
  if (ZigZag(v) < (uint64_t{1} << 16)) return ValueClass::kSmall;
  if (v >= 0 && v < (int64_t{1} << 32)) return ValueClass::kWord;
  if (v >= (int64_t{1} << 32) && v < (int64_t{1} << 32) + (int64_t{1} << 34)) {
    return ValueClass::kWide;
  }
  return ValueClass::kFull;
}

int CostOf(int64_t v) {
  switch (ClassOf(v)) {
    case ValueClass::kWord:
      return 1 + 32;
    case ValueClass::kWide:
      return 2 + 34;
    case ValueClass::kSmall:
      return 3 + 16;
    case ValueClass::kFull:
      return 3 + 48;
  }
  return 0;
}

class BitWriter {
 public:
  explicit BitWriter(Number* n, int pos) : n_(n), pos_(pos) {}
  int pos() const { return pos_; }
  void Put(int bits, uint64_t v) {
    n_->Put(pos_, bits, v);
    pos_ += bits;
  }
  void PutValue(int64_t v) {
    // Prefix bits go in first: 0b01 is the bit 1 then the bit 0.
    switch (ClassOf(v)) {
      case ValueClass::kWord:
        Put(1, 0);
        Put(32, static_cast<uint64_t>(v));
        break;
      case ValueClass::kWide:
        Put(2, 0b01);
        Put(34, static_cast<uint64_t>(v - (int64_t{1} << 32)));
        break;
      case ValueClass::kSmall:
        Put(3, 0b011);
        Put(16, ZigZag(v));
        break;
      case ValueClass::kFull:
        Put(3, 0b111);
        Put(48, ZigZag(v));
        break;
    }
  }

 private:
  Number* n_;
  int pos_;
};

// Bounds-checked: a decoded token is attacker-chosen, so every read may run
// off the end and must say so instead.
class BitReader {
 public:
  BitReader(const Number& n, int pos) : n_(n), pos_(pos) {}
  int pos() const { return pos_; }
  bool Get(int bits, uint64_t* v) {
    if (pos_ + bits > kMaxBits) return false;
    *v = n_.Get(pos_, bits);
    pos_ += bits;
    return true;
  }
  bool GetValue(int64_t* v) {
    uint64_t bit = 0, field = 0;
    ValueClass cls;
    if (!Get(1, &bit)) return false;
    if (bit == 0) {
      if (!Get(32, &field)) return false;
      cls = ValueClass::kWord;
      *v = static_cast<int64_t>(field);
    } else {
      if (!Get(1, &bit)) return false;
      if (bit == 0) {
        if (!Get(34, &field)) return false;
        cls = ValueClass::kWide;
        *v = static_cast<int64_t>(field) + (int64_t{1} << 32);
      } else {
        if (!Get(1, &bit)) return false;
        cls = bit == 0 ? ValueClass::kSmall : ValueClass::kFull;
        if (!Get(bit == 0 ? 16 : 48, &field)) return false;
        *v = UnZigZag(field);
      }
    }
    return ClassOf(*v) == cls;  // one encoding per value
  }

 private:
  const Number& n_;
  int pos_;
};

// The MAC input: payload bits [kMacBits, end) as bytes, then the binding.
// The payload is self-delimiting (its count field says where it ends), so
// payload + '\0' + binding cannot be split two ways.
uint64_t Mac(uint64_t k0, uint64_t k1, const Number& n, int end, std::string_view binding) {
  std::string msg;
  for (int pos = kMacBits; pos < end; pos += 8) msg.push_back(static_cast<char>(n.Get(pos, 8)));
  msg.push_back('\0');
  msg.append(binding);
  return SipHash24(k0, k1, msg) & ((uint64_t{1} << kMacBits) - 1);
}

// What the MAC covers after the payload: the binding and, when the token
// carries one, the position (a binding never holds '\0'). Without a
// position it is the binding alone, as before positions existed, so older
// tokens stay valid.
std::string MacBinding(std::string_view binding, const GtidPosition& position) {
  std::string b(binding);
  if (!position.empty()) b.append(std::string_view("\0gtid ", 6)).append(position.ToString());
  return b;
}

constexpr char kPositionMark = '_';

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  if (c >= 'a' && c <= 'z') return c - 'a' + 36;
  return -1;
}

}  // namespace

uint64_t SipHash24(uint64_t k0, uint64_t k1, std::string_view data) {
  uint64_t v0 = 0x736f6d6570736575ULL ^ k0;
  uint64_t v1 = 0x646f72616e646f6dULL ^ k1;
  uint64_t v2 = 0x6c7967656e657261ULL ^ k0;
  uint64_t v3 = 0x7465646279746573ULL ^ k1;
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const size_t n = data.size();
  const size_t whole = n - n % 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = 0;
    for (int j = 7; j >= 0; --j) m = (m << 8) | p[i + j];
    v3 ^= m;
    SipRound(v0, v1, v2, v3);
    SipRound(v0, v1, v2, v3);
    v0 ^= m;
  }
  uint64_t last = static_cast<uint64_t>(n & 0xff) << 56;
  for (size_t j = n % 8; j > 0; --j) {
    last |= static_cast<uint64_t>(p[whole + j - 1]) << (8 * (j - 1));
  }
  v3 ^= last;
  SipRound(v0, v1, v2, v3);
  SipRound(v0, v1, v2, v3);
  v0 ^= last;
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) SipRound(v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

// The config secret is text of any length and quality; SipHash under a fixed
// public key, once per half with distinct prefixes, spreads it into a
// 128-bit key.
ContinueTokenCodec::ContinueTokenCodec(std::string_view secret) {
  if (secret.empty()) throw ConfigError("the continue token secret is empty");
  constexpr uint64_t kDeriveK0 = 0x746e6f632e646566ULL;  // "fed.cont"
  constexpr uint64_t kDeriveK1 = 0x6e656b6f742e6575ULL;  // "ue.token"
  k0_ = SipHash24(kDeriveK0, kDeriveK1, std::string("continue-token k0\0", 18).append(secret));
  k1_ = SipHash24(kDeriveK0, kDeriveK1, std::string("continue-token k1\0", 18).append(secret));
}

std::string Hex64(uint64_t v) {
  static const char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = kHex[v & 15];
  return s;
}

namespace {
// "7 days", "12 hours", "5400 seconds".
std::string Duration(int64_t seconds) {
  if (seconds % 86400 == 0) return std::to_string(seconds / 86400) + (seconds == 86400 ? " day" : " days");
  if (seconds % 3600 == 0) return std::to_string(seconds / 3600) + (seconds == 3600 ? " hour" : " hours");
  return std::to_string(seconds) + " seconds";
}
}  // namespace

std::string RunStartUnfit(int64_t run_start, int64_t now, int64_t max_age) {
  // `now` is a real moment and max_age at most weeks: neither sum overflows.
  if (run_start < now - max_age) return "began more than " + Duration(max_age) + " ago";
  if (run_start > now + kRunStartAhead) return "starts more than " + Duration(kRunStartAhead) + " from now";
  return "";
}

std::string ContinueTokenCodec::Unfit(int64_t run_start, const std::vector<int64_t>& keyset) {
  if (keyset.empty() || keyset.size() > kMaxKeyset) return "a continue token holds 1 to 3 keyset values";
  int bits = kMacBits + kVersionBits + kCountBits + CostOf(run_start);
  bool in_range = run_start >= -kValueLimit && run_start < kValueLimit;
  for (int64_t v : keyset) {
    bits += CostOf(v);
    in_range = in_range && v >= -kValueLimit && v < kValueLimit;
  }
  if (!in_range) return "a keyset value is outside [-2^47, 2^47), which a continue token cannot carry";
  if (bits > kMaxBits) {
    return "the keyset values need " + std::to_string(bits) + " bits; at most 190 fit a 32-character continue token";
  }
  return "";
}

std::string ContinueTokenCodec::Encode(const ContinueToken& token, std::string_view binding) const {
  if (std::string why = Unfit(token); !why.empty()) throw InternalError(why);

  Number n;
  BitWriter w(&n, kMacBits);
  w.Put(kVersionBits, kVersion);
  w.Put(kCountBits, token.keyset.size());
  w.PutValue(token.run_start);
  for (int64_t v : token.keyset) w.PutValue(v);
  n.Put(0, kMacBits, Mac(k0_, k1_, n, w.pos(), MacBinding(binding, token.position)));

  std::string text;
  while (!n.IsZero()) text.push_back(kAlphabet[n.DivMod(62)]);
  std::string out(text.rbegin(), text.rend());
  if (out.size() > kMaxChars) throw InternalError("continue token longer than 32 characters");
  if (!token.position.empty()) out += kPositionMark + token.position.TokenForm();
  return out;
}

std::optional<ContinueToken> ContinueTokenCodec::Decode(std::string_view text, std::string_view binding) const {
  GtidPosition position;
  if (const size_t mark = text.find(kPositionMark); mark != std::string_view::npos) {
    auto p = GtidPosition::ParseTokenForm(text.substr(mark + 1));
    if (!p) return std::nullopt;
    position = std::move(*p);
    text = text.substr(0, mark);
  }
  // A leading '0' would decode to the same number: only one spelling counts.
  if (text.empty() || text.size() > kMaxChars || text.front() == '0') return std::nullopt;
  Number n;
  for (char c : text) {
    const int d = DigitValue(c);
    if (d < 0) return std::nullopt;
    n.MulAdd(62, static_cast<uint64_t>(d));  // 62^32 < 2^191: cannot overflow
  }

  BitReader r(n, kMacBits);
  uint64_t version = 0, count = 0;
  if (!r.Get(kVersionBits, &version) || version != kVersion) return std::nullopt;
  if (!r.Get(kCountBits, &count) || count < 1 || count > kMaxKeyset) return std::nullopt;
  ContinueToken token;
  if (!r.GetValue(&token.run_start)) return std::nullopt;
  token.keyset.resize(count);
  for (int64_t& v : token.keyset) {
    if (!r.GetValue(&v)) return std::nullopt;
  }
  if (!n.ZeroFrom(r.pos())) return std::nullopt;  // trailing bits

  if ((Mac(k0_, k1_, n, r.pos(), MacBinding(binding, position)) ^ n.Get(0, kMacBits)) != 0) return std::nullopt;
  token.position = std::move(position);
  return token;
}

}  // namespace feed
