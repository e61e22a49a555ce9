#include "continue_token.h"

#include "error.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace feed {
namespace {

using namespace std::string_literals;
using namespace std::string_view_literals;

constexpr std::string_view kAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kSecret = "correct horse battery staple";
// A feed name and a normalised `date`, NUL-separated.
constexpr std::string_view kBinding =
    "yads\0"
    "2026-01-01 00:00:00"sv;
constexpr int64_t kP32 = int64_t{1} << 32;
constexpr int64_t kP47 = int64_t{1} << 47;
// The moment tokens are decoded at: 2026-12-01 12:00:00 as NaiveSeconds.
constexpr int64_t kNow = 1796126400;

void ExpectWellFormed(const std::string& token) {
  EXPECT_FALSE(token.empty());
  EXPECT_LE(token.size(), 32u) << token;
  EXPECT_EQ(token.find_first_not_of(kAlphabet), std::string::npos) << token;
}

// ---- SipHash-2-4 ------------------------------------------------------------

// The reference vectors (key 00..0f, message 00..len-1), from the SipHash
// paper's vectors.h read as little-endian words.
TEST(SipHash24, ReferenceVectors) {
  const uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
  std::string msg;
  for (int i = 0; i < 64; ++i) msg.push_back(static_cast<char>(i));
  const std::vector<std::pair<size_t, uint64_t>> vectors = {
      {0, 0x726fdb47dd0e0e31ULL},  {1, 0x74f839c593dc67fdULL},  {2, 0x0d6c8009d9a94f5aULL},
      {7, 0xab0200f58b01d137ULL},  {8, 0x93f5f5799a932462ULL},  {9, 0x9e0082df0ba9e4b0ULL},
      {15, 0xa129ca6149be45e5ULL}, {16, 0x3f2acc7f57c29bdbULL}, {63, 0x958a324ceb064572ULL},
  };
  for (const auto& [len, want] : vectors) {
    EXPECT_EQ(SipHash24(k0, k1, std::string_view(msg).substr(0, len)), want) << len;
  }
}

// ---- Round trips ------------------------------------------------------------

TEST(ContinueToken, RealisticTokensFit32Characters) {
  const ContinueTokenCodec codec(kSecret);
  // run_start and two epoch-like keys anywhere below 2^32 (until 2106), an id
  // up to 2^32.
  const std::vector<ContinueToken> cases = {
      {1800000000, {1800000000, 1799999999, kP32}},
      {kP32 - 1, {kP32 - 1, kP32 - 1, kP32}},
      {kP32 - 1, {kP32 - 1, kP32 - 1, kP32 - 1}},
      {1767225600, {1767225600, 1767225600, 4294967295}},
      {1767225600, {1767225600, 12345}},
      {1767225600, {987654321}},
      {0, {0}},
  };
  for (const auto& t : cases) {
    const std::string token = codec.Encode(t, kBinding);
    SCOPED_TRACE(token);
    ExpectWellFormed(token);
    EXPECT_EQ(codec.Decode(token, kBinding, kNow), t);
  }
}

TEST(ContinueToken, RoundTripsRandomValues) {
  const ContinueTokenCodec codec(kSecret);
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<int64_t> epoch(0, kP32 - 1);
  std::uniform_int_distribution<int64_t> id(0, kP32);
  std::uniform_int_distribution<int64_t> any(-kP47, kP47 - 1);
  std::uniform_int_distribution<int64_t> small(-(1 << 15), (1 << 15) - 1);
  std::uniform_int_distribution<int64_t> near_small(-40000, 40000);
  for (int i = 0; i < 20000; ++i) {
    ContinueToken t;
    const int shape = i % 4;
    if (shape == 0) {  // the Yads shape
      t = {epoch(rng), {epoch(rng), epoch(rng), id(rng)}};
    } else if (shape == 1) {  // anything, one key
      t = {any(rng), {any(rng)}};
    } else if (shape == 2) {  // small keys
      t = {epoch(rng), {small(rng), small(rng), id(rng)}};
    } else {  // two keys, across the small class's edges
      t = {epoch(rng), {any(rng), near_small(rng)}};
    }
    const std::string binding = "feed" + std::to_string(i % 7);
    const std::string token = codec.Encode(t, binding);
    ASSERT_LE(token.size(), 32u);
    ASSERT_EQ(token.find_first_not_of(kAlphabet), std::string::npos) << token;
    ASSERT_EQ(codec.Decode(token, binding, kNow), t) << token;
  }
}

TEST(ContinueToken, RoundTripsClassBoundaries) {
  const ContinueTokenCodec codec(kSecret);
  const std::vector<int64_t> edges = {0,
                                      1,
                                      -1,
                                      (1 << 15) - 1,
                                      -(1 << 15),
                                      1 << 15,
                                      -(1 << 15) - 1,
                                      kP32 - 1,
                                      kP32,
                                      kP32 + (int64_t{1} << 34) - 1,
                                      kP32 + (int64_t{1} << 34),
                                      -kP47,
                                      kP47 - 1};
  for (int64_t a : edges) {
    for (int64_t b : edges) {
      const ContinueToken t{a, {b}};
      const std::string token = codec.Encode(t, kBinding);
      ExpectWellFormed(token);
      EXPECT_EQ(codec.Decode(token, kBinding, kNow), t) << a << " " << b;
    }
  }
}

TEST(ContinueToken, BindingIsWholeBytes) {
  static_assert(kBinding.size() == 24);  // the NUL and the date are in it
  const ContinueTokenCodec codec(kSecret);
  const std::string token = codec.Encode({1767225600, {1}}, kBinding);
  EXPECT_FALSE(codec.Decode(token, "yads", kNow).has_value());
}

TEST(ContinueToken, EncodeIsDeterministic) {
  const ContinueTokenCodec a(kSecret), b(kSecret);
  const ContinueToken t{1767225600, {1767225600, 42}};
  EXPECT_EQ(a.Encode(t, kBinding), b.Encode(t, kBinding));
}

// ---- What must not decode -----------------------------------------------------

std::vector<std::string> SampleTokens(const ContinueTokenCodec& codec) {
  std::vector<std::string> out;
  for (const ContinueToken& t : std::vector<ContinueToken>{
           {1800000000, {1800000000, 1799999999, kP32}},
           {1767225600, {1767225600, 42}},
           {1767225600, {7}},
           {0, {0}},
           {-kP47, {kP47 - 1}},
       }) {
    out.push_back(codec.Encode(t, kBinding));
  }
  return out;
}

TEST(ContinueToken, EverySingleCharacterChangeFails) {
  const ContinueTokenCodec codec(kSecret);
  for (const std::string& token : SampleTokens(codec)) {
    SCOPED_TRACE(token);
    ASSERT_TRUE(codec.Decode(token, kBinding, kNow).has_value());
    for (size_t pos = 0; pos < token.size(); ++pos) {
      for (char c : kAlphabet) {
        if (c == token[pos]) continue;
        std::string altered = token;
        altered[pos] = c;
        ASSERT_FALSE(codec.Decode(altered, kBinding, kNow).has_value()) << altered;
      }
    }
  }
}

TEST(ContinueToken, TruncationExtensionAndPaddingFail) {
  const ContinueTokenCodec codec(kSecret);
  for (const std::string& token : SampleTokens(codec)) {
    SCOPED_TRACE(token);
    for (size_t n = 0; n < token.size(); ++n) {
      EXPECT_FALSE(codec.Decode(token.substr(0, n), kBinding, kNow).has_value()) << n;
      EXPECT_FALSE(codec.Decode(token.substr(token.size() - n), kBinding, kNow).has_value()) << n;
    }
    for (char c : kAlphabet) {
      EXPECT_FALSE(codec.Decode(token + c, kBinding, kNow).has_value());
      EXPECT_FALSE(codec.Decode(std::string(1, c) + token, kBinding, kNow).has_value());
    }
    EXPECT_FALSE(codec.Decode(token + " ", kBinding, kNow).has_value());
    EXPECT_FALSE(codec.Decode(" " + token, kBinding, kNow).has_value());
    EXPECT_FALSE(codec.Decode(token + "\0"s, kBinding, kNow).has_value());
  }
}

TEST(ContinueToken, OtherBindingOrSecretFails) {
  const ContinueTokenCodec codec(kSecret);
  const ContinueTokenCodec other("correct horse battery stapler");
  const ContinueToken t{1767225600, {1767225600, 42}};
  const std::string token = codec.Encode(t,
                                         "yads\0"
                                         "2026-01-01 00:00:00"s);
  EXPECT_EQ(codec.Decode(token,
                         "yads\0"
                         "2026-01-01 00:00:00"s, kNow),
            t);
  EXPECT_FALSE(codec
                   .Decode(token,
                           "yads\0"
                           "2026-01-01 00:00:01"s, kNow)
                   .has_value());
  EXPECT_FALSE(codec
                   .Decode(token,
                           "jooble\0"
                           "2026-01-01 00:00:00"s, kNow)
                   .has_value());
  EXPECT_FALSE(codec.Decode(token, "yads", kNow).has_value());
  EXPECT_FALSE(codec.Decode(token, "", kNow).has_value());
  EXPECT_FALSE(other
                   .Decode(token,
                           "yads\0"
                           "2026-01-01 00:00:00"s, kNow)
                   .has_value());
  EXPECT_NE(other.Encode(t, "yads"), codec.Encode(t, "yads"));
}

TEST(ContinueToken, RejectsGarbage) {
  const ContinueTokenCodec codec(kSecret);
  const std::vector<std::string> cases = {
      "",
      "0",
      "00000000",
      std::string(33, 'z'),
      std::string(32, 'z'),
      std::string(32, '0'),
      "abc-def",
      "abc def",
      "abc_def",
      "abc+def/",
      "abc=",
      "\xff\xfe",
      "\0"s,
      "abc\0def"s,
      "ÿÿÿÿ",
      "Ａ",
      "%41%42",
      "1",
      "Z",
      "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::PrintToString(c));
    EXPECT_FALSE(codec.Decode(c, kBinding, kNow).has_value());
  }
  // Random strings of the alphabet, every length: a 48-bit MAC stands in the
  // way of each.
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20000; ++i) {
    std::string s(1 + i % 32, ' ');
    for (char& c : s) c = kAlphabet[rng() % kAlphabet.size()];
    ASSERT_FALSE(codec.Decode(s, kBinding, kNow).has_value()) << s;
  }
}

