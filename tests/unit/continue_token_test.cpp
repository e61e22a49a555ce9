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
    EXPECT_EQ(codec.Decode(token, kBinding), t);
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
    ASSERT_EQ(codec.Decode(token, binding), t) << token;
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
      EXPECT_EQ(codec.Decode(token, kBinding), t) << a << " " << b;
    }
  }
}

TEST(ContinueToken, BindingIsWholeBytes) {
  static_assert(kBinding.size() == 24);  // the NUL and the date are in it
  const ContinueTokenCodec codec(kSecret);
  const std::string token = codec.Encode({1767225600, {1}}, kBinding);
  EXPECT_FALSE(codec.Decode(token, "yads").has_value());
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
    ASSERT_TRUE(codec.Decode(token, kBinding).has_value());
    for (size_t pos = 0; pos < token.size(); ++pos) {
      for (char c : kAlphabet) {
        if (c == token[pos]) continue;
        std::string altered = token;
        altered[pos] = c;
        ASSERT_FALSE(codec.Decode(altered, kBinding).has_value()) << altered;
      }
    }
  }
}

TEST(ContinueToken, TruncationExtensionAndPaddingFail) {
  const ContinueTokenCodec codec(kSecret);
  for (const std::string& token : SampleTokens(codec)) {
    SCOPED_TRACE(token);
    for (size_t n = 0; n < token.size(); ++n) {
      EXPECT_FALSE(codec.Decode(token.substr(0, n), kBinding).has_value()) << n;
      EXPECT_FALSE(codec.Decode(token.substr(token.size() - n), kBinding).has_value()) << n;
    }
    for (char c : kAlphabet) {
      EXPECT_FALSE(codec.Decode(token + c, kBinding).has_value());
      EXPECT_FALSE(codec.Decode(std::string(1, c) + token, kBinding).has_value());
    }
    EXPECT_FALSE(codec.Decode(token + " ", kBinding).has_value());
    EXPECT_FALSE(codec.Decode(" " + token, kBinding).has_value());
    EXPECT_FALSE(codec.Decode(token + "\0"s, kBinding).has_value());
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
                         "2026-01-01 00:00:00"s),
            t);
  EXPECT_FALSE(codec
                   .Decode(token,
                           "yads\0"
                           "2026-01-01 00:00:01"s)
                   .has_value());
  EXPECT_FALSE(codec
                   .Decode(token,
                           "jooble\0"
                           "2026-01-01 00:00:00"s)
                   .has_value());
  EXPECT_FALSE(codec.Decode(token, "yads").has_value());
  EXPECT_FALSE(codec.Decode(token, "").has_value());
  EXPECT_FALSE(other
                   .Decode(token,
                           "yads\0"
                           "2026-01-01 00:00:00"s)
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
    EXPECT_FALSE(codec.Decode(c, kBinding).has_value());
  }
  // Random strings of the alphabet, every length: a 48-bit MAC stands in the
  // way of each.
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20000; ++i) {
    std::string s(1 + i % 32, ' ');
    for (char& c : s) c = kAlphabet[rng() % kAlphabet.size()];
    ASSERT_FALSE(codec.Decode(s, kBinding).has_value()) << s;
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
    EXPECT_EQ(codec.Decode(token, kBinding), t) << token;
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
  EXPECT_EQ(codec.Decode(raw, kBinding), t);
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
    EXPECT_EQ(codec.Decode(c.token, binding), c.payload);
    EXPECT_EQ(codec.Encode(c.payload, binding), c.token);
    EXPECT_FALSE(codec.Decode(c.token, "yads\n2026-10-02 00:00:00").has_value());
  }
}

// ---- What a decoded token may carry ---------------------------------------------

TEST(ContinueToken, RunStartMustBeRecent) {
  const int64_t now = 1796126400;  // 2026-12-01 12:00:00 as NaiveSeconds
  const int64_t week = 7 * 86400;
  struct Case {
    int64_t run_start, max_age;
    const char* want;  // "" when it fits
  } cases[] = {
      {now, week, ""},
      {now - week, week, ""},
      {now - week - 1, week, "began more than 7 days ago"},
      {now - 40 * 86400, week, "began more than 7 days ago"},
      {now + 86400, week, ""},
      {now + 86401, week, "starts more than 1 day from now"},
      {kP47 - 1, week, "starts more than 1 day from now"},
      {-kP47, week, "began more than 7 days ago"},
      {now - 3601, 3600, "began more than 1 hour ago"},
      {now - 7201, 7200, "began more than 2 hours ago"},
      {now - 5401, 5400, "began more than 5400 seconds ago"},
      {now - 86401, 86400, "began more than 1 day ago"},
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
  ASSERT_TRUE(codec.Decode(raw().Bits(4, 1).Bits(2, 1).Word(1 << 20).Word(1 << 20).Finish(kBinding), kBinding));
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    ExpectWellFormed(c.token);
    EXPECT_FALSE(codec.Decode(c.token, kBinding).has_value()) << c.token;
  }
}

// ---- The replication position (issue #13) ----------------------------------

TEST(ContinueToken, CarriesAReplicationPositionUnderItsMac) {
  const ContinueTokenCodec codec(kSecret);
  ContinueToken t{1796104800, {1796083198, 2345}, *GtidPosition::Parse("0-1-4711,2-9-5")};
  const std::string text = codec.Encode(t, kBinding);
  // The 32-character token, '_', the position's token form.
  const size_t mark = text.find('_');
  ASSERT_NE(mark, std::string::npos) << text;
  ExpectWellFormed(text.substr(0, mark));
  EXPECT_EQ(text.substr(mark), "_0.1.4711_2.9.5");
  EXPECT_EQ(codec.Decode(text, kBinding), t);
  // The same run without a position is the token of before: no mark.
  const std::string plain = codec.Encode(ContinueToken{t.run_start, t.keyset, {}}, kBinding);
  EXPECT_EQ(plain.find('_'), std::string::npos);
  EXPECT_NE(plain, text.substr(0, mark));  // the MAC covers the position
  // Another position, a position dropped or added, another binding: refused.
  for (const std::string& forged :
       {text.substr(0, mark) + "_0.1.4712_2.9.5", text.substr(0, mark) + "_0.1.4711", text.substr(0, mark),
        plain + "_0.1.4711_2.9.5", text + "_3.1.1", text.substr(0, mark) + "_0.1.4711_2.9.05", text + "_"}) {
    EXPECT_FALSE(codec.Decode(forged, kBinding).has_value()) << forged;
  }
  EXPECT_FALSE(codec.Decode(text, "yads\n2026-10-02 00:00:00").has_value());
}

}  // namespace
}  // namespace feed
