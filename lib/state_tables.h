// The tables the program keeps its own state in, in the board's database
// (robots' visits, part plans, first-seen states, MSN item state and syncs,
// run reports): their layout, what the program runs on each, and
// `feed.fcgi install`, which creates them and brings a table of an older
// layout up to date, with no more than a shared host's account has
// (CREATE, ALTER, INDEX on its own database; nothing global). The board's
// own tables are never touched. sql/state.sql makes the same tables for an
// administrator's install (a test compares the two in information_schema).
// The DDL is constant text of the program's own: no name comes from the
// config or a request.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "database.h"

namespace feed {

struct StateColumn {
  std::string name;        // "previous_visit"
  std::string definition;  // "DATETIME NULL"
};

struct StateKey {
  std::string name;     // "PRIMARY", or the index's name: "oldest"
  std::string columns;  // "feed, first_seen"
};

struct StateTable {
  std::string name;
  std::vector<StateColumn> columns;     // in the table's order
  std::vector<StateKey> keys;           // the primary key first
  std::vector<std::string> privileges;  // the statements the program runs on it: "SELECT", "INSERT", ...
  bool status_page = false;             // used only with [status] enabled = 1
  // CREATE TABLE IF NOT EXISTS of the whole layout.
  std::string CreateStatement() const;
};

// Every table, in sql/state.sql's order.
const std::vector<StateTable>& StateTables();

// What the database's copy of a table lacks of its layout. Columns or
// keys it has beyond the layout, and columns whose type differs, are not
// looked at.
struct StateGap {
  bool missing = false;                     // there is no such table (or the account sees none)
  std::vector<const StateColumn*> columns;  // columns it lacks
  std::vector<const StateKey*> keys;        // keys it lacks
  bool empty() const { return !missing && columns.empty() && keys.empty(); }
  // "column position, index oldest"
  std::string Missing() const;
};
// Looks at information_schema for the current database. Throws
// kUnavailable.
StateGap GapOf(Database& db, const StateTable& table);

// What `install` did to one table.
struct InstalledTable {
  enum Outcome { kCreated, kUpToDate, kUpgraded };
  std::string table;
  Outcome outcome = kUpToDate;
  std::string added;   // with kUpgraded: "column position, index oldest"
  std::string Line() const;  // "feed_part_plan: upgraded (added column position)"
};

// Creates each table that is missing and adds to each one what it lacks
// (ALTER TABLE ... ADD COLUMN ... AFTER, ADD KEY), in StateTables()'s
// order; a table already whole is left alone, so a second run changes
// nothing. Throws FeedError(kConfig) naming the privilege the account
// lacks and the GRANT that gives it (DeniedPrivilege, GrantFor) when the
// server refuses a statement for want of one, kConfig with the server's
// message for any other refusal, kUnavailable when the database cannot be
// reached. Tables done before a failure stay done, and `each` (when
// given) has been told of each one as it was done.
std::vector<InstalledTable> InstallStateTables(Database& db,
                                               const std::function<void(const InstalledTable&)>& each = nullptr);

// The account `db` connects as, as the server matched it (CURRENT_USER()):
// "'user'@'host'". Throws kUnavailable.
std::string CurrentAccount(Database& db);

// "GRANT P, Q ON `DB`.* TO 'user'@'host'" for `db`'s account and
// database. Throws kUnavailable.
std::string GrantFor(Database& db, const std::vector<std::string>& privileges);

// The privilege named by a refusal of error 1142 ("INSERT command denied
// to user ..."), such as "INSERT"; nullopt for any other refusal.
std::optional<std::string> DeniedPrivilege(const Database::Refusal& refusal);

}  // namespace feed
