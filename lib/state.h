// Everything the engine writes to the database, in tables it owns
// (sql/state.sql): robots' last whole visits (Jooble), the part plans of
// live document sets (sitemaps) and the moment each feed's current state
// was first seen (Last-Modified). Constant SQL with bound values: names
// come from the config, never from a request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "gtid_position.h"
#include "keyset.h"

namespace feed {

// A named lock of the server's (GET_LOCK) on `db`'s connection, serialising
// one job across processes: held from construction to destruction, or not
// at all when `acquired()` is false (it waited `seconds`). While held, `db`
// is pinned (Database::Pin): the lock's connection lost, every later call
// on `db` fails instead of going on without the lock on a new connection.
// Released on destruction; a connection that is gone released it already
// (so is the lock of a process that was killed: the server sees its
// connection close).
class NamedLock {
 public:
  NamedLock(Database& db, std::string name, int seconds);
  ~NamedLock();
  NamedLock(const NamedLock&) = delete;
  NamedLock& operator=(const NamedLock&) = delete;
  bool acquired() const { return acquired_; }
  // When not acquired: the server's id of the connection holding it
  // (IS_USED_LOCK, as SHOW PROCESSLIST shows it), "" when it was released
  // in between.
  const std::string& holder() const { return holder_; }

 private:
  Database& db_;
  std::string name_;
  bool acquired_ = false;
  std::string holder_;
};

// One part of a live set: the keyset range it serves, and what it held
// when the plan was last refreshed.
struct PartRange {
  int number = 0;                 // in the part's name: sitemap-ads-NUMBER.xml
  Position after;                 // the range starts after this position...
  std::optional<Position> until;  // ...and ends at this one; none: the open last part
  int64_t rows = 0;
  int64_t bytes = 0;
  std::string lastmod;  // newest change among its rows ("" none)
  friend bool operator==(const PartRange&, const PartRange&) = default;
};

// A robot's recorded visits of a feed: the snapshot moments
// ("YYYY-MM-DD HH:MM:SS", site time) of its last two.
struct Visits {
  std::optional<std::string> last, previous;
};

// One robot's record of one feed, as feed_robot_visit holds it (site
// time, "YYYY-MM-DD HH:MM:SS"): the status page's list.
struct RobotVisit {
  std::string robot, feed;
  std::string last, previous;  // previous: "" when none
  std::string recorded;        // when the last one was written
};

struct PartPlan {
  std::string identity;  // the mapping and limits the plan was made for
  int64_t planned = 0;   // UnixTime it was last refreshed
  std::vector<PartRange> parts;
  // The replication position its rows were read at: a part is read from a
  // server that has reached it. Empty: unknown (made before replicas, or
  // stored where it has no column), which only the primary serves.
  GtidPosition at;
  const PartRange* Find(int number) const;
};

class StateStore {
 public:
  explicit StateStore(Database& db) : db_(db) {}

  // Throws FeedError(kConfig) saying to apply sql/state.sql when a table is
  // missing; kUnavailable when the database is down.
  void CheckVisits();
  void CheckPlans();
  void CheckSeen();
  // Whether feed_part_plan has its `position` column (sql/state.sql adds it
  // to a table of an older version). REQUIRES: CheckPlans passed.
  bool PlansHavePosition();

  // The robot's recorded visits of `feed` (none: both nullopt).
  Visits LoadVisits(const std::string& robot, const std::string& feed);
  // Every robot's record of every feed, by robot then feed (at most 1000).
  std::vector<RobotVisit> ListVisits();
  // The database server's clock (UNIX_TIMESTAMP()): the one clock every
  // node behind a name shares, against which the engine checks its own
  // before it records a visit (DocumentFeed::RecordVisit).
  int64_t ServerNow();
  // Moves the record forward to `visit` (never back), the last one becoming
  // the previous one; stamped `now`.
  void RecordVisit(const std::string& robot, const std::string& feed, const std::string& visit, const std::string& now);

  // When `feed`'s rows `scope` (a key of at most 16 characters: which rows
  // the state covers) were first seen in the state `state` (a key of at
  // most 16 characters), Unix seconds: the stored moment when the record
  // holds `state`; otherwise a new moment is recorded and returned: `now`
  // for a new scope, and for a changed state `now` or, when that is not
  // later than the moment of the state it replaces, one second after that
  // one (so that two states never share a moment at HTTP's resolution; the
  // caller keeps a moment past `now` to itself until it comes). The table
  // is written only when a state changes or a scope is new. A feed keeps
  // at most kMaxSeenScopes records; a new scope past that drops the record
  // first seen longest ago (its scope then starts again at the moment it
  // is next seen, later than the truth, never earlier).
  static constexpr int64_t kMaxSeenScopes = 10000;
  int64_t StateSeen(const std::string& feed, const std::string& scope, const std::string& state, int64_t now);

  // The stored plan of `feed`'s parts (positions of `keyset_size` values),
  // or nullopt when there is none or it cannot be read back. Its `at` is
  // read only `with_position` (the table has the column), and only when it
  // was stored with this plan's `planned` (StampedPosition).
  std::optional<PartPlan> LoadPlan(const std::string& feed, size_t keyset_size, bool with_position = true);
  // Replaces the plan in one statement (its `at` too, `with_position`).
  void SavePlan(const std::string& feed, const PartPlan& plan, bool with_position = true);

  // Serialises planning of one feed across processes (NamedLock).
  class PlanLock : public NamedLock {
   public:
    PlanLock(StateStore& store, const std::string& feed, int seconds)
        : NamedLock(store.db_, "feed.fcgi plan " + feed, seconds) {}
  };

  // The plan's text form, one part a line (exposed for tests).
  static std::string FormatParts(const std::vector<PartRange>& parts);
  static std::optional<std::vector<PartRange>> ParseParts(const std::string& text, size_t keyset_size);

 private:
  Database& db_;
};

}  // namespace feed
