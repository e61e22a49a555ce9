// The board's database, through MySQL Connector/C++ 1.1. One connection per
// process, opened on first use and kept across requests; statements are
// prepared once per connection and statement text, so a query is an
// ordinary value: two SqlQuery values of the same text share one prepared
// statement, whatever their lifetimes. A connection found broken is dropped and
// opened again (statements re-prepared) on the next call, so a database
// restart needs no process restart. Every sql::SQLException stops here and
// becomes a FeedError: kUnavailable when the server cannot be reached or the
// connection broke, kFull when a write finds no room (error 1114 "The
// table is full", 1021 "Disk full"), kInternal for anything else (a
// mapping error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "clock.h"
#include "config.h"
#include "sql_query.h"

namespace sql {
class Connection;
class Statement;
class PreparedStatement;
class ResultSet;
}  // namespace sql

namespace feed {

// The kind of a result column, as far as the engine cares.
enum class ColumnType { kInteger, kDateTime, kDate, kText };

struct Column {
  std::string name;  // the label: "AS name" in the SELECT
  ColumnType type;
};

// A result column as the server holds it, before the connection converts
// it to the connection's character set.
struct SourceColumn {
  std::string name;     // the label
  std::string charset;  // its character set ("utf8mb4", "cp1251"; "binary" for numbers, dates and BLOBs; "" unknown)
  std::string origin;   // "table.column" when the column is a table's (or a view's) own, else ""
};

// Values bound to named parameters: integers or text (datetimes as
// "YYYY-MM-DD HH:MM:SS" text).
using SqlValue = std::variant<int64_t, std::string>;
using SqlParams = std::map<std::string, SqlValue, std::less<>>;

// A result, read row by row. Values are UTF-8 whatever the connection's
// charset: a cp1251 connection's bytes are kept as they came and converted
// when a value is first asked for as UTF-8 (Get), so that a windows-1251
// feed can write the cp1251 bytes of a text as they are (GetCp1251) and
// never pay for the round trip. Not for two threads at once (Get fills a
// cache).
class Rows {
 public:
  Rows(std::unique_ptr<sql::ResultSet> rs, size_t columns, bool cp1251);
  // A streamed result: the statement stays alive as long as its rows.
  Rows(std::unique_ptr<sql::Statement> st, std::unique_ptr<sql::ResultSet> rs, size_t columns, bool cp1251);
  // Rows held in memory (unit tests, the engine's own lists; nullopt is
  // NULL), of `columns` columns (by default, as many as the first row
  // has); `cp1251`: the values are windows-1251 bytes, as a cp1251
  // connection's are.
  explicit Rows(std::vector<std::vector<std::optional<std::string>>> rows, size_t columns = SIZE_MAX,
                bool cp1251 = false);
  Rows() : Rows({}, 0) {}
  ~Rows();
  Rows(Rows&&) noexcept;
  Rows& operator=(Rows&&) noexcept;
  // Advances to the next row; false after the last.
  bool Next();
  // Column i (0-based) of the current row, UTF-8; empty for NULL. Valid
  // until the next Next().
  std::string_view Get(size_t i) const {
    return !cp1251_ ? std::string_view(values_[i]) : converted_[i] == row_ ? utf8_[i] : Convert(i);
  }
  bool IsNull(size_t i) const { return nulls_[i]; }
  size_t size() const { return values_.size(); }
  // Whether the values are windows-1251 bytes underneath.
  bool cp1251() const { return cp1251_; }
  // Column i as the windows-1251 bytes it came as. REQUIRES: cp1251().
  std::string_view GetCp1251(size_t i) const { return values_[i]; }
  // Values converted to UTF-8 so far (what GetCp1251 spares).
  size_t conversions() const { return conversions_; }

 private:
  std::string_view Convert(size_t i) const;
  // After a streamed result's last row: throws FeedError(kUnavailable) when
  // the query did not end as a whole.
  void CheckStreamEnded();

  std::unique_ptr<sql::Statement> st_;  // declared first: destroyed after rs_
  std::unique_ptr<sql::ResultSet> rs_;
  bool cp1251_ = false;
  std::vector<std::vector<std::optional<std::string>>> held_;
  size_t next_held_ = 0;
  std::vector<std::string> values_;  // as they came: UTF-8, or windows-1251 when cp1251_
  std::vector<bool> nulls_;
  // cp1251_ only: utf8_[i] holds values_[i] as UTF-8 when converted_[i] ==
  // row_ (the current row's number, from 1).
  uint64_t row_ = 0;
  mutable std::vector<std::string> utf8_;
  mutable std::vector<uint64_t> converted_;
  mutable size_t conversions_ = 0;
};

// Connections are kept per connection charset (a feed may read a cp1251
// table over a cp1251 connection while another reads utf8 over utf8mb4):
// each opened on first use, with its own prepared statements.
class Database {
 public:
  // `clock`: what opened() is read from; the system's when none is given.
  // Not owned; it must outlive the Database.
  explicit Database(DatabaseConfig config, const Clock* clock = nullptr);
  // The settings it connects with (a second connection: Database(config())).
  const DatabaseConfig& config() const { return config_; }
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The columns `query` returns (prepares it; connects if needed).
  std::vector<Column> Describe(const SqlQuery& query);
  // Whether the server prepares `query`: false when it refuses it (a
  // table or column of a newer version missing). Throws kUnavailable.
  bool Accepts(const SqlQuery& query);

