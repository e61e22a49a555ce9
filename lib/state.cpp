#include "state.h"

#include <algorithm>
#include <sstream>

#include "error.h"

namespace feed {
namespace {

SqlQuery State(const char* text) { return ParseSqlQuery(text, "sql/state.sql"); }

constexpr char kLoadVisit[] =
    "SELECT last_visit, previous_visit FROM feed_robot_visit WHERE robot = :robot AND feed = :feed";
// A newer visit pushes the last one down to previous_visit (assignments
// run left to right, so previous_visit sees the old last_visit);
// GREATEST: two overlapping visits never move the record back.
constexpr char kSaveVisit[] =
    "INSERT INTO feed_robot_visit (robot, feed, last_visit, previous_visit, recorded) "
    "VALUES (:robot, :feed, :visit, NULL, :now) ON DUPLICATE KEY UPDATE "
    // A visit in the same second as the last (same snapshot) still makes
    // the last one previous; one from an earlier moment (a clock set
    // back) moves nothing.
    "previous_visit = IF(VALUES(last_visit) >= last_visit, last_visit, previous_visit), "
    "last_visit = GREATEST(last_visit, VALUES(last_visit)), recorded = VALUES(recorded)";
constexpr char kListVisits[] =
    "SELECT robot, feed, last_visit, previous_visit, recorded FROM feed_robot_visit ORDER BY robot, feed LIMIT 1000";
// Without `position`: a table of before replicas (sql/state.sql adds it).
constexpr char kLoadPlan[] = "SELECT identity, planned, parts FROM feed_part_plan WHERE feed = :feed";
constexpr char kSavePlan[] =
    "INSERT INTO feed_part_plan (feed, identity, planned, parts) VALUES (:feed, :identity, :planned, :parts) "
    "ON DUPLICATE KEY UPDATE identity = VALUES(identity), planned = VALUES(planned), parts = VALUES(parts)";
constexpr char kLoadPlanAt[] = "SELECT identity, planned, parts, position FROM feed_part_plan WHERE feed = :feed";
constexpr char kSavePlanAt[] =
    "INSERT INTO feed_part_plan (feed, identity, planned, parts, position) "
    "VALUES (:feed, :identity, :planned, :parts, :position) "
    "ON DUPLICATE KEY UPDATE identity = VALUES(identity), planned = VALUES(planned), parts = VALUES(parts), "
    "position = VALUES(position)";
constexpr char kLoadSeen[] = "SELECT state, first_seen FROM feed_state_seen WHERE feed = :feed AND scope = :scope";
// first_seen is assigned first, so that it compares with the state the
// record held: two processes that see one new state keep the earlier
// moment, and a state replacing another gets a later moment than it.
constexpr char kSaveSeen[] =
    "INSERT INTO feed_state_seen (feed, scope, state, first_seen) VALUES (:feed, :scope, :state, :now) "
    "ON DUPLICATE KEY UPDATE first_seen = IF(state = VALUES(state), first_seen, "
    "GREATEST(VALUES(first_seen), first_seen + 1)), state = VALUES(state)";
constexpr char kCountSeen[] = "SELECT COUNT(*) FROM feed_state_seen WHERE feed = :feed";
constexpr char kDropSeen[] = "DELETE FROM feed_state_seen WHERE feed = :feed ORDER BY first_seen, scope LIMIT :n";
constexpr char kServerNow[] = "SELECT UNIX_TIMESTAMP()";
constexpr char kGetLock[] = "SELECT GET_LOCK(:name, :seconds)";
constexpr char kReleaseLock[] = "SELECT RELEASE_LOCK(:name)";
constexpr char kUsedLock[] = "SELECT IS_USED_LOCK(:name)";

void CheckTable(Database& db, const SqlQuery& q, const char* table) {
  try {
    db.Describe(q);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    throw ConfigError(std::string("the table ") + table + " is missing: apply sql/state.sql (" + e.what() + ")");
  }
}

}  // namespace

const PartRange* PartPlan::Find(int number) const {
  for (const PartRange& p : parts) {
    if (p.number == number) return &p;
  }
  return nullptr;
}

void StateStore::CheckVisits() { CheckTable(db_, State(kLoadVisit), "feed_robot_visit"); }
void StateStore::CheckPlans() { CheckTable(db_, State(kLoadPlan), "feed_part_plan"); }
void StateStore::CheckSeen() { CheckTable(db_, State(kLoadSeen), "feed_state_seen"); }

bool StateStore::PlansHavePosition() { return db_.Accepts(State(kLoadPlanAt)); }

Visits StateStore::LoadVisits(const std::string& robot, const std::string& feed) {
  Rows visit = db_.Run(State(kLoadVisit), {{"robot", robot}, {"feed", feed}});
  Visits v;
  if (!visit.Next()) return v;
  if (!visit.IsNull(0)) v.last = std::string(visit.Get(0));
  if (!visit.IsNull(1)) v.previous = std::string(visit.Get(1));
  return v;
}

std::vector<RobotVisit> StateStore::ListVisits() {
  std::vector<RobotVisit> out;
  Rows r = db_.Run(State(kListVisits), {});
  while (r.Next()) {
    out.push_back({std::string(r.Get(0)), std::string(r.Get(1)), std::string(r.Get(2)), std::string(r.Get(3)),
                   std::string(r.Get(4))});
  }
  return out;
}

int64_t StateStore::ServerNow() {
  Rows r = db_.Run(State(kServerNow), {});
  if (!r.Next() || r.IsNull(0)) throw InternalError("SELECT UNIX_TIMESTAMP() gave no row");
  return std::atoll(std::string(r.Get(0)).c_str());
}

void StateStore::RecordVisit(const std::string& robot, const std::string& feed, const std::string& visit,
                             const std::string& now) {
  db_.Update(State(kSaveVisit), {{"robot", robot}, {"feed", feed}, {"visit", visit}, {"now", now}});
}

int64_t StateStore::StateSeen(const std::string& feed, const std::string& scope, const std::string& state,
                              int64_t now) {
  const SqlParams key = {{"feed", feed}, {"scope", scope}};
  auto load = [&]() -> std::optional<std::pair<std::string, int64_t>> {
    Rows r = db_.Run(State(kLoadSeen), key);
    if (!r.Next()) return std::nullopt;
    return std::pair(std::string(r.Get(0)), std::atoll(std::string(r.Get(1)).c_str()));
  };
  auto stored = load();
  if (stored && stored->first == state) return stored->second;
  db_.Update(State(kSaveSeen), {{"feed", feed}, {"scope", scope}, {"state", state}, {"now", now}});
  if (!stored) {
    Rows c = db_.Run(State(kCountSeen), {{"feed", feed}});
    const int64_t n = c.Next() ? std::atoll(std::string(c.Get(0)).c_str()) : 0;
    if (n > kMaxSeenScopes) db_.Update(State(kDropSeen), {{"feed", feed}, {"n", n - kMaxSeenScopes}});
  }
  // Read back: another process may have recorded this state, or another
  // one, in the meantime.
  auto saved = load();
  return saved && saved->first == state ? saved->second : std::max(now, stored ? stored->second + 1 : now);
}

// A part a line: "NUMBER AFTER... | UNTIL... | ROWS BYTES LASTMOD", the
// until field "-" for the open part, LASTMOD "-" when none.
std::string StateStore::FormatParts(const std::vector<PartRange>& parts) {
  std::string s;
  for (const PartRange& p : parts) {
    s += std::to_string(p.number) + " " + Keyset::Format(p.after) + " | " + (p.until ? Keyset::Format(*p.until) : "-") +
         " | " + std::to_string(p.rows) + " " + std::to_string(p.bytes) + " " + (p.lastmod.empty() ? "-" : p.lastmod) +
         "\n";
  }
  return s;
}

std::optional<std::vector<PartRange>> StateStore::ParseParts(const std::string& text, size_t keyset_size) {
  std::vector<PartRange> parts;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    size_t bar1 = line.find(" | "), bar2 = bar1 == std::string::npos ? bar1 : line.find(" | ", bar1 + 3);
    if (bar2 == std::string::npos) return std::nullopt;
    PartRange p;
    std::istringstream head(line.substr(0, bar1));
    std::string after;
    if (!(head >> p.number) || p.number < 1) return std::nullopt;
    std::getline(head, after);
    auto a = Keyset::Parse(after, keyset_size);
    if (!a) return std::nullopt;
    p.after = *a;
    std::string until = line.substr(bar1 + 3, bar2 - bar1 - 3);
    if (until != "-") {
      auto u = Keyset::Parse(until, keyset_size);
      if (!u) return std::nullopt;
      p.until = *u;
    }
    std::istringstream tail(line.substr(bar2 + 3));
    std::string date, time;
    if (!(tail >> p.rows >> p.bytes >> date)) return std::nullopt;
    if (date != "-") {
      if (!(tail >> time)) return std::nullopt;
      p.lastmod = date + " " + time;
    }
    parts.push_back(std::move(p));
  }
  return parts;
}