TEST(ContinueToken, EncodeRejectsWhatItCannotCarry) {
  EXPECT_THROW(ContinueTokenCodec(""), FeedError);
  const ContinueTokenCodec codec(kSecret);
  const std::vector<ContinueToken> unfit = {
      {0, {}}, {0, {1, 2, 3, 4}}, {kP47, {1}}, {0, {-kP47 - 1}}, {0, {INT64_MIN}},
      // In range, but four wide values do not fit 32 characters.
      {-kP47, {-kP47, -kP47, -kP47}}, {kP32, {kP32, kP32, kP32}}};
  for (const ContinueToken& t : unfit) {
    EXPECT_FALSE(ContinueTokenCodec::Unfit(t).empty());
    try {
      codec.Encode(t, kBinding);
      ADD_FAILURE() << "encoded a token it cannot carry";
    } catch (const FeedError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kInternal);
    }
  }
  EXPECT_EQ(ContinueTokenCodec::Unfit({kP47 - 1, {-kP47}}), "");
}

// The capacity continue_token.cpp documents, edge by edge.
TEST(ContinueToken, DocumentedCapacity) {
  const ContinueTokenCodec codec(kSecret);
  const int64_t wide_top = kP32 + (int64_t{1} << 34) - 1;
  const std::vector<ContinueToken> fit = {
      {-kP47, {kP47 - 1}},
      {kP47 - 1, {-kP47}},
      {-(1 << 15), {-kP47, kP47 - 1}},
      {kP32 - 1, {-kP47, -kP47}},
      {kP32 - 1, {kP32 - 1, -(1 << 15), kP32 - 1}},
      {wide_top, {kP32 - 1, 0, kP32 - 1}},
      {kP32 - 1, {kP32 - 1, kP32 - 1, wide_top}},
  };
  for (const auto& t : fit) {
    const std::string token = codec.Encode(t, kBinding);
    ExpectWellFormed(token);
    EXPECT_EQ(codec.Decode(token, kBinding, kNow), t) << token;
  }
  const std::vector<ContinueToken> too_long = {
      {kP32, {-kP47, -kP47}},
      {kP32 - 1, {kP32 - 1, kP32, kP32}},
      {-1 - (1 << 15), {kP32 - 1, kP32 - 1, kP32 - 1}},
  };
  for (const auto& t : too_long) {
    EXPECT_NE(ContinueTokenCodec::Unfit(t), "");
    EXPECT_THROW(codec.Encode(t, kBinding), FeedError);
  }
}

