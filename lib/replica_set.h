// The primary ([database]) and its read replicas ([database replica NAME]):
// which server a response's rows are read from, the replication position
// they were read at, each replica's health, and the writes the primary
// refused, kept for the log and the status page.
//
// Rules (issue #13):
// - Writes (robot visits, part plans, item state, locks, state moments) and
//   the robot's visit record go to primary() only.
// - A read with no position to honour goes to the first replica in config
//   order that is healthy (reachable, Slave_IO_Running and
//   Slave_SQL_Running both Yes), else the primary, else (the primary
//   unreachable) the first reachable replica whose SQL thread runs.
// - A read that must see at least position P (a later page of a run) asks
//   each candidate in the same order to reach P first (MASTER_GTID_WAIT,
//   at most replica_wait seconds); one that cannot is passed over for this
//   read. The primary has every position a replica reached, so it needs no
//   wait. When no server can, kUnavailable (503 with Retry-After): a page
//   is never read from a state older than P.
// - Health is asked at most every replica_check seconds per server (by the
//   injected clock), and at once again after a read from it failed; a
//   server comes back into use by itself when it answers again.
// With no replica configured, every read is the primary's and no position
// is ever asked for: everything is as before replicas.
//
// One per process (the App's); not thread-safe, like Database.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clock.h"
#include "config.h"
#include "database.h"
#include "gtid_position.h"

namespace feed {

enum class ServerHealth {
  kUnknown,   // not asked yet
  kHealthy,   // reachable; a replica's two replication threads run
  kDetached,  // a replica that answers but does not replicate (a thread stopped, or not connected)
  kDown,      // does not answer
};
const char* ServerHealthName(ServerHealth h);

// What SHOW SLAVE STATUS says of a server, the fields the program reads.
struct ReplicationStatus {
  bool replica = false;             // it gave a row: the server is set up as a replica
  std::string io, sql;              // Slave_IO_Running, Slave_SQL_Running: "Yes", "No", "Connecting"
  std::string io_error, sql_error;  // Last_IO_Error, Last_SQL_Error ("" none)
  std::optional<int64_t> behind;    // Seconds_Behind_Master (none: NULL, not replicating)
  std::string using_gtid;           // Using_Gtid: "No", "Slave_Pos", "Current_Pos"
  bool replicating() const { return io == "Yes" && sql == "Yes"; }
};

// Asks `db` SHOW SLAVE STATUS (the feed user needs SLAVE MONITOR, or
// SUPER, on MariaDB 10.5.9 and later). Throws kUnavailable when the server
// does not answer, another FeedError when it refuses.
ReplicationStatus ReadReplicationStatus(Database& db);

// What the status page shows of one server.
struct ServerStatus {
  std::string name;  // "primary" or the replica's NAME
  ServerHealth health = ServerHealth::kUnknown;
  std::string error;        // why it is not healthy ("" when it is)
  UnixTime checked = 0;     // when health was last asked (0: never)
  int64_t passed_over = 0;  // reads that could not wait for it to reach their position
};

// What the status page shows of the primary's writes.
struct WriteStatus {
  int64_t failed = 0;      // writes the primary refused or could not take
  std::string last_error;  // the latest one's reason
  UnixTime last_failed = 0;
};

class ReplicaSet {
 public:
  // The clock must outlive the set.
  ReplicaSet(const Config& config, const Clock& clock);
  ~ReplicaSet();
  ReplicaSet(const ReplicaSet&) = delete;
  ReplicaSet& operator=(const ReplicaSet&) = delete;

  Database& primary() { return primary_.rows; }
  bool has_replicas() const { return !replicas_.empty(); }

  // A server chosen for one response's reads.
  struct Source {
    Database* db = nullptr;  // the rows and the state query
    int replica = -1;        // index among the replicas; -1 the primary
    const std::string* name = nullptr;
  };

  // The server for a response's reads under the rules above: with `at`
  // (a run's position; an empty one asks for the primary, which is at
  // least as new as anything), one that has reached it. Throws
  // kUnavailable when none can serve.
  Source ForRead(const std::optional<GtidPosition>& at);

  // The position `source` has applied now (asked after its rows were
  // read, so the rows are no newer): the primary's @@gtid_binlog_pos, a
  // replica's @@gtid_slave_pos. Empty without replicas. Throws kUnavailable.
  GtidPosition PositionOf(const Source& source);

  // The primary's position now (a robot's feed reads everything the
  // primary held when its visit began); nullopt when the primary cannot be
  // asked (then the caller reads what a replica has).
  std::optional<GtidPosition> PrimaryPosition();

  // A read from `source` failed for want of the server: its health is
  // asked again before its next use.
  void ReadFailed(const Source& source);

  // A write the primary did not take (`what` says which and why; logged by
  // the caller).
  void WriteFailed(const std::string& what);

  // Drops every connection (after a response cut midway).
  void Disconnect();

  // Where a change of a server's health is told (a line, no newline).
  void SetLog(std::function<void(const std::string&)> log) { log_ = std::move(log); }

  // For the status page: the primary, then each replica in config order.
  std::vector<ServerStatus> servers() const;
  const WriteStatus& writes() const { return writes_; }

 private:
  struct Server {
    Server(std::string n, const DatabaseConfig& c, const Clock& clock)
        : name(std::move(n)), rows(c, &clock), control(c, &clock) {}
    std::string name;
    Database rows;     // the feeds' queries
    Database control;  // health, positions, waits: never busy with a streamed result
    ServerStatus status;
  };
  // Asks `s`'s health when it was last asked replica_check seconds ago or
  // more (or never, or a read failed since).
  void Refresh(Server& s, bool replica);
  // Waits at most replica_wait seconds for `s` to reach `at`; false when it
  // did not (recorded).
  bool Reaches(Server& s, const GtidPosition& at);
  Source SourceOf(Server& s, int replica) { return Source{&s.rows, replica, &s.name}; }
  // Records `s`'s health, logging a change.
  void SetHealth(Server& s, ServerHealth h, std::string error);

  const Clock& clock_;
  int wait_seconds_;
  int check_seconds_;
  Server primary_;
  std::vector<std::unique_ptr<Server>> replicas_;
  WriteStatus writes_;
  std::function<void(const std::string&)> log_;
};

}  // namespace feed
