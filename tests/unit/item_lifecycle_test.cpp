// The lifecycle rules and the streaming merge, over in-memory streams and a
// clock the test moves. Expected events come from a model of MSN's
// ingestion (seed 004's four rules) fed with what the state would list, and
// from the test's own account of what it did to the board, never from the
// code under test.
#include "item_lifecycle.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "error.h"

namespace feed {
namespace {

constexpr UnixTime kT0 = 1793527200;  // 2026-11-01T10:00:00Z
constexpr int64_t kDay = 86400;

BoardItem Item(int64_t id, uint64_t print, std::optional<UnixTime> end = std::nullopt) {
  BoardItem b;
  b.id = id;
  b.fingerprint = print;
  b.end = end;
  b.title = "title " + std::to_string(id);
  b.link = "http://doska.example/ad/" + std::to_string(id) + ".html";
  return b;
}

TEST(DecideItem, EachCaseOfTheLifecycle) {
  const UnixTime now = kT0;
  BoardItem b = Item(7, 111, now + kDay);
  ItemState seen{7, 111, now - 100, now + kDay, false, true};

  // New id: created at the moment it was first seen.
  auto c = DecideItem(&b, false, nullptr, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kCreated);
  EXPECT_EQ(c->state, (ItemState{7, 111, now, now + kDay, false, false}));
  EXPECT_EQ(c->title, "title 7");

  // Same content: nothing, however the board's `updated` moved.
  EXPECT_FALSE(DecideItem(&b, false, &seen, now));

  // Changed content: updated, modified moves to now.
  BoardItem edited = Item(7, 222, now + kDay);
  c = DecideItem(&edited, false, &seen, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kUpdated);
  EXPECT_EQ(c->state, (ItemState{7, 222, now, now + kDay, false, true}));

  // Changed twice within one second: still strictly newer.
  ItemState just{7, 111, now, now + kDay, false, true};
  c = DecideItem(&edited, false, &just, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->state.modified, now + 1);

  // Gone from the board (deleted, hidden): a take-down expiring now.
  c = DecideItem(nullptr, false, &seen, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kTakenDown);
  EXPECT_EQ(c->state, (ItemState{7, 111, now, now, true, true}));

  // Ran out: a take-down expiring at its end.
  BoardItem ended = Item(7, 111, now - 50);
  c = DecideItem(&ended, true, &seen, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kTakenDown);
  EXPECT_EQ(c->state.expires, now - 50);
  // Left the query (its SQL hides ads past their end) with a recorded end
  // that has come: that end.
  ItemState ending{7, 111, now - 100, now - 30, false, true};
  c = DecideItem(nullptr, false, &ending, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->state.expires, now - 30);

  // Gone before any response listed it: the record goes, no take-down.
  ItemState unlisted{7, 111, now - 100, now + kDay, false, false};
  c = DecideItem(nullptr, false, &unlisted, now);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kDropped);

  // Already taken down: nothing more.
  ItemState down{7, 111, now - 10, now - 10, true, true};
  EXPECT_FALSE(DecideItem(nullptr, false, &down, now));
  EXPECT_FALSE(DecideItem(&ended, true, &down, now));

  // Shown again: created again under its id, newer than the take-down.
  c = DecideItem(&b, false, &down, now - 10);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, ItemChange::kReturned);
  EXPECT_EQ(c->state, (ItemState{7, 111, now - 9, now + kDay, false, true}));

  // A row never shown and never recorded: nothing.
  EXPECT_FALSE(DecideItem(&ended, true, nullptr, now));
}

class VectorBoard : public BoardItems {
 public:
  explicit VectorBoard(std::vector<std::pair<BoardItem, bool>> items) : items_(std::move(items)) {}
  bool Next(BoardItem* item, bool* ran_out) override {
    if (at_ >= items_.size()) return false;
    *item = items_[at_].first;
    *ran_out = items_[at_].second;
    ++at_;
    return true;
  }

 private:
  std::vector<std::pair<BoardItem, bool>> items_;
  size_t at_ = 0;
};

