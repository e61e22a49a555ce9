#include "item_lifecycle.h"

#include <algorithm>

#include "error.h"

namespace feed {
namespace {

UnixTime After(UnixTime now, UnixTime before) { return std::max(now, before + 1); }

}  // namespace

std::optional<ItemChange> DecideItem(const BoardItem* board, bool ran_out, const ItemState* state, UnixTime now) {
  const bool shown = board && !ran_out;
  if (shown) {
    ItemChange c;
    c.title = board->title;
    c.link = board->link;
    c.state.id = board->id;
    c.state.fingerprint = board->fingerprint;
    c.state.expires = board->end;
    if (!state) {
      c.kind = ItemChange::kCreated;
      c.state.modified = now;
      return c;
    }
    if (!state->gone && state->fingerprint == board->fingerprint) return std::nullopt;
    c.kind = state->gone ? ItemChange::kReturned : ItemChange::kUpdated;
    c.state.modified = After(now, state->modified);
    // Once listed, always a candidate for a take-down: MSN may hold any
    // version it was shown, and a take-down of an id it lacks is harmless.
    c.state.listed = state->listed;
    return c;
  }
  if (!state || state->gone) return std::nullopt;
  ItemChange c;
  c.state = *state;
  if (!state->listed) {
    c.kind = ItemChange::kDropped;
    return c;
  }
  c.kind = ItemChange::kTakenDown;
  c.state.gone = true;
  c.state.modified = After(now, state->modified);
  // Its end when it ran out (the board's, else the recorded one when that
  // has passed), else the moment it was found gone.
  std::optional<UnixTime> end = ran_out && board ? board->end : state->expires;
  c.state.expires = end && *end <= now ? *end : now;
  return c;
}

MergeCounts MergeItems(BoardItems& board, StateItems& state, ItemChanges& changes, UnixTime now) {
  MergeCounts n;
  BoardItem b;
  ItemState s;
  bool ran_out = false;
  bool have_b = board.Next(&b, &ran_out), have_s = state.Next(&s);
  int64_t last_b = INT64_MIN, last_s = INT64_MIN;
  auto check = [](int64_t id, int64_t* last, const char* side) {
    if (id <= *last) {
      throw InternalError(std::string(side) + " items are not in ascending id order (id " + std::to_string(id) +
                          " after " + std::to_string(*last) + ")");
    }
    *last = id;
  };
  if (have_b) check(b.id, &last_b, "the board's");
  if (have_s) check(s.id, &last_s, "the recorded");
  while (have_b || have_s) {
    const bool take_b = have_b && (!have_s || b.id <= s.id);
    const bool take_s = have_s && (!have_b || s.id <= b.id);
    if (take_b && !ran_out) ++n.shown;
    std::optional<ItemChange> c = DecideItem(take_b ? &b : nullptr, take_b && ran_out, take_s ? &s : nullptr, now);
    if (!c) {
      if (take_b && !ran_out) ++n.unchanged;
    } else {
      switch (c->kind) {
        case ItemChange::kCreated:
          ++n.created;
          break;
        case ItemChange::kUpdated:
          ++n.updated;
          break;
        case ItemChange::kReturned:
          ++n.returned;
          break;
        case ItemChange::kTakenDown:
          ++n.taken_down;
          break;
        case ItemChange::kDropped:
          ++n.dropped;
          break;
      }
      changes.Apply(*c);
    }
    if (take_b && (have_b = board.Next(&b, &ran_out))) check(b.id, &last_b, "the board's");
    if (take_s && (have_s = state.Next(&s))) check(s.id, &last_s, "the recorded");
  }
  changes.Flush();
  return n;
}

}  // namespace feed
