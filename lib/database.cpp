#include "database.h"

#include <cppconn/datatype.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/resultset_metadata.h>
#include <cppconn/statement.h>
#include <mysql_connection.h>
#include <mysql_driver.h>

#include "datetime.h"
#include "error.h"
#include "xml_text.h"

namespace feed {
namespace {

// Client-side errors (2000-2999: cannot connect, server gone away, lost
// connection...) and the server's own "shutting down", "too many
// connections", "connection killed" mean the database is not there now.
bool IsConnectionError(const sql::SQLException& e) {
  int code = e.getErrorCode();
  return (code >= 2000 && code < 3000) || code == 1040 || code == 1053 || code == 1927 || code == 1152 ||
         code == 1158 || code == 1159 || code == 1160 || code == 1161 || code == 4031 || code == 0;
}

ColumnType TypeOf(int t) {
  switch (t) {
    case sql::DataType::BIT:
    case sql::DataType::TINYINT:
    case sql::DataType::SMALLINT:
    case sql::DataType::MEDIUMINT:
    case sql::DataType::INTEGER:
    case sql::DataType::BIGINT:
      return ColumnType::kInteger;
    case sql::DataType::TIMESTAMP:
      return ColumnType::kDateTime;
    case sql::DataType::DATE:
      return ColumnType::kDate;
    default:
      return ColumnType::kText;
  }
}

// ssl_mode as Connector/C++ 1.1 over libmariadb takes it (tried against a
// server with and without TLS): sslEnforce asks for TLS but, like a CA
// alone, falls back to a plain connection when the server offers none;
// sslCA verifies the chain, not the host; sslVerify verifies both and is
// the one that refuses a server without TLS. So required and verify_ca are
// also checked once connected (UsesTls).
void SetTlsOptions(const DatabaseConfig& c, sql::ConnectOptionsMap& opts) {
  if (c.ssl_mode == SslMode::kDisabled) return;
  opts["sslEnforce"] = true;
  if (!c.ssl_ca.empty()) opts["sslCA"] = sql::SQLString(c.ssl_ca);
  if (!c.ssl_cert.empty()) opts["sslCert"] = sql::SQLString(c.ssl_cert);
  if (!c.ssl_key.empty()) opts["sslKey"] = sql::SQLString(c.ssl_key);
  if (c.ssl_mode == SslMode::kVerifyIdentity) opts["sslVerify"] = true;
}

// Whether the session runs over TLS (its cipher is not empty).
bool UsesTls(sql::Statement* st) {
  std::unique_ptr<sql::ResultSet> r(st->executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'"));
  return r->next() && !std::string(r->getString(2)).empty();
}

// The server has no room for a write: 1114 "The table is full" (InnoDB's
// tablespace at its size, or its disk full), 1021 "Disk full".
bool IsFullError(const sql::SQLException& e) { return e.getErrorCode() == 1114 || e.getErrorCode() == 1021; }

FeedError Lost(const sql::SQLException& e) { return Unavailable(std::string("database connection lost: ") + e.what()); }

}  // namespace

Rows::Rows(std::unique_ptr<sql::ResultSet> rs, size_t columns, bool cp1251)
    : Rows(nullptr, std::move(rs), columns, cp1251) {}

Rows::Rows(std::unique_ptr<sql::Statement> st, std::unique_ptr<sql::ResultSet> rs, size_t columns, bool cp1251)
    : st_(std::move(st)), rs_(std::move(rs)), cp1251_(cp1251), values_(columns), nulls_(columns) {
  if (cp1251_) {
    utf8_.resize(columns);
    converted_.assign(columns, 0);
  }
}

Rows::Rows(std::vector<std::vector<std::optional<std::string>>> rows, size_t columns, bool cp1251)
    : cp1251_(cp1251),
      held_(std::move(rows)),
      values_(columns != SIZE_MAX ? columns : held_.empty() ? 0 : held_[0].size()),
      nulls_(values_.size()) {
  if (cp1251_) {
    utf8_.resize(values_.size());
    converted_.assign(values_.size(), 0);
  }
}

Rows::~Rows() = default;
Rows::Rows(Rows&&) noexcept = default;
Rows& Rows::operator=(Rows&&) noexcept = default;

std::string_view Rows::Convert(size_t i) const {
  AssignCp1251AsUtf8(utf8_[i], values_[i]);
  converted_[i] = row_;
  ++conversions_;
  return utf8_[i];
}

bool Rows::Next() {
  ++row_;  // every cached conversion is of an earlier row now
  if (!rs_) {
    if (next_held_ >= held_.size()) return false;
    const auto& r = held_[next_held_++];
    for (size_t i = 0; i < values_.size(); ++i) {
      nulls_[i] = !r[i].has_value();
      values_[i] = r[i].value_or("");
    }
    return true;
  }
  try {
    if (!rs_->next()) {
      if (st_) CheckStreamEnded();
      return false;
    }
    for (size_t i = 0; i < values_.size(); ++i) {
      uint32_t col = static_cast<uint32_t>(i + 1);
      sql::SQLString s = rs_->getString(col);
      values_[i].assign(s.c_str(), s.length());
      nulls_[i] = values_[i].empty() && rs_->isNull(col);
    }
    return true;
  } catch (const sql::SQLException& e) {
    throw Unavailable(std::string("reading a result: ") + e.what());
  }
}

// A streamed result's rows arrive as the server sends them, and Connector/C++
// 1.1 ends the rows quietly when the server ends the query with an error
// part-way (KILL QUERY, max_statement_time): asked on the same connection,
// the server says whether the query ended with an error (SHOW ERRORS
// speaks of the statement before it). A connection lost part-way throws
// here too.
void Rows::CheckStreamEnded() {
  std::unique_ptr<sql::Statement> check(st_->getConnection()->createStatement());
  std::unique_ptr<sql::ResultSet> errors(check->executeQuery("SHOW ERRORS LIMIT 1"));
  if (errors->next()) {
    throw Unavailable("the database ended the query part-way: error " + std::string(errors->getString(2)) + ": " +
                      std::string(errors->getString(3)));
  }
}

Database::Database(DatabaseConfig config, const Clock* clock) : config_(std::move(config)), clock_(clock) {}
Database::~Database() = default;

void Database::Disconnect() {
  sessions_.clear();
  if (pinned_ > 0) lost_while_pinned_ = true;
}

void Database::Unpin() {
  if (--pinned_ == 0) lost_while_pinned_ = false;
}

std::optional<int64_t> Database::opened() const {
  auto it = sessions_.find(config_.charset);
  if (it == sessions_.end() || !it->second.conn) return std::nullopt;
  return it->second.opened;
}

Database::Session& Database::SessionFor(const std::string& charset) {
  return sessions_[charset.empty() ? config_.charset : charset];
}

sql::Connection* Database::Connection(Session& s, const std::string& charset) {
  if (s.conn) return s.conn.get();
  if (lost_while_pinned_) {
    throw Unavailable("the database connection that held a lock was lost: the work it guarded stops here");
  }
  try {
    sql::ConnectOptionsMap opts;
    if (!config_.socket.empty()) {
      opts["hostName"] = sql::SQLString("localhost");
      opts["socket"] = sql::SQLString(config_.socket);
    } else {
      opts["hostName"] = sql::SQLString(config_.host);
      opts["port"] = config_.port;
    }
    opts["userName"] = sql::SQLString(config_.user);
    opts["password"] = sql::SQLString(config_.password);
    opts["schema"] = sql::SQLString(config_.name);
    const std::string cs = charset.empty() ? config_.charset : charset;
    opts["OPT_CHARSET_NAME"] = sql::SQLString(cs);
    // Connector/C++ sets character_set_results on its own unless told.
    opts["characterSetResults"] = sql::SQLString(cs);
    opts["OPT_CONNECT_TIMEOUT"] = config_.connect_timeout;
    opts["OPT_READ_TIMEOUT"] = config_.read_timeout;
    opts["OPT_WRITE_TIMEOUT"] = config_.write_timeout;
    opts["OPT_RECONNECT"] = false;
    SetTlsOptions(config_, opts);
    // Unset, libmariadb looks in MARIADB_PLUGIN_DIR, then its own folder.
    if (!config_.plugin_dir.empty()) opts["pluginDir"] = sql::SQLString(config_.plugin_dir);
    sql::mysql::MySQL_Driver* driver = sql::mysql::get_mysql_driver_instance();
    s.conn.reset(driver->connect(opts));
    s.opened = clock_ ? clock_->Now() : SystemClock().Now();
    std::unique_ptr<sql::Statement> st(s.conn->createStatement());
    if (config_.ssl_mode >= SslMode::kRequired && !UsesTls(st.get())) {
      st.reset();
      Disconnect();
      throw Unavailable(std::string("cannot connect to the database: the server does not offer TLS, and [database] "
                                    "ssl_mode = ") +
                        SslModeName(config_.ssl_mode) + " requires it");
    }
    // Feeds read committed rows as they are now, each query on its own.
    st->execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
  } catch (const sql::SQLException& e) {
    Disconnect();
    throw Unavailable(std::string("cannot connect to the database: ") + e.what());
  }
  return s.conn.get();
}

template <typename Fn>
auto Database::WithRetry(const SqlQuery& query, Fn fn) {
  for (int attempt = 0;; ++attempt) {
    Session& s = SessionFor(query.charset);
    bool fresh = !s.conn;
    try {
      return fn(s);
    } catch (const sql::SQLException& e) {
      if (IsFullError(e)) {
        throw FeedError(ErrorKind::kFull, query.Where(e.what()) + "query failed: " + e.what(),
                        "the database's tablespace is full");
      }
      if (!IsConnectionError(e)) throw InternalError(query.Where(e.what()) + "query failed: " + e.what());
      Disconnect();
      // A connection that was already open may have been closed by the
      // server between requests (restart, wait_timeout): try a new one once,
      // unless a lock lived on the one lost.
      if (fresh || attempt > 0 || pinned_ > 0) throw Lost(e);
    }
  }
}

sql::PreparedStatement* Database::Prepare(const SqlQuery& query) {
  Session& s = SessionFor(query.charset);
  auto it = s.prepared.find(query.text);
  if (it != s.prepared.end()) return it->second.get();
  sql::Connection* c = Connection(s, query.charset);
  std::unique_ptr<sql::PreparedStatement> ps;
  try {
    ps.reset(c->prepareStatement(query.text));
  } catch (const sql::SQLException& e) {
    if (IsConnectionError(e)) throw;  // WithRetry's: the connection may only have gone stale
    throw InternalError(query.Where(e.what()) + "the database refuses the query: " + e.what());
  }
  return (s.prepared[query.text] = std::move(ps)).get();
}

bool Database::Accepts(const SqlQuery& query) {
  try {
    Describe(query);
    return true;
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    return false;
  }
}

std::vector<Column> Database::Describe(const SqlQuery& query) {
  return WithRetry(query, [&](Session&) {
    sql::ResultSetMetaData* md = Prepare(query)->getMetaData();
    std::vector<Column> cols;
    for (unsigned i = 1; i <= md->getColumnCount(); ++i) {
      cols.push_back({std::string(md->getColumnLabel(i)), TypeOf(md->getColumnType(i))});
    }
    return cols;
  });
}

std::vector<SourceColumn> Database::SourceColumns(const SqlQuery& query) {
  const std::string charset = query.charset.empty() ? config_.charset : query.charset;
  // A session key no charset has: this session's results are never read.
  Session& s = sessions_["source " + charset];
  const bool fresh = !s.conn;
  sql::Connection* c = Connection(s, charset);
  try {
    if (fresh) std::unique_ptr<sql::Statement>(c->createStatement())->execute("SET character_set_results = NULL");
    std::unique_ptr<sql::PreparedStatement> ps(c->prepareStatement(query.text));
    sql::ResultSetMetaData* md = ps->getMetaData();
    std::vector<SourceColumn> cols;
    for (unsigned i = 1; i <= md->getColumnCount(); ++i) {
      SourceColumn col{std::string(md->getColumnLabel(i)), std::string(md->getColumnCharset(i)), ""};
      const std::string table(md->getTableName(i)), name(md->getColumnName(i));
      if (!table.empty() && !name.empty()) col.origin = table + "." + name;
      cols.push_back(std::move(col));
    }
    return cols;
  } catch (const sql::SQLException& e) {
    if (IsConnectionError(e)) {
      Disconnect();
      throw Lost(e);
    }
    throw InternalError(query.Where(e.what()) + "the database refuses the query: " + e.what());
  }
}

namespace {

const SqlValue& ParamValue(const SqlQuery& query, const SqlParams& params, size_t i) {
  auto it = params.find(query.params[i]);
  if (it == params.end()) throw InternalError(query.file + ": no value for :" + query.params[i]);
  return it->second;
}

}  // namespace

void Database::BindParams(sql::PreparedStatement* ps, const SqlQuery& query, const SqlParams& params) {
  for (size_t i = 0; i < query.params.size(); ++i) {
    const SqlValue& v = ParamValue(query, params, i);
    unsigned pos = static_cast<unsigned>(i + 1);
    if (const int64_t* n = std::get_if<int64_t>(&v)) {
      ps->setInt64(pos, *n);
    } else {
      ps->setString(pos, std::get<std::string>(v));
    }
  }
}

Rows Database::Run(const SqlQuery& query, const SqlParams& params) {
  const bool cp1251 = (query.charset.empty() ? config_.charset : query.charset) == "cp1251";
  return WithRetry(query, [&](Session&) {
    sql::PreparedStatement* ps = Prepare(query);
    BindParams(ps, query, params);
    std::unique_ptr<sql::ResultSet> rs(ps->executeQuery());
    size_t columns = rs->getMetaData()->getColumnCount();
    return Rows(std::move(rs), columns, cp1251);
  });
}

int64_t Database::Update(const SqlQuery& query, const SqlParams& params) {
  return WithRetry(query, [&](Session&) {
    sql::PreparedStatement* ps = Prepare(query);
    BindParams(ps, query, params);
    return static_cast<int64_t>(ps->executeUpdate());
  });
}

Rows Database::Stream(const SqlQuery& query, const SqlParams& params) {
  const std::string& charset = query.charset.empty() ? config_.charset : query.charset;
  return WithRetry(query, [&](Session& s) {
    auto* conn = dynamic_cast<sql::mysql::MySQL_Connection*>(Connection(s, query.charset));
    // The statement text with each '?' replaced by its value as a literal.
    std::string text;
    text.reserve(query.text.size() + 64 * query.params.size());
    size_t from = 0;
    for (size_t i = 0; i < query.params.size(); ++i) {
      text.append(query.text, from, query.offsets[i] - from);
      from = query.offsets[i] + 1;
      const SqlValue& v = ParamValue(query, params, i);
      if (const int64_t* n = std::get_if<int64_t>(&v)) {
        text += std::to_string(*n);
      } else {
        text += '\'';
        text += std::string(conn->escapeString(std::get<std::string>(v)));
        text += '\'';
      }
    }
    text.append(query.text, from, std::string::npos);
    std::unique_ptr<sql::Statement> st(conn->createStatement());
    st->setResultSetType(sql::ResultSet::TYPE_FORWARD_ONLY);
    std::unique_ptr<sql::ResultSet> rs(st->executeQuery(text));
    size_t columns = rs->getMetaData()->getColumnCount();
    return Rows(std::move(st), std::move(rs), columns, charset == "cp1251");
  });
}

void Database::Execute(const std::string& text) {
  if (std::optional<Refusal> r = TryExecute(text)) throw InternalError("statement failed: " + r->message);
}

std::optional<Database::Refusal> Database::TryExecute(const std::string& text) {
  return Attempt([&](sql::Connection& c) { std::unique_ptr<sql::Statement>(c.createStatement())->execute(text); });
}

std::optional<Database::Refusal> Database::Refuses(const std::string& text) {
  return Attempt([&](sql::Connection& c) { std::unique_ptr<sql::PreparedStatement>(c.prepareStatement(text)); });
}

std::optional<Database::Refusal> Database::Attempt(const std::function<void(sql::Connection&)>& run) {
  sql::Connection* c = Connection(SessionFor(""), "");
  try {
    run(*c);
    return std::nullopt;
  } catch (const sql::SQLException& e) {
    if (IsConnectionError(e)) {
      Disconnect();
      throw Lost(e);
    }
    return Refusal{e.getErrorCode(), e.what()};
  }
}

}  // namespace feed
