// A MariaDB replication position: for each replication domain, the last
// transaction (GTID) applied, as @@gtid_binlog_pos and @@gtid_slave_pos
// write it and MASTER_GTID_WAIT takes it: "D-S-N" items (domain id and
// server id below 2^32, sequence number below 2^64) joined by ','. A
// continue token carries one, packed (continue_token.h), so that a later
// page is never read from a replica that has not reached what the page
// before it saw.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feed {

struct Gtid {
  uint32_t domain = 0;
  uint32_t server = 0;
  uint64_t seq = 0;
  friend bool operator==(const Gtid&, const Gtid&) = default;
};

class GtidPosition {
 public:
  // At most this many domains (a board has one or a few).
  static constexpr size_t kMaxDomains = 16;

  GtidPosition() = default;

  // The server's form, items in any order, whitespace around them allowed
  // (the server writes none); "" is the empty position. nullopt for
  // anything else: a malformed item, a number out of range or with a sign,
  // two items of one domain, more than kMaxDomains items.
  static std::optional<GtidPosition> Parse(std::string_view text);

  // The form tokens of the build before issue #22 carried after their 32
  // characters (still decoded; tokens now pack the position inside,
  // continue_token.h): "D.S.N" items joined by '_', domains ascending,
  // numbers without leading zeros, not empty. Only this one spelling of a
  // position is accepted (so a token has one spelling).
  static std::optional<GtidPosition> ParseTokenForm(std::string_view text);

  // The server's form, domains ascending: "0-1-100,1-2-5"; "" when empty.
  std::string ToString() const;
  // The token's form: "0.1.100_1.2.5". REQUIRES: !empty().
  std::string TokenForm() const;

  bool empty() const { return gtids_.empty(); }
  const std::vector<Gtid>& gtids() const { return gtids_; }
  friend bool operator==(const GtidPosition&, const GtidPosition&) = default;

 private:
  std::vector<Gtid> gtids_;  // domains ascending, each once
};

// A position kept in a row beside the moment it belongs to (a part plan's
// `planned`, an MSN sync's `synced`), as "MOMENT POSITION" in the server's
// form: an older version that rewrites the row without the position leaves
// one of another moment behind, which then reads as unknown.
std::string StampPosition(int64_t moment, const GtidPosition& p);
// The position `stamped` holds when it was stamped for `moment`; else
// (another moment, '', malformed) the empty position, which only the
// primary serves (ReplicaSet::ForRead).
GtidPosition StampedPosition(std::string_view stamped, int64_t moment);

}  // namespace feed
