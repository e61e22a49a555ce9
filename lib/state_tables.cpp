#include "state_tables.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "error.h"

namespace feed {
namespace {

// Keep in step with sql/state.sql (its comments say what each table and
// column holds); StateTablesIntegration compares the two.
const std::vector<StateTable> kTables = {
    {"feed_robot_visit",
     {{"robot", "VARCHAR(64) NOT NULL"},
      {"feed", "VARCHAR(64) NOT NULL"},
      {"last_visit", "DATETIME NOT NULL"},
      {"previous_visit", "DATETIME NULL"},
      {"recorded", "DATETIME NOT NULL"}},
     {{"PRIMARY", "robot, feed"}},
     {"SELECT", "INSERT", "UPDATE"}},
    {"feed_part_plan",
     {{"feed", "VARCHAR(64) NOT NULL"},
      {"identity", "CHAR(16) NOT NULL"},
      {"planned", "BIGINT NOT NULL"},
      {"parts", "MEDIUMTEXT NOT NULL"},
      {"position", "VARCHAR(1024) NOT NULL DEFAULT ''"}},
     {{"PRIMARY", "feed"}},
     {"SELECT", "INSERT", "UPDATE"}},
    {"feed_state_seen",
     {{"feed", "VARCHAR(64) NOT NULL"},
      {"scope", "CHAR(16) NOT NULL"},
      {"state", "CHAR(16) NOT NULL"},
      {"first_seen", "BIGINT NOT NULL"}},
     {{"PRIMARY", "feed, scope"}, {"oldest", "feed, first_seen"}},
     {"SELECT", "INSERT", "UPDATE", "DELETE"}},
    {"feed_item_state",
     {{"feed", "VARCHAR(64) NOT NULL"},
      {"item_id", "BIGINT NOT NULL"},
      {"fingerprint", "BIGINT NOT NULL"},
      {"modified", "BIGINT NOT NULL"},
      {"expires", "BIGINT NULL"},
      {"gone", "TINYINT NOT NULL DEFAULT 0"},
      {"listed", "TINYINT NOT NULL DEFAULT 0"},
      {"title", "TEXT NOT NULL"},
      {"link", "TEXT NOT NULL"}},
     {{"PRIMARY", "feed, item_id"}, {"newest", "feed, gone, modified, item_id"}},
     {"SELECT", "INSERT", "UPDATE", "DELETE"}},
    {"feed_item_sync",
     {{"feed", "VARCHAR(64) NOT NULL"},
      {"synced", "BIGINT NOT NULL"},
      {"position", "VARCHAR(1024) NOT NULL DEFAULT ''"}},
     {{"PRIMARY", "feed"}},
     {"SELECT", "INSERT", "UPDATE"}},
    {"feed_run_report",
     {{"id", "BIGINT NOT NULL AUTO_INCREMENT"},
      {"feed", "VARCHAR(64) NOT NULL"},
      {"at", "BIGINT NOT NULL"},
      {"robot", "VARCHAR(64) NOT NULL"},
      {"client", "VARCHAR(64) NOT NULL"},
      {"method", "VARCHAR(8) NOT NULL"},
      {"status", "SMALLINT NOT NULL"},
      {"rows_sent", "BIGINT NOT NULL"},
      {"bytes", "BIGINT NOT NULL"},
      {"millis", "BIGINT NOT NULL"},
      {"left_out", "BIGINT NOT NULL"},
      {"reasons", "TEXT NOT NULL"}},
     {{"PRIMARY", "id"}, {"newest", "feed, id"}},
     {"SELECT", "INSERT", "DELETE"},
     true},
};

SqlQuery Schema(const char* text) { return ParseSqlQuery(text, "(install)"); }

constexpr char kTable[] =
    "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = :table";
constexpr char kColumns[] =
    "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = :table";
constexpr char kKeys[] =
    "SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND "
    "TABLE_NAME = :table";
constexpr char kAccount[] = "SELECT CURRENT_USER(), DATABASE()";

std::set<std::string> Names(Database& db, const SqlQuery& q, const std::string& table) {
  std::set<std::string> out;
  Rows r = db.Run(q, {{"table", table}});
  // Names compare without case, as the server compares them.
  while (r.Next()) {
    std::string n(r.Get(0));
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out.insert(n);
  }
  return out;
}

std::string KeyClause(const StateKey& k) {
  return k.name == "PRIMARY" ? "PRIMARY KEY (" + k.columns + ")" : "KEY " + k.name + " (" + k.columns + ")";
}

std::string Quoted(const std::string& s, char q) {
  std::string out(1, q);
  for (char c : s) {
    if (c == q || (q == '\'' && c == '\\')) out += c == '\\' ? '\\' : q;
    out += c;
  }
  return out + q;
}

// The statement `sql` refused: the privilege and its GRANT when it is one,
// else the server's message.
[[noreturn]] void Refused(Database& db, const StateTable& t, const Database::Refusal& r) {
  if (std::optional<std::string> p = DeniedPrivilege(r)) {
    throw ConfigError("the account lacks " + *p + " on " + t.name + "; run as an administrator: " +
                      GrantFor(db, {"CREATE", "ALTER", "INDEX"}) + " (install needs CREATE, ALTER and INDEX)");
  }
  throw ConfigError(t.name + ": the database refuses the statement: " + r.message);
}

}  // namespace

std::string StateTable::CreateStatement() const {
  std::string s = "CREATE TABLE IF NOT EXISTS " + name + " (\n";
  for (const StateColumn& c : columns) s += "  " + c.name + " " + c.definition + ",\n";
  for (size_t i = 0; i < keys.size(); ++i) s += "  " + KeyClause(keys[i]) + (i + 1 < keys.size() ? ",\n" : "\n");
  return s + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
}

const std::vector<StateTable>& StateTables() { return kTables; }

std::string StateGap::Missing() const {
  std::string s;
  for (const StateColumn* c : columns) s += (s.empty() ? "" : ", ") + std::string("column ") + c->name;
  for (const StateKey* k : keys) {
    s += (s.empty() ? "" : ", ") + (k->name == "PRIMARY" ? std::string("the primary key") : "index " + k->name);
  }
  return s;
}

StateGap GapOf(Database& db, const StateTable& t) {
  StateGap gap;
  Rows n = db.Run(Schema(kTable), {{"table", t.name}});
  if (!n.Next() || n.Get(0) == "0") {
    gap.missing = true;
    return gap;
  }
  const std::set<std::string> columns = Names(db, Schema(kColumns), t.name), keys = Names(db, Schema(kKeys), t.name);
  for (const StateColumn& c : t.columns) {
    if (!columns.count(c.name)) gap.columns.push_back(&c);
  }
  for (const StateKey& k : t.keys) {
    std::string lower = k.name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!keys.count(lower)) gap.keys.push_back(&k);
  }
  return gap;
}