std::optional<PartPlan> StateStore::LoadPlan(const std::string& feed, size_t keyset_size, bool with_position) {
  Rows r = db_.Run(with_position ? State(kLoadPlanAt) : State(kLoadPlan), {{"feed", feed}});
  if (!r.Next()) return std::nullopt;
  PartPlan plan;
  plan.identity = std::string(r.Get(0));
  plan.planned = std::atoll(std::string(r.Get(1)).c_str());
  auto parts = ParseParts(std::string(r.Get(2)), keyset_size);
  if (!parts || parts->empty()) return std::nullopt;
  plan.parts = std::move(*parts);
  if (with_position) plan.at = StampedPosition(r.Get(3), plan.planned);
  return plan;
}

void StateStore::SavePlan(const std::string& feed, const PartPlan& plan, bool with_position) {
  SqlParams p{
      {"feed", feed}, {"identity", plan.identity}, {"planned", plan.planned}, {"parts", FormatParts(plan.parts)}};
  if (!with_position) {
    db_.Update(State(kSavePlan), p);
    return;
  }
  p["position"] = StampPosition(plan.planned, plan.at);
  db_.Update(State(kSavePlanAt), p);
}

NamedLock::NamedLock(Database& db, std::string name, int seconds) : db_(db), name_(std::move(name)) {
  {
    Rows r = db_.Run(State(kGetLock), {{"name", name_}, {"seconds", static_cast<int64_t>(seconds)}});
    acquired_ = r.Next() && r.Get(0) == "1";
  }
  if (acquired_) {
    db_.Pin();
    return;
  }
  Rows holder = db_.Run(State(kUsedLock), {{"name", name_}});
  if (holder.Next() && !holder.IsNull(0)) holder_ = std::string(holder.Get(0));
}

NamedLock::~NamedLock() {
  if (!acquired_) return;
  try {
    Rows r = db_.Run(State(kReleaseLock), {{"name", name_}});
    while (r.Next()) {
    }
  } catch (const FeedError&) {
    // The connection is gone, and the server released the lock with it.
  }
  db_.Unpin();
}

}  // namespace feed
