// `feed.fcgi check`: proves a mapping before robots see it. Every feed's
// queries run for real on a sample (or, deep, on everything), and what a
// site owner plausibly gets wrong is reported as a finding: a query the
// database refuses (at the file's own line: a syntax error, a collation
// clash, a missing table), a template field or keyset the query lacks, a
// result column whose character set the connection's cannot hold (its
// characters would arrive as '?'), rows a template rule would leave out
// (by rule, with the first ids), a sample of each feed, set index and MSN
// feed rendered and checked against its format's rules (format_rules.h),
// and, deep, the keyset walk compared with one unpaged read: a row lost at
// a chunk's edge (a wrong tie-break), a row repeated (a 1:N join), a row
// out of order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clock.h"
#include "config.h"
#include "database.h"
#include "document_set.h"
#include "error.h"
#include "feed.h"
#include "msn_feed.h"
#include "replica_set.h"

namespace feed {

struct Finding {
  bool error = true;         // false: a warning (the feed works, but look)
  std::string where;         // "FILE:LINE" or "FILE"
  std::string what;          // what is wrong
  std::string todo;          // what to do about it
  std::string Line() const;  // "where: what; todo"
};

struct CheckOptions {
  bool deep = false;
  size_t sample_rows = 2000;  // rows read per feed when not deep
  size_t deep_fetch = 7;      // rows per chunk of the deep walk: many chunk edges
  size_t sample_render = 50;  // rows rendered into each feed's sample document
};

// What check looks at: every feed section; the sets, whose indexes are
// rendered too and whose text sets' sections are text sitemaps; the MSN
// feeds among the feeds, rendered their own way (MsnFeed::RenderSample).
struct CheckTargets {
  std::vector<Feed*> feeds;
  std::vector<DocumentSet*> sets;
  std::vector<MsnFeed*> msn;
};

// A replica check looked at, and how far behind the primary it was.
struct CheckedReplica {
  std::string name;               // its [database replica NAME]
  bool replicating = false;       // both threads run
  std::optional<int64_t> behind;  // Seconds_Behind_Master (none: unknown)
  std::string Line() const;       // "[database replica NAME]: replicating, 0 s behind the primary"
};

struct CheckReport {
  std::vector<Finding> findings;
  std::vector<CheckedReplica> replicas;
  size_t feeds = 0, rows = 0;
  size_t errors() const;
  std::string Json() const;
};

// A FeedError whose message starts "FILE:LINE: " or "FILE: " (a path) as
// a finding at that place, else at `fallback_where`.
Finding FindingOf(const FeedError& e, const std::string& fallback_where, std::string todo);

// Checks each of the targets against `db`. Never throws for what it finds;
// a database that cannot be reached is a finding too.
CheckReport CheckFeeds(const CheckTargets& targets, Database& db, const Clock& clock, const CheckOptions& options);

// Everything `feed.fcgi check` looks at in a loaded program (App::Check
// gathers it), in one place and in this order: the web server's side
// (hand_off = x-sendfile, a request's worst wait against mod_fcgid's
// timeout); the MSN feeds' bindings; the replicas; the feeds (CheckFeeds);
// then, when nothing so far is an error, the program's own tables
// (CheckStateTables) and what serving needs of them; last the hint of
// where the database's socket is, when [database] could not be reached at
// host = localhost, and the spool folder.
struct ProgramCheck {
  const Config* config = nullptr;
  ReplicaSet* servers = nullptr;
  CheckTargets targets;
  std::string spool_path;
  bool status_page = false;
  std::function<void()> bind_all;     // binds every feed, set and MSN feed (App::CheckDatabase)
  std::function<void()> check_spool;  // App::CheckSpool
};
// Never throws for what it finds.
CheckReport CheckProgram(const ProgramCheck& program, const Clock& clock, const CheckOptions& options);

// Looks at each replica in config order, over a connection of its own,
// as the feed user: a finding (in the replica's section) when it cannot
// be reached; when the user may not run SHOW SLAVE STATUS (the GRANT to
// run, for the user as the server knows it); when it is not set up as a
// replica, does not replicate (Slave_IO_Running or Slave_SQL_Running not
// Yes, with the server's last error) or replicates without GTID (Using_Gtid
// No: the program's positions need it); a warning when it is more than
// `replica_wait` seconds behind (a later page would not wait for it). Each
// replica asked is listed in `report->replicas`. Never throws.
void CheckReplicas(const std::vector<ReplicaConfig>& replicas, int replica_wait, CheckReport* report);

// The program's own tables (state_tables.h) as `db` and its account have
// them, as findings in "[database] user": a table missing (run `feed.fcgi
// install`; with the GRANT of CREATE when the account lacks it; the run
// reports' table in "[status]"), a table of an older layout (a warning: the
// program works with it, with less; install adds what it lacks), and each
// statement the program runs on a table that the account may not run (the privileges,
// and the GRANT that gives them). The server is asked to prepare each
// statement, never to run one, so nothing is written. Tables only the
// status page uses count only with `status_page`. Never throws: a database
// that cannot be reached is a finding too.
void CheckStateTables(Database& db, bool status_page, CheckReport* report);

// True when a connection in character set `connection` carries every
// character a column in `column` can hold (names as the server gives them;
// utf8 is utf8mb3). binary and ascii columns fit any connection.
bool ConnectionHolds(std::string_view connection, std::string_view column);

}  // namespace feed
