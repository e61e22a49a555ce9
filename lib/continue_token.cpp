#include "continue_token.h"

#include "error.h"

#include <array>

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
// So what the header's Unfit allows is narrowed by the length limit: Encode
// throws FeedError(kInternal), with Unfit's reason, when the values need
// more than 136 bits together. What always fits: run_start and one keyset
// value anywhere in [-2^47, 2^47); run_start in [-2^15, 2^32) and two keyset
// values anywhere; run_start and three keyset values all in [-2^15, 2^32),
// or with one of the four in [2^32, 2^32 + 2^34) instead. Values outside
// [-2^47, 2^47), or a keyset of 0 or more than 3 values, throw the same.

// Layout 2 (issue #22): a token that carries a replication position. The
// position used to follow the 32 characters as '_' and its text
// ("..._0.1.4711"), which no longer meets the Yads limit of 32 letters and
// digits; it is now packed in the same number below 2^190, from the least
// significant bit:
//
//   40  MAC: SipHash-2-4 under (k0, k1) of payload bytes + '\0' + run_start
//       (8 bytes, little-endian) + binding, low 40 bits
//    4  version (2)
//    2  count of keyset values, 1 to 3
//   22  run_start modulo 2^22 (48.5 days): the decoder is given `now`, and a
//       run it may continue started in [now - kMaxRunSecondsLimit,
//       now + kRunStartAhead], 32 days, so the residue names one moment of
//       the window (the latest one, at most now + kRunStartAhead). The MAC
//       covers the whole run_start: a token older than the window decodes to
//       another moment and fails the MAC.
//       each keyset value, in the classes of layout 1
//       the position: gamma(count of domains, 1 to 16), then per domain,
//       ascending: delta(domain - previous domain - 1, the first domain
//       itself), delta(server id), seq as 6 bits m then, m = 0, 1 bit (seq 0
//       or 1), else the m low bits of seq, whose top bit is bit m
//       (2^m <= seq < 2^(m+1)).
//   gamma(x), x >= 1: N = floor(log2 x) zero bits, a one, the N low bits of x.
//   delta(v), v < 2^32: x = v + 1, gamma(N + 1), the N low bits of x.
//
// What that costs: a position of one domain (0-1-N) is 12 bits plus the
// width of N, 44 bits for N near 2^32; with run_start and the Yads keyset
// (an epoch second, an id below 2^32: 66 bits), 172 of 190 bits, so N may
// reach 2^44 and a second domain of a few thousand transactions fits too.
// A token whose position does not fit (many domains, huge numbers, wide
// keyset values) is written in layout 1, without its position: such a
// token's next page is read from the primary, which has every position,
// so the run is still never read at an older state (replica_set.h).
//
// Why 40 bits of MAC here: a forger must send about 2^40 requests for one
// token that decodes (35 years at 1000 a second), and gains nothing a robot
// could not have anyway: rows of a public feed from a keyset position of its
// choice (checked as any decoded position is), a run start within the
// window, or a replication position no server reaches (each replica waits
// replica_wait seconds, then the primary serves). Layout 1 keeps its 48.
//
// Layout 0 (decode only, tokens of the build before issue #22): a layout 1
// token, '_', the position's token form (gtid_position.h), the MAC covering
// the position as MacBinding says. Such tokens live at most max_run_seconds;
// they are still taken, so a run in progress across the upgrade goes on.