// ---- Format pinned ------------------------------------------------------------

// An independent writer of the layout documented in continue_token.cpp, so
// that hand-made malformed payloads can carry a valid MAC: without it, every
// structural check in Decode would hide behind the MAC check.
class RawToken {
 public:
  explicit RawToken(std::string_view secret) {
    const uint64_t c0 = 0x746e6f632e646566ULL, c1 = 0x6e656b6f742e6575ULL;
    k0_ = SipHash24(c0, c1, std::string("continue-token k0\0", 18).append(secret));
    k1_ = SipHash24(c0, c1, std::string("continue-token k1\0", 18).append(secret));
    pos_ = 48;
  }
  RawToken& Bits(int n, uint64_t v) {
    for (int i = 0; i < n; ++i, ++pos_) SetBit(pos_, (v >> i) & 1);
    return *this;
  }
  // Ends the MAC'd payload here; bits written later are outside it, as a
  // decoder that stopped reading here would see them.
  RawToken& EndPayload() {
    mac_end_ = pos_;
    return *this;
  }
  RawToken& Word(int64_t v) { return Bits(1, 0).Bits(32, static_cast<uint64_t>(v)); }
  RawToken& Wide(int64_t v) { return Bits(2, 0b01).Bits(34, static_cast<uint64_t>(v - kP32)); }
  RawToken& Small(int64_t v) { return Bits(3, 0b011).Bits(16, ZigZag(v)); }
  RawToken& Full(int64_t v) { return Bits(3, 0b111).Bits(48, ZigZag(v)); }

  std::string Finish(std::string_view binding) {
    std::string msg;
    const int end = mac_end_ >= 0 ? mac_end_ : pos_;
    for (int p = 48; p < end; p += 8) {
      int byte = 0;
      for (int i = 0; i < 8; ++i) byte |= GetBit(p + i) << i;
      msg.push_back(static_cast<char>(byte));
    }
    msg.push_back('\0');
    msg.append(binding);
    const uint64_t mac = SipHash24(k0_, k1_, msg);
    for (int i = 0; i < 48; ++i) SetBit(i, (mac >> i) & 1);
    // Base 62 by long division over 32-bit limbs.
    std::array<uint64_t, 7> limbs{};
    for (int i = 0; i < 224; ++i) limbs[i / 32] |= static_cast<uint64_t>(GetBit(i)) << (i % 32);
    std::string digits;
    for (;;) {
      bool zero = true;
      uint64_t rem = 0;
      for (int i = 6; i >= 0; --i) {
        const uint64_t cur = (rem << 32) | limbs[i];
        limbs[i] = cur / 62;
        rem = cur % 62;
        zero = zero && limbs[i] == 0;
      }
      digits.push_back(kAlphabet[rem]);
      if (zero) break;
    }
    return std::string(digits.rbegin(), digits.rend());
  }

