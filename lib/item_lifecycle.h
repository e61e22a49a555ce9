// The life of a feed's items as MSN's ingestion sees them (seed 004): each
// item is created once, updated once per real change of its content, and
// taken down once when it leaves the board. This module holds the rules and
// the streaming merge that applies them; it knows nothing of SQL (the board's
// items and the recorded state come through the interfaces below, from the
// database in msn_feed.cpp and item_state.cpp, from memory in unit tests).
//
// What the board shows, and what was recorded, are two streams in ascending
// id order, merged while they stream: neither side is ever held in memory,
// so a hard-deleted row (no tombstone on the board) is found as an id the
// state has and the board no longer does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "datetime.h"

namespace feed {

// One item as the board shows it now.
struct BoardItem {
  int64_t id = 0;
  uint64_t fingerprint = 0;     // of its content as the feed renders it (everything but the modified date)
  std::optional<UnixTime> end;  // when it stops being shown (an ad's added + period), if it has one
  std::string title, link;      // raw values, repeated by a take-down
};

// What the state table records of one item.
struct ItemState {
  int64_t id = 0;
  uint64_t fingerprint = 0;
  UnixTime modified = 0;            // the moment its content last changed (or it was taken down)
  std::optional<UnixTime> expires;  // its end; for a take-down, the moment it left (or its end)
  bool gone = false;                // taken down: listed with an expiration in the past
  bool listed = false;              // a response has shown it (only such items get take-downs)
  friend bool operator==(const ItemState&, const ItemState&) = default;
};

// What a merge does to one item's record.
struct ItemChange {
  enum Kind {
    kCreated,    // new id: a record
    kUpdated,    // the content changed: new fingerprint, modified moves
    kReturned,   // a taken-down item is shown again: created again under its id
    kTakenDown,  // left the board (deleted, hidden, ran out, or breaks a rule of the template)
    kDropped,    // left the board before any response listed it: the record goes
  };
  Kind kind = kCreated;
  ItemState state;          // the record after the change (kDropped: the old one)
  std::string title, link;  // the content's title and link (not for kTakenDown, kDropped)
};

// Decides what happens to an item at `now` (the moment the board was read),
// given what the board shows (`board`: nullptr when the id is not there) and
// what was recorded (`state`: nullptr when nothing was). `ran_out`: the
// board still has the row but its end has come (`board` then gives the end).
// Returns nullopt when the record stays as it is: an unchanged item, an
// item gone and already taken down, a row never shown.
//   - A modified date only ever moves forward, by at least a second (MSN
//     compares dates at that resolution): max(now, old + 1).
//   - A take-down's expiration is the item's end when it ran out, else the
//     moment it was found gone (it left the board at the latest then).
std::optional<ItemChange> DecideItem(const BoardItem* board, bool ran_out, const ItemState* state, UnixTime now);

// The board's items in ascending id order, each id once.
class BoardItems {
 public:
  virtual ~BoardItems() = default;
  // Advances; false at the end. `*ran_out` as for DecideItem.
  virtual bool Next(BoardItem* item, bool* ran_out) = 0;
};

// The recorded items in ascending id order.
class StateItems {
 public:
  virtual ~StateItems() = default;
  virtual bool Next(ItemState* item) = 0;
};

// Where the changes go (batched by the database implementation).
class ItemChanges {
 public:
  virtual ~ItemChanges() = default;
  virtual void Apply(const ItemChange& change) = 0;
  // Writes whatever is still pending.
  virtual void Flush() = 0;
};

// How many items a merge saw and changed.
struct MergeCounts {
  size_t shown = 0;  // items the board shows
  size_t unchanged = 0, created = 0, updated = 0, returned = 0, taken_down = 0, dropped = 0;
  size_t Changes() const { return created + updated + returned + taken_down + dropped; }
};

// Merges the two streams and applies every change, then flushes. Throws
// FeedError(kInternal) when a stream is not in ascending id order; what the
// streams and `changes` throw otherwise. Whatever was applied before a throw
// stays consistent on its own: a merge run again over the same board makes
// no change twice (each decision depends only on the item and its record).
MergeCounts MergeItems(BoardItems& board, StateItems& state, ItemChanges& changes, UnixTime now);

}  // namespace feed