std::string InstalledTable::Line() const {
  switch (outcome) {
    case kCreated:
      return table + ": created";
    case kUpToDate:
      return table + ": up to date";
    case kUpgraded:
      return table + ": upgraded (added " + added + ")";
  }
  return table;
}

std::vector<InstalledTable> InstallStateTables(Database& db, const std::function<void(const InstalledTable&)>& each) {
  std::vector<InstalledTable> out;
  for (const StateTable& t : kTables) {
    if (each && !out.empty()) each(out.back());
    const StateGap gap = GapOf(db, t);
    if (gap.missing) {
      if (std::optional<Database::Refusal> r = db.TryExecute(t.CreateStatement())) Refused(db, t, *r);
      out.push_back({t.name, InstalledTable::kCreated, ""});
      continue;
    }
    if (gap.empty()) {
      out.push_back({t.name, InstalledTable::kUpToDate, ""});
      continue;
    }
    // One ALTER: each column after the one before it in the layout, so
    // that the table ends up in sql/state.sql's order.
    std::string alter = "ALTER TABLE " + t.name;
    const char* sep = " ";
    for (const StateColumn* c : gap.columns) {
      const size_t i = static_cast<size_t>(c - t.columns.data());
      alter += sep + std::string("ADD COLUMN ") + c->name + " " + c->definition +
               (i == 0 ? " FIRST" : " AFTER " + t.columns[i - 1].name);
      sep = ", ";
    }
    for (const StateKey* k : gap.keys) {
      alter += sep + std::string("ADD ") + KeyClause(*k);
      sep = ", ";
    }
    if (std::optional<Database::Refusal> r = db.TryExecute(alter)) Refused(db, t, *r);
    out.push_back({t.name, InstalledTable::kUpgraded, gap.Missing()});
  }
  if (each && !out.empty()) each(out.back());
  return out;
}

std::string CurrentAccount(Database& db) {
  Rows r = db.Run(Schema(kAccount), {});
  if (!r.Next()) return "CURRENT_USER()";
  const std::string cu(r.Get(0));
  const size_t at = cu.rfind('@');
  if (at == std::string::npos) return Quoted(cu, '\'');
  return Quoted(cu.substr(0, at), '\'') + "@" + Quoted(cu.substr(at + 1), '\'');
}

std::string GrantFor(Database& db, const std::vector<std::string>& privileges) {
  std::string list;
  for (const std::string& p : privileges) list += (list.empty() ? "" : ", ") + p;
  Rows r = db.Run(Schema(kAccount), {});
  const std::string name = r.Next() ? std::string(r.Get(1)) : db.config().name;
  return "GRANT " + list + " ON " + Quoted(name, '`') + ".* TO " + CurrentAccount(db);
}

std::optional<std::string> DeniedPrivilege(const Database::Refusal& r) {
  if (r.code != 1142 && r.code != 1143) return std::nullopt;
  const size_t end = r.message.find(" command denied");
  if (end == std::string::npos || end == 0) return std::nullopt;
  return r.message.substr(0, end);
}

}  // namespace feed