 private:
  static uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ (v < 0 ? ~uint64_t{0} : 0); }
  void SetBit(int i, int b) { bits_[i] = b; }
  int GetBit(int i) const { return bits_[i]; }

  std::array<int, 224> bits_{};
  uint64_t k0_, k1_;
  int pos_;
  int mac_end_ = -1;
};

TEST(ContinueToken, LayoutIsPinned) {
  // A token already issued must still decode after a rebuild: the layout is
  // an interface with every robot that holds one.
  const ContinueTokenCodec codec(kSecret);
  const ContinueToken t{1800000000, {1799999999, -5, kP32}};
  const std::string raw =
      RawToken(kSecret).Bits(4, 1).Bits(2, 3).Word(1800000000).Word(1799999999).Small(-5).Wide(kP32).Finish(kBinding);
  EXPECT_EQ(codec.Encode(t, kBinding), raw);
  EXPECT_EQ(codec.Decode(raw, kBinding, kNow), t);
  const ContinueToken full{-kP47, {kP47 - 1}};
  EXPECT_EQ(codec.Encode(full, kBinding),
            RawToken(kSecret).Bits(4, 1).Bits(2, 1).Full(-kP47).Full(kP47 - 1).Finish(kBinding));
}

// Literal tokens that the build of commit 44485d4 (2026-12-01) issued,
// with this secret, for the binding
// DocumentFeed gives [feed yads] asked with date=2026-10-01 00:00:00 (the
// feed's name, a newline, the date). Robots hold such tokens across an
// upgrade: a change of the layout, the MAC or the key derivation fails here.
TEST(ContinueToken, TokensOfAnEarlierBuildStillDecode) {
  const ContinueTokenCodec codec("pinned-token-secret-2026");
  const std::string binding = "yads\n2026-10-01 00:00:00";
  struct Case {
    const char* token;
    ContinueToken payload;
  };
  const Case cases[] = {
      // Run start 2026-12-01 06:00:00; keyset (added 2026-11-30 23:59:58, id 2345).
      {"IQ1g0bT3seKA9Nj2xJQNHf1", {1796104800, {1796083198, 2345}}},
      // The same run; three values of three classes: word, wide (2^32 + 17), small.
      {"2lDgxnijJvLGGssJxq54sRgiNRFw", {1796104800, {1796083198, 4294967313, -5}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.token);
    EXPECT_EQ(codec.Decode(c.token, binding, kNow), c.payload);
    EXPECT_EQ(codec.Encode(c.payload, binding), c.token);
    EXPECT_FALSE(codec.Decode(c.token, "yads\n2026-10-02 00:00:00", kNow).has_value());
  }
}

// ---- What a decoded token may carry ---------------------------------------------

TEST(ContinueToken, RunStartMustBeRecent) {
  const int64_t now = 1796126400;  // 2026-12-01 12:00:00 as NaiveSeconds
  const int64_t week = 7 * 86400;
  const int64_t step = 3600;  // a clock stepped forward an hour still finds the run valid
  struct Case {
    int64_t run_start, max_age;
    const char* want;  // "" when it fits
  } cases[] = {
      {now, week, ""},
      {now - week, week, ""},
      {now - week - step, week, ""},
      {now - week - step - 1, week, "began more than 7 days ago"},
      {now - 40 * 86400, week, "began more than 7 days ago"},
      {now + 86400, week, ""},
      {now + 86401, week, "starts more than 1 day from now"},
      {kP47 - 1, week, "starts more than 1 day from now"},
      {-kP47, week, "began more than 7 days ago"},
      {now - 3600 - step, 3600, ""},
      {now - 3601 - step, 3600, "began more than 1 hour ago"},
      {now - 7201 - step, 7200, "began more than 2 hours ago"},
      {now - 5401 - step, 5400, "began more than 5400 seconds ago"},
      {now - 86401 - step, 86400, "began more than 1 day ago"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RunStartUnfit(c.run_start, now, c.max_age), c.want) << c.run_start << " " << c.max_age;
  }
}

TEST(ContinueToken, RejectsMalformedPayloadsEvenWithValidMac) {
  const ContinueTokenCodec codec(kSecret);
  auto raw = [] { return RawToken(kSecret); };
  struct Case {
    const char* what;
    std::string token;
  };
  const std::vector<Case> cases = {
      {"version 0", raw().Bits(4, 0).Bits(2, 1).Word(1 << 20).Word(1 << 20).Finish(kBinding)},
      {"version 2", raw().Bits(4, 2).Bits(2, 1).Word(1 << 20).Word(1 << 20).Finish(kBinding)},
      {"version 15", raw().Bits(4, 15).Bits(2, 1).Word(1 << 20).Word(1 << 20).Finish(kBinding)},
      {"count 0", raw().Bits(4, 1).Bits(2, 0).Word(1 << 20).Finish(kBinding)},
      {"count 0, value follows", raw().Bits(4, 1).Bits(2, 0).Word(1 << 20).Word(1 << 20).Finish(kBinding)},
      {"small value as word", raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(5).Finish(kBinding)},
      {"word value as full", raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Full(1 << 20).Finish(kBinding)},
      {"small value as full", raw().Bits(4, 1).Bits(2, 1).Full(-3).Word(1 << 20).Finish(kBinding)},
      {"wide value as full", raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Full(kP32 + 1).Finish(kBinding)},
      {"trailing bit",
       raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(1 << 20).EndPayload().Bits(1, 1).Finish(kBinding)},
      {"trailing value",
       raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(1 << 20).EndPayload().Word(1 << 20).Finish(kBinding)},
      {"trailing bit in last byte",
       raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(1 << 20).Bits(1, 0).EndPayload().Bits(1, 1).Finish(kBinding)},
  };
  // The writer itself is trustworthy: the canonical twin decodes.
  ASSERT_TRUE(codec.Decode(raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(1 << 20).Finish(kBinding), kBinding, kNow));
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    ExpectWellFormed(c.token);
    EXPECT_FALSE(codec.Decode(c.token, kBinding, kNow).has_value()) << c.token;
  }
}