namespace feed {
namespace {

constexpr int kMacBits = 48;
constexpr int kMacBits2 = 40;
constexpr uint64_t kVersion2 = 2;
constexpr int kRunStartBits2 = 22;
static_assert(kMaxRunSecondsLimit + kRunStartAhead < (int64_t{1} << kRunStartBits2),
              "a run start residue must name one moment of the window");
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

int FloorLog2(uint64_t x) { return 63 - __builtin_clzll(x); }  // REQUIRES: x >= 1
int GammaCost(uint64_t x) { return 2 * FloorLog2(x) + 1; }
int DeltaCost(uint64_t v) {
  const int n = FloorLog2(v + 1);
  return GammaCost(static_cast<uint64_t>(n) + 1) + n;
}
int SeqCost(uint64_t seq) { return 6 + (seq <= 1 ? 1 : FloorLog2(seq)); }

// The bits layout 2 spends on `p` (not empty).
int PositionCost(const GtidPosition& p) {
  int bits = GammaCost(p.gtids().size());
  int64_t previous = -1;
  for (const Gtid& g : p.gtids()) {
    bits += DeltaCost(static_cast<uint64_t>(g.domain - previous - 1)) + DeltaCost(g.server) + SeqCost(g.seq);
    previous = g.domain;
  }
  return bits;
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
  // REQUIRES: x >= 1.
  void PutGamma(uint64_t x) {
    const int n = FloorLog2(x);
    if (n > 0) Put(n, 0);
    Put(1, 1);
    if (n > 0) Put(n, x);
  }
  // REQUIRES: v < 2^32.
  void PutDelta(uint64_t v) {
    const uint64_t x = v + 1;
    const int n = FloorLog2(x);
    PutGamma(static_cast<uint64_t>(n) + 1);
    if (n > 0) Put(n, x);
  }
  void PutSeq(uint64_t seq) {
    const int m = seq <= 1 ? 0 : FloorLog2(seq);
    Put(6, static_cast<uint64_t>(m));
    Put(m == 0 ? 1 : m, seq);
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
  // At most `max_n` leading zeros (x < 2^(max_n + 1)).
  bool GetGamma(int max_n, uint64_t* x) {
    int n = 0;
    uint64_t bit = 0;
    for (;;) {
      if (!Get(1, &bit)) return false;
      if (bit == 1) break;
      if (++n > max_n) return false;
    }
    uint64_t low = 0;
    if (n > 0 && !Get(n, &low)) return false;
    *x = (uint64_t{1} << n) | low;
    return true;
  }
  // A value below 2^32.
  bool GetDelta(uint64_t* v) {
    uint64_t n1 = 0, low = 0;
    if (!GetGamma(5, &n1) || n1 > 33) return false;
    const int n = static_cast<int>(n1) - 1;
    if (n > 0 && !Get(n, &low)) return false;
    const uint64_t x = (uint64_t{1} << n) | low;
    if (x > (uint64_t{1} << 32)) return false;
    *v = x - 1;
    return true;
  }
  bool GetSeq(uint64_t* seq) {
    uint64_t m = 0, low = 0;
    if (!Get(6, &m) || !Get(m == 0 ? 1 : static_cast<int>(m), &low)) return false;
    *seq = m == 0 ? low : (uint64_t{1} << m) | low;
    return true;
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

// Layout 2's MAC: payload bits [kMacBits2, end) as bytes, '\0', the whole
// run_start (8 bytes, little-endian: the payload holds only its residue),
// then the binding. The payload's first byte holds version 2, layout 1's
// MAC input never does at that place: the two cannot be confused.
uint64_t Mac2(uint64_t k0, uint64_t k1, const Number& n, int end, int64_t run_start, std::string_view binding) {
  std::string msg;
  for (int pos = kMacBits2; pos < end; pos += 8) msg.push_back(static_cast<char>(n.Get(pos, 8)));
  msg.push_back('\0');
  for (int i = 0; i < 8; ++i) msg.push_back(static_cast<char>(static_cast<uint64_t>(run_start) >> (8 * i)));
  msg.append(binding);
  return SipHash24(k0, k1, msg) & ((uint64_t{1} << kMacBits2) - 1);
}

// The run start in (now + kRunStartAhead - 2^22, now + kRunStartAhead]
// whose residue modulo 2^22 is `residue`.
int64_t RunStartNear(uint64_t residue, int64_t now) {
  constexpr int64_t kSpan = int64_t{1} << kRunStartBits2;
  const int64_t top = now + kRunStartAhead;
  const int64_t top_residue = ((top % kSpan) + kSpan) % kSpan;
  return top - ((top_residue - static_cast<int64_t>(residue)) % kSpan + kSpan) % kSpan;
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
  if (run_start < now - max_age - kClockStepAllowance) return "began more than " + Duration(max_age) + " ago";
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

bool ContinueTokenCodec::PositionFits(const ContinueToken& token) {
  if (token.position.empty() || !Unfit(token).empty()) return false;
  int bits = kMacBits2 + kVersionBits + kCountBits + kRunStartBits2 + PositionCost(token.position);
  for (int64_t v : token.keyset) bits += CostOf(v);
  return bits <= kMaxBits;
}

std::string ContinueTokenCodec::Encode(const ContinueToken& token, std::string_view binding) const {
  if (std::string why = Unfit(token); !why.empty()) throw InternalError(why);

  Number n;
  if (PositionFits(token)) {
    BitWriter w(&n, kMacBits2);
    w.Put(kVersionBits, kVersion2);
    w.Put(kCountBits, token.keyset.size());
    w.Put(kRunStartBits2, static_cast<uint64_t>(token.run_start));  // the residue, two's complement
    for (int64_t v : token.keyset) w.PutValue(v);
    w.PutGamma(token.position.gtids().size());
    int64_t previous = -1;
    for (const Gtid& g : token.position.gtids()) {
      w.PutDelta(static_cast<uint64_t>(g.domain - previous - 1));
      w.PutDelta(g.server);
      w.PutSeq(g.seq);
      previous = g.domain;
    }
    n.Put(0, kMacBits2, Mac2(k0_, k1_, n, w.pos(), token.run_start, binding));
  } else {
    // Layout 1; a position that does not fit is left out (the next page is
    // then the primary's).
    BitWriter w(&n, kMacBits);
    w.Put(kVersionBits, kVersion);
    w.Put(kCountBits, token.keyset.size());
    w.PutValue(token.run_start);
    for (int64_t v : token.keyset) w.PutValue(v);
    n.Put(0, kMacBits, Mac(k0_, k1_, n, w.pos(), binding));
  }

  std::string text;
  while (!n.IsZero()) text.push_back(kAlphabet[n.DivMod(62)]);
  std::string out(text.rbegin(), text.rend());
  if (out.size() > kMaxChars) throw InternalError("continue token longer than 32 characters");
  return out;
}

namespace {

// Layout 1 in `n`, its MAC over `mac_binding`.
std::optional<ContinueToken> DecodeLayout1(uint64_t k0, uint64_t k1, const Number& n, std::string_view mac_binding) {
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
  if ((Mac(k0, k1, n, r.pos(), mac_binding) ^ n.Get(0, kMacBits)) != 0) return std::nullopt;
  return token;
}

std::optional<ContinueToken> DecodeLayout2(uint64_t k0, uint64_t k1, const Number& n, std::string_view binding,
                                           int64_t now) {
  BitReader r(n, kMacBits2);
  uint64_t version = 0, count = 0, residue = 0;
  if (!r.Get(kVersionBits, &version) || version != kVersion2) return std::nullopt;
  if (!r.Get(kCountBits, &count) || count < 1 || count > kMaxKeyset) return std::nullopt;
  if (!r.Get(kRunStartBits2, &residue)) return std::nullopt;
  ContinueToken token;
  token.run_start = RunStartNear(residue, now);
  token.keyset.resize(count);
  for (int64_t& v : token.keyset) {
    if (!r.GetValue(&v)) return std::nullopt;
  }
  uint64_t domains = 0;
  if (!r.GetGamma(4, &domains) || domains > GtidPosition::kMaxDomains) return std::nullopt;
  std::string server_form;
  int64_t previous = -1;
  for (uint64_t i = 0; i < domains; ++i) {
    uint64_t delta = 0, server = 0, seq = 0;
    if (!r.GetDelta(&delta) || !r.GetDelta(&server) || !r.GetSeq(&seq)) return std::nullopt;
    const int64_t domain = previous + 1 + static_cast<int64_t>(delta);
    if (domain > int64_t{UINT32_MAX}) return std::nullopt;
    if (!server_form.empty()) server_form += ',';
    server_form += std::to_string(domain) + '-' + std::to_string(server) + '-' + std::to_string(seq);
    previous = domain;
  }
  if (!n.ZeroFrom(r.pos())) return std::nullopt;  // trailing bits
  if ((Mac2(k0, k1, n, r.pos(), token.run_start, binding) ^ n.Get(0, kMacBits2)) != 0) return std::nullopt;
  auto position = GtidPosition::Parse(server_form);
  if (!position) return std::nullopt;  // cannot happen: domains ascending, numbers in range
  token.position = std::move(*position);
  return token;
}

}  // namespace

std::optional<ContinueToken> ContinueTokenCodec::Decode(std::string_view text, std::string_view binding,
                                                        int64_t now) const {
  GtidPosition legacy;  // layout 0's position, after '_'
  const size_t mark = text.find(kPositionMark);
  if (mark != std::string_view::npos) {
    auto p = GtidPosition::ParseTokenForm(text.substr(mark + 1));
    if (!p) return std::nullopt;
    legacy = std::move(*p);
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
  if (mark != std::string_view::npos) {
    auto token = DecodeLayout1(k0_, k1_, n, MacBinding(binding, legacy));
    if (token) token->position = std::move(legacy);
    return token;
  }
  // A number may look like both layouts (each one's version lies in the
  // other's MAC bits): the MAC says which wrote it.
  if (auto token = DecodeLayout2(k0_, k1_, n, binding, now)) return token;
  return DecodeLayout1(k0_, k1_, n, binding);
}

}  // namespace feed
