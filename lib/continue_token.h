// The Yads <continue> token: where the next page starts, carried by the
// robot instead of a server-side session.
//
// A token holds the run's start moment (so every page of one run shows the
// same yml_catalog date and binds the same :now) and the keyset position of
// the last row sent (up to 3 integers). It is at most 32 characters, all
// [0-9A-Za-z], and tamper-evident: a keyed MAC (SipHash-2-4 keyed from the
// config secret, truncated to 48 bits) covers the payload and the `binding`
// string (the feed name and the normalised `date` it was issued for), so a
// forged or altered token, or one replayed with another `date` or on another
// feed, does not decode.
//
// With replicas (issue #13) it also carries the replication position the
// run's page was read at, packed with the rest into the same 32 characters
// (issue #22: the Yads <continue> holds up to 32 letters and digits, and
// the position used to follow them as "_0.1.4711"). A position too large
// to fit beside the keyset values (many domains, huge numbers) is left
// out: the token is then one without a position, whose next page is read
// from the primary (ReplicaSet::ForRead), which has every position, so the
// run is still never read at an older state. A token without one (every
// token issued before replicas, and by a node that has none) decodes as
// before, its position empty; one of the build before issue #22 (the 32
// characters, '_', the position) still decodes too, for the runs in
// progress across the upgrade, but is no longer written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gtid_position.h"

namespace feed {

struct ContinueToken {
  ContinueToken() = default;
  ContinueToken(int64_t start, std::vector<int64_t> keys, GtidPosition at = {})
      : run_start(start), keyset(std::move(keys)), position(std::move(at)) {}
  int64_t run_start = 0;        // NaiveSeconds of the run's start, site time
  std::vector<int64_t> keyset;  // the last row's keyset values, 1 to 3 of them
  GtidPosition position;        // what the first page's rows were read at; empty: unknown
  friend bool operator==(const ContinueToken&, const ContinueToken&) = default;
};

class ContinueTokenCodec {
 public:
  // Throws FeedError(kConfig) when `secret` is empty.
  explicit ContinueTokenCodec(std::string_view secret);

  // Why `token` cannot be encoded (1 to 3 keyset values, each value and
  // run_start in [-2^47, 2^47), all of them fitting 32 characters), or ""
  // when it can.
  static std::string Unfit(const ContinueToken& token) { return Unfit(token.run_start, token.keyset); }
  static std::string Unfit(int64_t run_start, const std::vector<int64_t>& keyset);

  // True when `token` has a position and it fits the 32 characters beside
  // the rest; Encode then carries it, else it leaves it out. REQUIRES
  // nothing (false when Unfit(token) is not empty).
  static bool PositionFits(const ContinueToken& token);

  // 1 to 32 characters of [0-9A-Za-z], always. The position is carried when
  // PositionFits(token), else left out. REQUIRES: token.position empty, or
  // token.run_start within [now - kMaxRunSecondsLimit, now + kRunStartAhead]
  // of the `now` the token will be decoded at (a token of a run the feed
  // still serves). Throws FeedError(kInternal) when Unfit(token) is not
  // empty.
  std::string Encode(const ContinueToken& token, std::string_view binding) const;

  // std::nullopt for anything Encode did not produce with this secret and
  // this binding (or a token of the build before issue #22, "..._0.1.4711"):
  // wrong length or alphabet, bad MAC, malformed payload. `now` (NaiveSeconds
  // of site time, as run_start) places a packed run start: a token with a
  // position whose run began outside [now + kRunStartAhead - 2^22 s, now +
  // kRunStartAhead] (48.5 days) does not decode.
  std::optional<ContinueToken> Decode(std::string_view text, std::string_view binding, int64_t now) const;

 private:
  uint64_t k0_, k1_;
};

// How far after the request's moment a token's run may start: several
// servers behind one name whose clocks differ, or site time that goes back
// an hour when summer time ends.
constexpr int64_t kRunStartAhead = 86400;

// The largest max_run_seconds a feed may set (31 days): a token carrying a
// position packs its run start relative to the moment it is decoded at.
constexpr int64_t kMaxRunSecondsLimit = 31 * 86400;

// How much longer than its max_run_seconds a run's tokens are taken: the
// web server's clock stepped forward (an NTP correction, a host's clock put
// right) makes a run look older than it is, and a robot half-way through a
// dump must not be sent back to its start by it (issue #22). A clock
// stepped back makes the run start look ahead of now: kRunStartAhead
// covers that.
constexpr int64_t kClockStepAllowance = 3600;

// Why a decoded token cannot continue a run this feed is still serving, as
// the rest of a sentence "a run that ...", or "" when it can: its start lies
// more than `max_age` + kClockStepAllowance seconds before `now` or more
// than kRunStartAhead after it (the message names `max_age`, the run's
// validity as the owner set it). `run_start` and `now` are NaiveSeconds of site time; the MAC says
// only that this feed wrote the token, not when, and a token made with a
// leaked secret may carry any start.
std::string RunStartUnfit(int64_t run_start, int64_t now, int64_t max_age);

// SipHash-2-4 of `data` under the 128-bit key (k0, k1).
uint64_t SipHash24(uint64_t k0, uint64_t k1, std::string_view data);

// `v` as 16 lower-case hex digits (entity tags, plan identities).
std::string Hex64(uint64_t v);

}  // namespace feed