// ---- The replication position (issues #13 and #22) ---------------------------

GtidPosition Pos(const char* server_form) { return *GtidPosition::Parse(server_form); }

// The writer of layout 2 as continue_token.cpp documents it, independent of
// the codec: bits from the low end, the MAC of 40 bits over the payload
// bytes, '\0', the whole run start (8 bytes, little-endian), the binding.
class RawToken2 {
 public:
  RawToken2(std::string_view secret, int64_t run_start) : run_start_(run_start) {
    const uint64_t c0 = 0x746e6f632e646566ULL, c1 = 0x6e656b6f742e6575ULL;
    k0_ = SipHash24(c0, c1, std::string("continue-token k0\0", 18).append(secret));
    k1_ = SipHash24(c0, c1, std::string("continue-token k1\0", 18).append(secret));
  }
  RawToken2& Bits(int n, uint64_t v) {
    for (int i = 0; i < n; ++i, ++pos_) bits_[pos_] = (v >> i) & 1;
    return *this;
  }
  // Version 2, the count of keyset values, the run start's residue.
  RawToken2& Head(int count) { return Bits(4, 2).Bits(2, count).Bits(22, static_cast<uint64_t>(run_start_) % (1 << 22)); }
  RawToken2& Word(int64_t v) { return Bits(1, 0).Bits(32, static_cast<uint64_t>(v)); }
  RawToken2& Small(int64_t v) {
    return Bits(3, 0b011).Bits(16, (static_cast<uint64_t>(v) << 1) ^ (v < 0 ? ~uint64_t{0} : 0));
  }
  RawToken2& Full(int64_t v) {
    return Bits(3, 0b111).Bits(48, (static_cast<uint64_t>(v) << 1) ^ (v < 0 ? ~uint64_t{0} : 0));
  }
  RawToken2& Gamma(uint64_t x) {
    int n = 0;
    while ((x >> n) > 1) ++n;
    return Bits(n, 0).Bits(1, 1).Bits(n, x);
  }
  RawToken2& Delta(uint64_t v) {
    int n = 0;
    while (((v + 1) >> n) > 1) ++n;
    return Gamma(n + 1).Bits(n, v + 1);
  }
  RawToken2& Seq(uint64_t seq) {
    int m = 0;
    while (seq > 1 && (seq >> m) > 1) ++m;
    return Bits(6, m).Bits(m == 0 ? 1 : m, seq);
  }
  std::string Finish(std::string_view binding) {
    std::string msg;
    for (int p = 40; p < pos_; p += 8) {
      int byte = 0;
      for (int i = 0; i < 8; ++i) byte |= bits_[p + i] << i;
      msg.push_back(static_cast<char>(byte));
    }
    msg.push_back('\0');
    for (int i = 0; i < 8; ++i) msg.push_back(static_cast<char>(static_cast<uint64_t>(run_start_) >> (8 * i)));
    msg.append(binding);
    const uint64_t mac = SipHash24(k0_, k1_, msg);
    for (int i = 0; i < 40; ++i) bits_[i] = (mac >> i) & 1;
    std::array<uint64_t, 7> limbs{};
    for (int i = 0; i < 224; ++i) limbs[i / 32] |= static_cast<uint64_t>(bits_[i]) << (i % 32);
    std::string digits;
    for (;;) {
      bool zero = true;
      uint64_t rem = 0;
      for (int i = 6; i >= 0; --i) {
        const uint64_t cur = (rem << 32) | limbs[i];
        limbs[i] = cur / 62;
        rem = cur % 62;
        zero = zero && limbs[i] == 0;
      }
      digits.push_back(kAlphabet[rem]);
      if (zero) break;
    }
    return std::string(digits.rbegin(), digits.rend());
  }

 private:
  std::array<int, 224> bits_{};
  uint64_t k0_, k1_;
  int64_t run_start_;
  int pos_ = 40;
};

// The Yads <continue> form: 1 to 32 letters and digits.
bool YadsForm(const std::string& token) {
  return !token.empty() && token.size() <= 32 && token.find_first_not_of(kAlphabet) == std::string::npos;
}