// The state table in memory; its reader walks it in id order, a few records
// at a time, as the database reader does.
class MemoryState : public StateItems, public ItemChanges {
 public:
  std::map<int64_t, ItemState> records;
  std::map<int64_t, std::pair<std::string, std::string>> titles;
  size_t applied = 0;

  void Rewind() { after_ = INT64_MIN; }
  bool Next(ItemState* item) override {
    auto it = records.upper_bound(after_);
    if (it == records.end()) return false;
    *item = it->second;
    after_ = it->first;
    return true;
  }
  void Apply(const ItemChange& c) override {
    // Written only once the merge has passed the id (batched), as the
    // database writer does: the reader must not see its own writes.
    pending_.push_back(c);
  }
  void Flush() override {
    for (const ItemChange& c : pending_) {
      ++applied;
      if (c.kind == ItemChange::kDropped) {
        records.erase(c.state.id);
        continue;
      }
      ItemState s = c.state;
      if (auto it = records.find(s.id); it != records.end()) s.listed = s.listed || it->second.listed;
      records[s.id] = s;
      if (c.kind != ItemChange::kTakenDown) titles[s.id] = {c.title, c.link};
    }
    pending_.clear();
  }

 private:
  int64_t after_ = INT64_MIN;
  std::vector<ItemChange> pending_;
};

TEST(MergeItems, FindsHardDeletesAndNewIdsWhileBothStreamsAdvance) {
  MemoryState state;
  VectorBoard first({{Item(1, 10), false}, {Item(2, 20), false}, {Item(5, 50), false}});
  MergeCounts n = MergeItems(first, state, state, kT0);
  EXPECT_EQ(n.created, 3u);
  for (auto& [id, s] : state.records) s.listed = true;  // a response listed them
  // 2 hard-deleted, 3 new, 5 edited, 1 unchanged, 9 new at the end.
  state.Rewind();
  VectorBoard second({{Item(1, 10), false}, {Item(3, 30), false}, {Item(5, 51), false}, {Item(9, 90), false}});
  n = MergeItems(second, state, state, kT0 + 60);
  EXPECT_EQ(n.shown, 4u);
  EXPECT_EQ(n.unchanged, 1u);
  EXPECT_EQ(n.created, 2u);
  EXPECT_EQ(n.updated, 1u);
  EXPECT_EQ(n.taken_down, 1u);
  EXPECT_TRUE(state.records[2].gone);
  EXPECT_EQ(state.records[2].modified, kT0 + 60);
  EXPECT_EQ(state.records[2].expires, kT0 + 60);
  EXPECT_EQ(state.titles[2].first, "title 2") << "a take-down keeps the last title";
  EXPECT_EQ(state.records[5].fingerprint, 51u);
  EXPECT_EQ(state.records[1].modified, kT0);
  // Run again over the same board: nothing changes twice.
  state.Rewind();
  VectorBoard again({{Item(1, 10), false}, {Item(3, 30), false}, {Item(5, 51), false}, {Item(9, 90), false}});
  n = MergeItems(again, state, state, kT0 + 120);
  EXPECT_EQ(n.Changes(), 0u);
  EXPECT_EQ(n.unchanged, 4u);
}

TEST(MergeItems, RefusesStreamsOutOfOrder) {
  MemoryState state;
  VectorBoard board({{Item(2, 1), false}, {Item(1, 1), false}});
  EXPECT_THROW(MergeItems(board, state, state, kT0), FeedError);
  VectorBoard dup({{Item(2, 1), false}, {Item(2, 1), false}});
  EXPECT_THROW(MergeItems(dup, state, state, kT0), FeedError);
}

// MSN's ingestion, by the seed's table: a new id is created; the same id
// with a newer modified date is updated, or taken down when its expiration
// has passed too; the same id with the same modified date is skipped.
struct MsnModel {
  struct Entry {
    UnixTime modified;
    bool published;
  };
  std::map<std::string, Entry> index;
  std::map<std::string, int> created, updated, taken_down;

