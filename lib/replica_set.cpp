#include "replica_set.h"

#include <cstdlib>

#include "error.h"

namespace feed {
namespace {

SqlQuery Control(const char* text) { return ParseSqlQuery(text, "(replication)"); }

constexpr char kPing[] = "SELECT 1";
constexpr char kSlaveStatus[] = "SHOW SLAVE STATUS";
constexpr char kPrimaryPosition[] = "SELECT @@gtid_binlog_pos";
constexpr char kReplicaPosition[] = "SELECT @@gtid_slave_pos";
// NULL when the replica's SQL thread does not run or the position is
// malformed; -1 on timeout; 0 once reached.
constexpr char kWait[] = "SELECT MASTER_GTID_WAIT(:position, :seconds)";

GtidPosition ReadPosition(Database& db, const SqlQuery& q) {
  Rows r = db.Run(q, {});
  const std::string text = r.Next() ? std::string(r.Get(0)) : std::string();
  auto p = GtidPosition::Parse(text);
  if (!p) throw InternalError("the server's replication position is not one: '" + text.substr(0, 200) + "'");
  return *p;
}

}  // namespace

ReplicationStatus ReadReplicationStatus(Database& db) {
  const std::vector<Column> cols = db.Describe(Control(kSlaveStatus));
  Rows r = db.Run(Control(kSlaveStatus), {});
  ReplicationStatus st;
  if (!r.Next()) return st;
  st.replica = true;
  for (size_t i = 0; i < cols.size() && i < r.size(); ++i) {
    const std::string& name = cols[i].name;
    if (name == "Slave_IO_Running") st.io = r.Get(i);
    if (name == "Slave_SQL_Running") st.sql = r.Get(i);
    if (name == "Last_IO_Error") st.io_error = r.Get(i);
    if (name == "Last_SQL_Error") st.sql_error = r.Get(i);
    if (name == "Using_Gtid") st.using_gtid = r.Get(i);
    if (name == "Seconds_Behind_Master" && !r.IsNull(i)) st.behind = std::atoll(std::string(r.Get(i)).c_str());
  }
  return st;
}

const char* ServerHealthName(ServerHealth h) {
  switch (h) {
    case ServerHealth::kUnknown:
      return "unknown";
    case ServerHealth::kHealthy:
      return "healthy";
    case ServerHealth::kDetached:
      return "not replicating";
    case ServerHealth::kDown:
      return "down";
  }
  return "?";
}

ReplicaSet::ReplicaSet(const Config& config, const Clock& clock)
    : clock_(clock),
      wait_seconds_(config.database.replica_wait),
      check_seconds_(config.database.replica_check),
      primary_("primary", config.database, clock) {
  primary_.status.name = "primary";
  for (const ReplicaConfig& r : config.replicas) {
    replicas_.push_back(std::make_unique<Server>(r.name, r.database, clock));
    replicas_.back()->status.name = r.name;
  }
}

ReplicaSet::~ReplicaSet() = default;

void ReplicaSet::Refresh(Server& s, bool replica) {
  const UnixTime now = clock_.Now();
  if (s.status.checked != 0 && now - s.status.checked < check_seconds_) return;
  s.status.checked = now;
  try {
    if (!replica) {
      Rows r = s.control.Run(Control(kPing), {});
      SetHealth(s, ServerHealth::kHealthy, "");
      return;
    }
    const ReplicationStatus st = ReadReplicationStatus(s.control);
    if (!st.replica) {
      SetHealth(s, ServerHealth::kDetached, "not a replica (SHOW SLAVE STATUS is empty)");
    } else if (st.replicating()) {
      SetHealth(s, ServerHealth::kHealthy, "");
    } else {
      SetHealth(s, ServerHealth::kDetached,
                "Slave_IO_Running " + st.io + ", Slave_SQL_Running " + st.sql +
                    (st.io_error.empty() ? "" : "; " + st.io_error) +
                    (st.sql_error.empty() ? "" : "; " + st.sql_error));
    }
  } catch (const FeedError& e) {
    // kUnavailable: it does not answer. Anything else (SHOW SLAVE STATUS
    // refused for want of SLAVE MONITOR) keeps it out of use too, and the
    // reason is on the status page.
    SetHealth(s, e.kind() == ErrorKind::kUnavailable ? ServerHealth::kDown : ServerHealth::kDetached, e.what());
    s.control.Disconnect();
  }
}

bool ReplicaSet::Reaches(Server& s, const GtidPosition& at) {
  try {
    SqlParams p{{"position", at.ToString()}, {"seconds", static_cast<int64_t>(wait_seconds_)}};
    Rows r = s.control.Run(Control(kWait), p);
    const bool answered = r.Next();
    if (answered && !r.IsNull(0) && r.Get(0) == "0") return true;
    if (answered && r.IsNull(0)) {
      // The SQL thread stopped while we asked: not replicating.
      SetHealth(s, ServerHealth::kDetached, "MASTER_GTID_WAIT answered NULL (the SQL thread does not run)");
    }
  } catch (const FeedError& e) {
    SetHealth(s, e.kind() == ErrorKind::kUnavailable ? ServerHealth::kDown : ServerHealth::kDetached, e.what());
    s.control.Disconnect();
  }
  ++s.status.passed_over;
  return false;
}

ReplicaSet::Source ReplicaSet::ForRead(const std::optional<GtidPosition>& at) {
  if (replicas_.empty()) return SourceOf(primary_, -1);
  // An empty position: a run that began without one (a token of before
  // replicas): only the primary is surely as new.
  const bool primary_only = at && at->empty();
  if (!primary_only) {
    for (size_t i = 0; i < replicas_.size(); ++i) {
      Server& r = *replicas_[i];
      Refresh(r, true);
      if (r.status.health != ServerHealth::kHealthy) continue;
      if (at && !Reaches(r, *at)) continue;
      return SourceOf(r, static_cast<int>(i));
    }
  }
  Refresh(primary_, false);
  if (primary_.status.health == ServerHealth::kHealthy) return SourceOf(primary_, -1);
  if (!primary_only) {
    // The primary is gone: a replica that still applies what it received
    // (its I/O thread cannot reach the primary) serves what it has.
    for (size_t i = 0; i < replicas_.size(); ++i) {
      Server& r = *replicas_[i];
      if (r.status.health != ServerHealth::kDetached) continue;
      if (at && !Reaches(r, *at)) continue;
      return SourceOf(r, static_cast<int>(i));
    }
  }
  if (at) {
    throw Unavailable("no database server has reached the replication position " + at->ToString() +
                          " of this run (replicas waited " + std::to_string(wait_seconds_) +
                          " s; the primary: " + primary_.status.error + ")",
                      "no database server has caught up yet with the state this page continues from");
  }
  throw Unavailable("neither the primary (" + primary_.status.error + ") nor a replica can be read");
}

GtidPosition ReplicaSet::PositionOf(const Source& source) {
  if (replicas_.empty()) return {};
  if (source.replica < 0) return ReadPosition(primary_.control, Control(kPrimaryPosition));
  return ReadPosition(replicas_[static_cast<size_t>(source.replica)]->control, Control(kReplicaPosition));
}

std::optional<GtidPosition> ReplicaSet::PrimaryPosition() {
  if (replicas_.empty()) return GtidPosition{};
  try {
    return ReadPosition(primary_.control, Control(kPrimaryPosition));
  } catch (const FeedError& e) {
    if (e.kind() != ErrorKind::kUnavailable) throw;
    SetHealth(primary_, ServerHealth::kDown, e.what());
    primary_.status.checked = clock_.Now();
    return std::nullopt;
  }
}

void ReplicaSet::ReadFailed(const Source& source) {
  Server& s = source.replica < 0 ? primary_ : *replicas_[static_cast<size_t>(source.replica)];
  s.status.checked = 0;
  s.rows.Disconnect();
}

void ReplicaSet::Disconnect() {
  primary_.rows.Disconnect();
  for (auto& r : replicas_) r->rows.Disconnect();
}

void ReplicaSet::SetHealth(Server& s, ServerHealth h, std::string error) {
  // Found healthy at the first look is no news.
  const bool news = s.status.health != h && !(s.status.health == ServerHealth::kUnknown && h == ServerHealth::kHealthy);
  s.status.health = h;
  s.status.error = std::move(error);
  if (news && log_) {
    log_("database " + s.name + ": " + ServerHealthName(h) + (s.status.error.empty() ? "" : ": " + s.status.error));
  }
}

void ReplicaSet::WriteFailed(const std::string& what) {
  ++writes_.failed;
  writes_.last_error = what;
  writes_.last_failed = clock_.Now();
}

std::vector<ServerStatus> ReplicaSet::servers() const {
  std::vector<ServerStatus> out{primary_.status};
  for (const auto& r : replicas_) out.push_back(r->status);
  return out;
}

}  // namespace feed