TEST(ContinueToken, CarriesAReplicationPositionInside32Characters) {
  const ContinueTokenCodec codec(kSecret);
  const ContinueToken t{kNow - 3600, {1796083198, 2345}, Pos("0-1-4711,2-9-5")};
  ASSERT_TRUE(ContinueTokenCodec::PositionFits(t));
  const std::string text = codec.Encode(t, kBinding);
  EXPECT_TRUE(YadsForm(text)) << text;
  EXPECT_EQ(codec.Decode(text, kBinding, kNow), t);
  // The same run without a position is a token of layout 1, another one.
  const std::string plain = codec.Encode(ContinueToken{t.run_start, t.keyset, {}}, kBinding);
  EXPECT_TRUE(YadsForm(plain));
  EXPECT_NE(plain, text);
  EXPECT_EQ(codec.Decode(plain, kBinding, kNow)->position, GtidPosition{});
  // Each position its own token.
  for (const char* other : {"0-1-4712,2-9-5", "0-1-4711", "0-1-4711,2-9-5,3-1-1", "0-2-4711,2-9-5", "1-1-4711,2-9-5"}) {
    EXPECT_NE(codec.Encode(ContinueToken{t.run_start, t.keyset, Pos(other)}, kBinding), text) << other;
  }
  // Another binding or secret; the old form's '_' suffix glued on.
  EXPECT_FALSE(codec.Decode(text, "yads\n2026-10-02 00:00:00", kNow).has_value());
  EXPECT_FALSE(ContinueTokenCodec("correct horse battery stapler").Decode(text, kBinding, kNow).has_value());
  EXPECT_FALSE(codec.Decode(text + "_0.1.4711_2.9.5", kBinding, kNow).has_value());
  EXPECT_FALSE(codec.Decode(plain + "_0.1.4711_2.9.5", kBinding, kNow).has_value());
}

// Literal tokens of layout 2: this secret, these inputs, this exact text;
// a change of the layout, the MAC or the key derivation fails here.
TEST(ContinueToken, LayoutTwoIsPinned) {
  const ContinueTokenCodec codec("pinned-token-secret-2026");
  const std::string binding = "yads\n2026-10-01 00:00:00";
  const int64_t now = 1796126400;  // 2026-12-01 12:00:00
  struct Case {
    const char* token;
    ContinueToken payload;
  };
  const Case cases[] = {
      // Run start 2026-12-01 06:00:00; keyset (added 2026-11-30 23:59:58, id 2345); at 0-1-4711.
      {"JwwoaldhgVuHprOQjF0mKkko", {1796104800, {1796083198, 2345}, Pos("0-1-4711")}},
      // Two domains.
      {"9l7vNVo6XZyBBwh5OSqeCL6vUPKY", {1796104800, {1796083198, 2345}, Pos("0-1-4711,2-9-5")}},
      // One domain past 2^32 transactions.
      {"OkzCdSVb8yOgME1gY2T7RkyqrHwk", {1796104800, {1796083198, 2345}, Pos("0-9-5000000000")}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.token);
    EXPECT_EQ(codec.Encode(c.payload, binding), c.token);
    EXPECT_EQ(codec.Decode(c.token, binding, now), c.payload);
    EXPECT_FALSE(codec.Decode(c.token, "yads\n2026-10-02 00:00:00", now).has_value());
  }
  // The same text from the writer above, field by field.
  EXPECT_EQ(RawToken2("pinned-token-secret-2026", 1796104800)
                .Head(2)
                .Word(1796083198)
                .Small(2345)
                .Gamma(1)
                .Delta(0)
                .Delta(1)
                .Seq(4711)
                .Finish(binding),
            cases[0].token);
  EXPECT_EQ(RawToken2("pinned-token-secret-2026", 1796104800)
                .Head(2)
                .Word(1796083198)
                .Small(2345)
                .Gamma(2)
                .Delta(0)
                .Delta(1)
                .Seq(4711)
                .Delta(1)
                .Delta(9)
                .Seq(5)
                .Finish(binding),
            cases[1].token);
  EXPECT_EQ(RawToken2("pinned-token-secret-2026", 1796104800)
                .Head(2)
                .Word(1796083198)
                .Small(2345)
                .Gamma(1)
                .Delta(0)
                .Delta(9)
                .Seq(5000000000)
                .Finish(binding),
            cases[2].token);
}

// Tokens the build before issue #22 issued with replicas (the 32
// characters, '_', the position), made by that build with this secret:
// a run in progress across the upgrade goes on.
TEST(ContinueToken, TokensWithAPositionSuffixOfTheEarlierBuildStillDecode) {
  const ContinueTokenCodec codec("pinned-token-secret-2026");
  const std::string binding = "yads\n2026-10-01 00:00:00";
  const ContinueToken one{1796104800, {1796083198, 2345}, Pos("0-1-4711")};
  const ContinueToken two{1796104800, {1796083198, 2345}, Pos("0-1-4711,2-9-5")};
  EXPECT_EQ(codec.Decode("IQ1g0bT3seKA9Nj7G7AJtnX_0.1.4711", binding, kNow), one);
  EXPECT_EQ(codec.Decode("IQ1g0bT3seKA9NjLQeUbJfj_0.1.4711_2.9.5", binding, kNow), two);
  // Now written in 32 characters.
  EXPECT_TRUE(YadsForm(codec.Encode(one, binding)));
  // The position under that MAC: altered, dropped, added, respelled.
  for (const char* forged : {"IQ1g0bT3seKA9Nj7G7AJtnX_0.1.4712", "IQ1g0bT3seKA9Nj7G7AJtnX",
                             "IQ1g0bT3seKA9Nj7G7AJtnX_0.1.4711_2.9.5", "IQ1g0bT3seKA9Nj7G7AJtnX_0.1.04711",
                             "IQ1g0bT3seKA9NjLQeUbJfj_0.1.4711", "IQ1g0bT3seKA9Nj7G7AJtnX_", "IQ1g0bT3seKA9Nj7G7AJtnX_0.1.4711_"}) {
    EXPECT_FALSE(codec.Decode(forged, binding, kNow).has_value()) << forged;
  }
  EXPECT_FALSE(codec.Decode("IQ1g0bT3seKA9Nj7G7AJtnX_0.1.4711", "yads\n2026-10-02 00:00:00", kNow).has_value());
}