  void Ingest(const std::string& guid, UnixTime modified, std::optional<UnixTime> expires, UnixTime at) {
    const bool expired = expires && *expires < at;
    auto it = index.find(guid);
    if (it == index.end()) {
      index[guid] = {modified, !expired};
      ++created[guid];
      return;
    }
    if (modified <= it->second.modified) return;  // skipped
    it->second.modified = modified;
    if (expired) {
      it->second.published = false;
      ++taken_down[guid];
    } else {
      it->second.published = true;
      ++updated[guid];
    }
  }
  std::set<std::string> Published() const {
    std::set<std::string> s;
    for (const auto& [g, e] : index) {
      if (e.published) s.insert(g);
    }
    return s;
  }
};

// Many rounds of random board activity: after each, a fetch of what the
// state lists (everything in the window and retention; no cap) goes through
// the model, and the model's published set must be what the board shows,
// with each change of the round seen exactly once.
TEST(MergeItems, MsnSeesEveryChangeOnceOverManyRounds) {
  std::mt19937 rng(7);
  struct Ad {
    uint64_t content;
    UnixTime end;
    bool hidden = false;
  };
  std::map<int64_t, Ad> board;
  int64_t next_id = 1;
  UnixTime now = kT0;
  for (int i = 0; i < 200; ++i) board[next_id++] = {rng(), now + static_cast<int64_t>(rng() % (20 * kDay))};
  MemoryState state;
  MsnModel msn;
  const int64_t window = 7 * kDay, retention = 7 * kDay;
  for (int round = 0; round < 40; ++round) {
    std::map<std::string, int> want_down;
    if (round > 0) {
      std::set<int64_t> shown_before;
      for (auto& [id, ad] : board) {
        if (!ad.hidden && ad.end > now) shown_before.insert(id);
      }
      now += static_cast<int64_t>(rng() % (kDay / 2));
      for (int k = 0; k < 30; ++k) {
        const int64_t id = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(next_id - 1));
        auto it = board.find(id);
        switch (rng() % 6) {
          case 0:  // a new ad
            board[next_id++] = {rng(), now + kDay + static_cast<int64_t>(rng() % (10 * kDay))};
            break;
          case 1:  // an edit
            if (it != board.end()) it->second.content = rng();
            break;
          case 2:  // a raise: the board's `updated` only, not the content
            break;
          case 3:  // hidden
            if (it != board.end()) it->second.hidden = true;
            break;
          case 4:  // hard-deleted
            if (it != board.end()) board.erase(it);
            break;
          case 5:  // shown again, its period extended
            if (it != board.end()) it->second = {it->second.content, now + 5 * kDay, false};
            break;
        }
      }
      // What MSN must see: each id whose shown state or content changed.
      for (const auto& [guid, e] : msn.index) {
        const int64_t id = std::stoll(guid);
        auto it = board.find(id);
        const bool shown = it != board.end() && !it->second.hidden && it->second.end > now;
        if (e.published && !shown) ++want_down[guid];
      }
    }
    // The sync.
    std::vector<std::pair<BoardItem, bool>> items;
    for (const auto& [id, ad] : board) {
      if (ad.hidden) continue;
      items.push_back({Item(id, ad.content, ad.end), ad.end <= now});
    }
    VectorBoard source(items);
    state.Rewind();
    MergeItems(source, state, state, now);
    // The fetch: shown items modified in the window, take-downs in
    // retention; MSN ingests a moment later.
    for (auto& [id, s] : state.records) {
      if (s.gone ? s.modified >= now - retention : s.modified >= now - window) {
        msn.Ingest(std::to_string(id), s.modified, s.expires, now + 1);
        s.listed = true;
      }
    }
    std::set<std::string> shown;
    for (const auto& [id, ad] : board) {
      if (!ad.hidden && ad.end > now) shown.insert(std::to_string(id));
    }
    ASSERT_EQ(msn.Published(), shown) << "round " << round;
    EXPECT_EQ(msn.taken_down, want_down) << "round " << round << ": each disappearance is one take-down";
    msn.taken_down.clear();
  }
}

}  // namespace
}  // namespace feed