  // The result columns of `query` with the character set each has at the
  // server. Prepared on a session of its own whose character_set_results
  // is NULL: the server then describes every column in its own charset
  // (a table's column in the table's, an expression in the one it
  // derives), not in the connection's, which it would otherwise convert
  // it to.
  std::vector<SourceColumn> SourceColumns(const SqlQuery& query);

  // Runs `query` as a prepared statement with every parameter it names
  // taken from `params` (a name it uses but `params` lacks throws
  // kInternal). The whole result is fetched before this returns
  // (Connector/C++ buffers prepared results). A broken connection is
  // re-opened and the query retried once.
  Rows Run(const SqlQuery& query, const SqlParams& params);

  // Runs `query` as a plain statement whose result streams: rows arrive
  // while the caller reads them, so the server's work overlaps the
  // caller's. The parameters become SQL literals: integers as digits, text
  // escaped by the connection (mysql_real_escape_string), so callers pass
  // only typed values they made themselves (numbers, dates they
  // formatted, config text), never request text. Until the Rows is read to
  // its end or destroyed, the connection serves nothing else.
  Rows Stream(const SqlQuery& query, const SqlParams& params);

  // Runs an INSERT/UPDATE with named parameters, as Run does; returns the
  // rows affected (the project's own tables: robot visits).
  int64_t Update(const SqlQuery& query, const SqlParams& params);

  // Runs a statement with no result and no parameters (tests, set-up).
  void Execute(const std::string& sql);

  // Why the server refused a statement: its error code (1142: a command
  // the account may not run on a table; 1146: no such table) and message.
  struct Refusal {
    int code = 0;
    std::string message;
  };
  // Prepares `sql` (never runs it; nothing is cached) and returns the
  // server's refusal, or nullopt when it prepares it. The server checks
  // the account's SELECT, INSERT, UPDATE, DELETE and CREATE on the tables
  // named when it prepares (not ALTER or INDEX). Throws kUnavailable.
  std::optional<Refusal> Refuses(const std::string& sql);
  // Like Execute (a statement of the program's own: install's DDL), but
  // returns the server's refusal instead of throwing it. Throws
  // kUnavailable.
  std::optional<Refusal> TryExecute(const std::string& sql);

  // Drops the connections (tests; and after a failure mid-feed).
  void Disconnect();

  // Pins the connections while a NamedLock holds a lock on one of them
  // (GET_LOCK lives as long as its connection): until the last Unpin, a
  // lost connection is neither retried nor opened again, so nothing the
  // lock guards runs on a new connection that no longer holds it; every
  // call after the loss throws kUnavailable.
  void Pin() { ++pinned_; }
  void Unpin();

  // When the connection of the [database] charset was opened (UnixTime, by
  // the Database's clock), or nullopt when none is open (the status page).
  std::optional<int64_t> opened() const;

 private:
  struct Session {
    std::unique_ptr<sql::Connection> conn;
    int64_t opened = 0;  // UnixTime
    // By SqlQuery::text, the statement as the server sees it.
    std::map<std::string, std::unique_ptr<sql::PreparedStatement>, std::less<>> prepared;
  };
  Session& SessionFor(const std::string& charset);
  sql::Connection* Connection(Session& s, const std::string& charset);
  // The statement, prepared once per session. A refusal throws
  // InternalError; a connection error comes out as the sql::SQLException,
  // for WithRetry to try once more on a new connection.
  sql::PreparedStatement* Prepare(const SqlQuery& query);
  static void BindParams(sql::PreparedStatement* ps, const SqlQuery& query, const SqlParams& params);
  template <typename Fn>
  auto WithRetry(const SqlQuery& query, Fn fn);
  // Runs `run` on the default connection: nullopt when it went through,
  // the server's refusal when it was refused; a lost connection throws.
  std::optional<Refusal> Attempt(const std::function<void(sql::Connection&)>& run);

  DatabaseConfig config_;
  const Clock* clock_;  // nullptr: the system's
  std::map<std::string, Session> sessions_;  // by connection charset
  int pinned_ = 0;
  bool lost_while_pinned_ = false;
};

}  // namespace feed