// The capacity continue_token.cpp documents for layout 2, and the worst
// case: the widest keyset values the codec takes beside a position of many
// domains does not fit, and the token leaves the position out.
TEST(ContinueToken, PositionFitsWhereDocumentedAndIsLeftOutElsewhere) {
  const ContinueTokenCodec codec(kSecret);
  const int64_t run = kNow - 86400;
  const std::vector<int64_t> yads = {1796083198, 4294967295};  // an epoch second, an id below 2^32
  struct Case {
    std::vector<int64_t> keyset;
    std::string position;
    bool fits;
  };
  const std::vector<Case> cases = {
      // 68 bits of MAC, version, count and run start; 66 of keyset: 56 left.
      {yads, "0-1-1", true},
      {yads, "0-1-35184372088831", true},   // seq 2^45 - 1: 1 + 1 + 4 + 6 + 44 bits
      {yads, "0-1-35184372088832", false},  // 2^45
      {yads, "0-1-4294967296", true},
      {yads, "0-1-5000,1-2-300", true},  // 3 + 23 + 19 bits
      {yads, "0-4294967295-4294967296", false},
      // Three words: 23 bits left.
      {{1796083198, 1796083198, 4294967295}, "0-1-4095", true},
      {{1796083198, 1796083198, 4294967295}, "0-1-4096", false},
      // One small value: 103 bits left.
      {{7}, "0-1-18446744073709551615", true},
      {{7}, "0-1-1000000,1-1-1000000,2-1-1000000", true},
      {{7}, "0-1-1000000,1-1-1000000,2-1-1000000,3-1-1000000", false},
      // The widest keyset layout 1 takes (two values of 51 bits): 20 left.
      {{-kP47, kP47 - 1}, "0-1-511", true},
      {{-kP47, kP47 - 1}, "0-1-512", false},
      {{-kP47, kP47 - 1},
       "0-4294967295-18446744073709551615,1-4294967295-18446744073709551615,2-1-1,3-1-1,4-1-1,5-1-1,6-1-1,7-1-1,"
       "8-1-1,9-1-1,10-1-1,11-1-1,12-1-1,13-1-1,14-1-1,4294967295-4294967295-18446744073709551615",
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.position);
    const ContinueToken t{run, c.keyset, Pos(c.position.c_str())};
    EXPECT_EQ(ContinueTokenCodec::PositionFits(t), c.fits);
    const std::string text = codec.Encode(t, kBinding);
    EXPECT_TRUE(YadsForm(text)) << text;
    const ContinueToken want = c.fits ? t : ContinueToken{run, c.keyset, {}};
    EXPECT_EQ(codec.Decode(text, kBinding, kNow), want) << text;
  }
}

TEST(ContinueToken, EveryTokenIsAtMost32LettersAndDigitsOverRandomPositions) {
  const ContinueTokenCodec codec(kSecret);
  std::mt19937_64 rng(22);
  std::uniform_int_distribution<int64_t> epoch(0, kP32 - 1), any(-kP47, kP47 - 1), small(-(1 << 15), (1 << 15) - 1);
  std::uniform_int_distribution<int64_t> age(-86400, 31 * 86400);
  auto width = [&](int bits) { return bits == 0 ? 0 : rng() >> (64 - bits); };  // below 2^bits
  int carried = 0, left_out = 0;
  for (int i = 0; i < 30000; ++i) {
    std::vector<int64_t> keyset;
    const int count = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < count; ++k) {
      const int shape = static_cast<int>(rng() % 3);
      keyset.push_back(shape == 0 ? epoch(rng) : shape == 1 ? small(rng) : any(rng));
    }
    const int64_t run = kNow - age(rng);
    if (!ContinueTokenCodec::Unfit(run, keyset).empty()) continue;  // layout 1 cannot carry it either
    // 1 to 16 domains, each number of a random width.
    std::string server_form;
    const int domains = 1 + static_cast<int>(rng() % (i % 2 == 0 ? 2 : 16));
    uint64_t domain = width(static_cast<int>(rng() % 6));
    for (int d = 0; d < domains && domain <= UINT32_MAX; ++d, domain += 1 + width(static_cast<int>(rng() % 8))) {
      if (!server_form.empty()) server_form += ',';
      server_form += std::to_string(domain) + '-' + std::to_string(width(static_cast<int>(rng() % 33))) + '-' +
                     std::to_string(width(static_cast<int>(rng() % 65)));
    }
    const ContinueToken t{run, keyset, Pos(server_form.c_str())};
    const std::string binding = "feed" + std::to_string(i % 5);
    const std::string text = codec.Encode(t, binding);
    ASSERT_TRUE(YadsForm(text)) << text << " for " << server_form;
    const bool fits = ContinueTokenCodec::PositionFits(t);
    (fits ? carried : left_out)++;
    const ContinueToken want = fits ? t : ContinueToken{run, keyset, {}};
    ASSERT_EQ(codec.Decode(text, binding, kNow), want) << text;
    ASSERT_FALSE(codec.Decode(text, binding + "x", kNow).has_value());
  }
  EXPECT_GT(carried, 3000);
  EXPECT_GT(left_out, 1000);
}

