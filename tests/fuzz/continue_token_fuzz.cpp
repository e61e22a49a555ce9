// Decode takes robot-supplied text: it must never crash or throw, and must
// accept nothing Encode did not write (or, the one exception, a token of the
// build before issue #22: the 32 characters, '_', a position). Every token
// Encode writes is 1 to 32 of [0-9A-Za-z], its position packed inside or,
// when it does not fit, left out. Random bytes almost never carry a
// valid MAC, so the input also steers a structured path: build a real token
// from the bytes, alter it as the bytes say, and check the verdict.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "continue_token.h"
#include "gtid_position.h"

namespace {

using feed::ContinueToken;
using feed::ContinueTokenCodec;

constexpr std::string_view kAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void Check(bool ok) {
  if (!ok) std::abort();
}

constexpr int64_t kNow = 1796126400;  // the decoding moment, NaiveSeconds

const ContinueTokenCodec& Codec() {
  static const ContinueTokenCodec codec("fuzz secret");
  return codec;
}

using feed::fuzz::Bytes;

// A value from one of the shapes the codec distinguishes.
int64_t TakeValue(Bytes& b) {
  const uint64_t shape = b.Take(1) % 5;
  const uint64_t raw = b.Take(6);
  switch (shape) {
    case 0:
      return static_cast<int64_t>(raw % 65536) - 32768;  // small
    case 1:
      return static_cast<int64_t>(raw % (uint64_t{1} << 32));  // epoch-like
    case 2:
      return static_cast<int64_t>(raw % (uint64_t{1} << 34)) + (int64_t{1} << 32);
    case 3:
      return static_cast<int64_t>(raw % (uint64_t{1} << 48)) - (int64_t{1} << 47);
    default:
      return 1700000000 + static_cast<int64_t>(raw % 200000000);  // realistic
  }
}

// Both forms of a replication position: what is accepted reads back the
// same, and the token form has one spelling.
void PositionRaw(std::string_view text) {
  if (auto p = feed::GtidPosition::Parse(text)) {
    Check(p->gtids().size() <= feed::GtidPosition::kMaxDomains);
    auto again = feed::GtidPosition::Parse(p->ToString());
    Check(again.has_value() && *again == *p);
    if (!p->empty()) Check(feed::GtidPosition::ParseTokenForm(p->TokenForm()) == p);
  }
  if (auto p = feed::GtidPosition::ParseTokenForm(text)) Check(!p->empty() && p->TokenForm() == text);
}

void DecodeRaw(std::string_view text, std::string_view binding) {
  if (auto t = Codec().Decode(text, binding, kNow)) {
    const size_t mark = text.find('_');
    if (mark == std::string_view::npos) {
      // Accepted: must be exactly what Encode writes for it.
      Check(Codec().Encode(*t, binding) == text);
    } else {
      // The earlier build's form: one spelling of a position after the mark.
      Check(!t->position.empty() && text.substr(mark + 1) == t->position.TokenForm());
    }
  }
}

void Structured(const uint8_t* data, size_t size) {
  Bytes b(data, size);
  ContinueToken t;
  t.run_start = TakeValue(b);
  const size_t count = 1 + b.Take(1) % 3;
  for (size_t i = 0; i < count; ++i) t.keyset.push_back(TakeValue(b));
  // A replication position of 0 to 16 domains, numbers of any width (a
  // repeated domain is no position: then none).
  std::string server_form;
  for (uint64_t d = b.Take(1) % 17; d > 0; --d) {
    if (!server_form.empty()) server_form += ',';
    server_form += std::to_string(b.Take(1) % 3 == 0 ? b.Take(4) & 0xffffffff : b.Take(1) % 20) + '-' +
                   std::to_string(b.Take(4) & 0xffffffff) + '-' + std::to_string(b.Take(8) >> (b.Take(1) % 64));
  }
  if (auto p = feed::GtidPosition::Parse(server_form)) t.position = *p;
  // A run the feed still serves at kNow (Encode's REQUIRES for a position).
  if (!t.position.empty()) t.run_start = kNow - static_cast<int64_t>(b.Take(3) % (32 * 86400)) + 86400;
  const std::string binding(b.Rest().substr(0, 40));

  if (!ContinueTokenCodec::Unfit(t).empty()) return;  // too wide for 32 characters: documented
  const std::string token = Codec().Encode(t, binding);
  Check(!token.empty() && token.size() <= 32);
  Check(token.find_first_not_of(kAlphabet) == std::string::npos);
  ContinueToken want = t;
  if (!ContinueTokenCodec::PositionFits(t)) want.position = {};  // left out: the primary serves
  auto back = Codec().Decode(token, binding, kNow);
  Check(back.has_value() && *back == want);
  Check(!Codec().Decode(token, binding + "x", kNow).has_value());
  Check(!Codec().Decode(token.substr(0, token.size() - 1), binding, kNow).has_value());
  if (!want.position.empty()) {
    // The old form's suffix glued on is not the token any more.
    Check(!Codec().Decode(token + "_" + want.position.TokenForm(), binding, kNow).has_value());
  }

  // One change anywhere, steered by the input: never accepted.
  const size_t pos = b.Take(1) % token.size();
  std::string altered = token;
  altered[pos] = static_cast<char>(b.Take(1));
  if (altered != token) Check(!Codec().Decode(altered, binding, kNow).has_value());
  altered = token;
  altered[pos] = kAlphabet[b.Take(1) % kAlphabet.size()];
  if (altered != token) Check(!Codec().Decode(altered, binding, kNow).has_value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  DecodeRaw(in, "yads");
  PositionRaw(in);
  // Also split as token '\n' binding, so both halves vary.
  const size_t nl = in.find('\n');
  if (nl != std::string_view::npos) DecodeRaw(in.substr(0, nl), in.substr(nl + 1));
  Structured(data, size);
  return 0;
}