TEST(ContinueToken, AlteredTokensWithAPositionFail) {
  const ContinueTokenCodec codec(kSecret);
  for (const ContinueToken& t : std::vector<ContinueToken>{
           {kNow, {1796083198, 2345}, Pos("0-1-4711")},
           {kNow - 86400, {1796083198, 2345}, Pos("0-1-4711,2-9-5")},
           {kNow, {7}, Pos("0-1-18446744073709551615")},
           {kNow, {-5, 1796083198, 4294967296}, Pos("0-1-1")},
       }) {
    const std::string token = codec.Encode(t, kBinding);
    SCOPED_TRACE(token);
    ASSERT_EQ(codec.Decode(token, kBinding, kNow), t);
    for (size_t pos = 0; pos < token.size(); ++pos) {
      for (char c : kAlphabet) {
        if (c == token[pos]) continue;
        std::string altered = token;
        altered[pos] = c;
        ASSERT_FALSE(codec.Decode(altered, kBinding, kNow).has_value()) << altered;
      }
    }
    for (size_t n = 0; n < token.size(); ++n) {
      EXPECT_FALSE(codec.Decode(token.substr(0, n), kBinding, kNow).has_value()) << n;
      EXPECT_FALSE(codec.Decode(token.substr(token.size() - n), kBinding, kNow).has_value()) << n;
    }
    for (char c : kAlphabet) EXPECT_FALSE(codec.Decode(token + c, kBinding, kNow).has_value());
  }
}

// A packed run start names one moment of the 48.5 days ending a day after
// the decoding moment: a run of 31 days ago and one that starts a day from
// now both decode; outside that window the MAC (over the whole run start)
// refuses the token.
TEST(ContinueToken, APackedRunStartDecodesWithinItsWindowOnly) {
  const ContinueTokenCodec codec(kSecret);
  const int64_t span = int64_t{1} << 22;
  for (const int64_t run : {kNow, kNow + 12345, int64_t{0}, int64_t{-777}, int64_t{1} << 40}) {
    const ContinueToken t{run, {7}, Pos("0-1-4711")};
    const std::string token = codec.Encode(t, kBinding);
    SCOPED_TRACE(run);
    for (const int64_t now : {run, run - 86400, run + 31 * 86400, run + span - 86400 - 1}) {
      EXPECT_EQ(codec.Decode(token, kBinding, now), t) << now - run;
    }
    for (const int64_t now : {run - 86401, run + span - 86400, run + 100 * 86400, run - span}) {
      EXPECT_FALSE(codec.Decode(token, kBinding, now).has_value()) << now - run;
    }
  }
}

TEST(ContinueToken, RejectsMalformedLayoutTwoPayloadsEvenWithValidMac) {
  const ContinueTokenCodec codec(kSecret);
  auto raw = [] { return RawToken2(kSecret, kNow); };
  ASSERT_EQ(codec.Decode(raw().Head(1).Small(7).Gamma(1).Delta(0).Delta(1).Seq(9).Finish(kBinding), kBinding, kNow),
            (ContinueToken{kNow, {7}, Pos("0-1-9")}));
  struct Case {
    const char* what;
    std::string token;
  };
  const std::vector<Case> cases = {
      {"version 3", raw().Bits(4, 3).Bits(2, 1).Bits(22, kNow % (1 << 22)).Small(7).Gamma(1).Delta(0).Delta(1).Seq(9).Finish(kBinding)},
      {"no keyset value", raw().Head(0).Gamma(1).Delta(0).Delta(1).Seq(9).Finish(kBinding)},
      {"no position", raw().Head(1).Small(7).Finish(kBinding)},
      {"32 domains", raw().Head(1).Small(7).Gamma(32).Finish(kBinding)},
      {"domain past 2^32", raw().Head(1).Small(7).Gamma(2).Delta(4294967295).Delta(1).Seq(1).Delta(0).Delta(1).Seq(1).Finish(kBinding)},
      {"server 2^32", raw().Head(1).Small(7).Gamma(1).Delta(0).Gamma(33).Bits(32, 1).Seq(1).Finish(kBinding)},
      {"trailing bit", raw().Head(1).Small(7).Gamma(1).Delta(0).Delta(1).Seq(9).Bits(1, 1).Finish(kBinding)},
      {"small value as word", raw().Head(1).Word(5).Gamma(1).Delta(0).Delta(1).Seq(9).Finish(kBinding)},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_TRUE(YadsForm(c.token)) << c.token;
    EXPECT_FALSE(codec.Decode(c.token, kBinding, kNow).has_value()) << c.token;
  }
}

}  // namespace
}  // namespace feed
