#include "feed.h"

#include <algorithm>

#include "children.h"
#include "continue_token.h"
#include "datetime.h"
#include "error.h"
#include "state.h"

namespace feed {
namespace {

constexpr const char* kMinDateTime = "1000-01-01 00:00:00";

// Reads the rows of a range through the feed's query, as a prepared
// statement or a streamed plain one.
class QueryChunks : public ChunkReader {
 public:
  QueryChunks(Database& db, const SqlQuery& query, const Keyset& keyset, SqlParams params, bool stream)
      : db_(db), query_(query), keyset_(keyset), params_(std::move(params)), stream_(stream) {}
  Rows Read(const Position& after, const Position& until, size_t limit) override {
    keyset_.BindAfter(after, &params_);
    keyset_.BindUntil(until, &params_);
    params_["limit"] = static_cast<int64_t>(limit);
    return stream_ ? db_.Stream(query_, params_) : db_.Run(query_, params_);  // errors name the file
  }

 private:
  Database& db_;
  const SqlQuery& query_;
  const Keyset& keyset_;
  SqlParams params_;
  bool stream_;
};

// One child query, run once per chunk of parents, its rows streamed (on a
// connection of their own, so that they arrive while the chunk renders).
class QueryChildren : public ChildReader {
 public:
  QueryChildren(Database& db, const SqlQuery& query, const std::string& key, SqlParams params)
      : db_(db), query_(query), after_("after_" + key), until_("until_" + key), params_(std::move(params)) {}
  Rows Read(int64_t after, int64_t until) override {
    params_[after_] = after;
    params_[until_] = until;
    return db_.Stream(query_, params_);  // errors name the file
  }

 private:
  Database& db_;
  const SqlQuery& query_;
  std::string after_, until_;
  SqlParams params_;
};

// The parents' reader, the child queries' connection and readers, and the
// merge, owned together (and destroyed in the reverse order: the merge's
// streamed results before their connection).
class FamilyReader : public ChunkReader {
 public:
  FamilyReader(std::unique_ptr<Database> parent_db, std::unique_ptr<Database> child_db,
               std::unique_ptr<ChunkReader> parents, std::vector<std::unique_ptr<QueryChildren>> children,
               const Keyset& keyset, std::vector<ChildSource> sources)
      : parent_db_(std::move(parent_db)),
        child_db_(std::move(child_db)),
        parents_(std::move(parents)),
        children_(std::move(children)),
        family_(*parents_, keyset, std::move(sources), /*read_ahead=*/true) {}
  Rows Read(const Position& after, const Position& until, size_t limit) override {
    return family_.Read(after, until, limit);
  }
  const RowChildren* ChildrenOf(const Position& pos) override { return family_.ChildrenOf(pos); }

 private:
  std::unique_ptr<Database> parent_db_, child_db_;
  std::unique_ptr<ChunkReader> parents_;
  std::vector<std::unique_ptr<QueryChildren>> children_;
  FamilyChunks family_;  // declared last: waits for its read-ahead first
};

}  // namespace

Feed::Feed(const FeedConfig& config, const Config& site, const Clock* clock)
    : Feed(config, site, ReadSiteFile(config.template_file), clock) {}

// The template's text is read once: compiled here, and part of the identity
// that goes into entity tags.
Feed::Feed(const FeedConfig& config, const Config& site, const std::string& template_text, const Clock* clock)
    : config_(config),
      template_(Template::Parse(template_text, config.template_file, config.format, config.encoding,
                                TemplateValues(site, &config), site.zone, clock)),
      zone_(site.zone),
      query_(LoadSqlQuery(config.query_file)),
      keyset_(config.keyset, config.order) {
  query_.charset = config_.db_charset;
  if (!config_.state_query_file.empty()) state_query_ = LoadSqlQuery(config_.state_query_file);
  auto need = [&](const std::string& name) {
    if (!query_.Uses(name)) {
      throw ConfigError(query_.file + ": the query must use :" + name + " (see the feed's keyset and paging)");
    }
  };
  need("limit");
  for (const std::string& k : config_.keyset) need("after_" + k);
  if (config_.since != SinceSource::kNone) need("since");
  // An MSN feed reads single items back by id (the ones a response lists).
  if (config_.lifecycle == Lifecycle::kMsn) need("until_" + config_.keyset[0]);
  // [site] values are bound as :site_KEY, so the SQL needs no copy of them.
  for (const auto& [key, value] : site.site) site_params_["site_" + key] = value;
  auto is_key = [&](const std::string& p, const char* prefix) {
    const size_t n = std::string(prefix).size();
    return p.rfind(prefix, 0) == 0 &&
           std::find(config_.keyset.begin(), config_.keyset.end(), p.substr(n)) != config_.keyset.end();
  };
  auto check = [&](const SqlQuery& q) {
    for (const std::string& p : q.params) {
      bool known = p == "since" || p == "now" || site_params_.count(p) || is_key(p, "after_") ||
                   is_key(p, "until_") || p == "limit";
      if (!known && p.rfind("site_", 0) == 0) {
        throw ConfigError(q.file + ":" + std::to_string(q.LineOf(p)) + ": the config's [site] has no key '" +
                          p.substr(5) + "' (the query uses :" + p + "; add " + p.substr(5) + " = ... to [site])");
      }
      if (!known) {
        throw ConfigError(q.file + ":" + std::to_string(q.LineOf(p)) + ": unknown parameter :" + p +
                          " (known: :since, :now, :limit, :site_KEY, :after_KEYSETFIELD, :until_KEYSETFIELD)");
      }
    }
  };
  check(query_);
  if (state_query_) check(*state_query_);
  // Child queries, in the order the template numbers them.
  for (const std::string& name : template_.Children()) {
    auto it = std::find_if(config_.children.begin(), config_.children.end(),
                           [&](const ChildConfig& c) { return c.name == name; });
    if (it == config_.children.end()) {
      throw ConfigError(config_.template_file + ": feed:each=\"" + name + "\" names no child query: add child." +
                        name + " = FILE to [feed " + config_.name + "]");
    }
    child_configs_.push_back(*it);
  }
  for (const ChildConfig& c : config_.children) {
    if (std::find(template_.Children().begin(), template_.Children().end(), c.name) == template_.Children().end()) {
      throw ConfigError(config_.template_file + ": [feed " + config_.name + "] child." + c.name +
                        " is not used: no element has feed:each=\"" + c.name + "\"");
    }
  }
  std::string children_ident;
  for (const ChildConfig& c : child_configs_) {
    SqlQuery q = LoadSqlQuery(c.query_file);
    q.charset = config_.db_charset;
    const std::string& k = config_.keyset[0];
    for (const char* need : {"after_", "until_"}) {
      if (!q.Uses(need + k)) {
        throw ConfigError(q.file + ": a child query must use :" + std::string(need) + k +
                          " (its rows are read for a chunk of parents at a time)");
      }
    }
    for (const std::string& p : q.params) {
      if (p != "now" && p != "max_per_parent" && p != "after_" + k && p != "until_" + k && !site_params_.count(p)) {
        throw ConfigError(q.file + ": unknown parameter :" + p + " (known: :after_" + k + ", :until_" + k +
                          ", :max_per_parent, :now, :site_KEY)");
      }
    }
    children_ident += '\0' + q.text + '\0' + std::to_string(c.max_per_parent);
    child_queries_.push_back(std::move(q));
  }
  std::string ident = template_text + '\0' + query_.text + '\0' + (state_query_ ? state_query_->text : "") + '\0' +
                      CharsetName(config_.encoding) + children_ident;
  identity_ = SipHash24(0x6665656466636769ULL, 0x6964656e74697479ULL, ident);
  weak_tags_ = template_.Writes("feed.date") || template_.Writes("feed.continue");
}

void Feed::Bind(Database& db, const std::vector<std::string>& engine_fields) {
  if (bound_) return;
  BindColumns(db.Describe(query_), engine_fields);
  if (state_query_) {
    db.Describe(*state_query_);
    StateStore(db).CheckSeen();
  }
  child_columns_.clear();
  for (size_t c = 0; c < child_queries_.size(); ++c) {
    std::vector<Column> cc = db.Describe(child_queries_[c]);
    if (std::none_of(cc.begin(), cc.end(), [](const Column& x) { return x.name == "parent"; })) {
      throw ConfigError(child_queries_[c].file + ": a child query returns a column named parent (the parent's " +
                        config_.keyset[0] + ")");
    }
    template_.BindChildColumns(child_configs_[c].name, cc, child_queries_[c].file);
    child_columns_.push_back(std::move(cc));
  }
  bound_ = true;
}

void Feed::BindColumns(std::vector<Column> cols, const std::vector<std::string>& engine_fields) {
  std::vector<Column> bound = cols;
  for (const std::string& name : engine_fields) {
    for (const Column& c : cols) {
      if (c.name == name) {
        throw ConfigError(query_.file + ": the engine fills in '" + name + "' itself; the query must not return it");
      }
    }
    bound.push_back({name, ColumnType::kText});
  }
  template_.BindColumns(bound, query_.file);
  keyset_.Bind(cols, config_.query_file);
  lastmod_column_ = -1;
  if (!config_.lastmod.empty()) {
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i].name == config_.lastmod) lastmod_column_ = static_cast<int>(i);
    }
    if (lastmod_column_ < 0 || (cols[lastmod_column_].type != ColumnType::kDateTime &&
                                cols[lastmod_column_].type != ColumnType::kDate)) {
      throw ConfigError(config_.query_file + ": lastmod field '" + config_.lastmod +
                        "' must be a DATETIME column of the query");
    }
  }
  columns_ = std::move(cols);
}

SqlParams Feed::RunParams(const std::string& since, const std::string& now) const {
  SqlParams sp = site_params_;
  sp["since"] = since.empty() ? std::string(kMinDateTime) : since;
  sp["now"] = now;
  return sp;
}

std::unique_ptr<ChunkReader> Feed::Reader(Database& db, SqlParams params, std::optional<bool> stream) const {
  const bool streamed = stream.value_or(config_.stream);
  if (child_queries_.empty()) return std::make_unique<QueryChunks>(db, query_, keyset_, std::move(params), streamed);
  // The parents are read on a connection of their own (the next chunk is
  // read ahead on a thread while this one renders), and the child rows
  // stream on another.
  auto parent_db = std::make_unique<Database>(db.config());
  auto child_db = std::make_unique<Database>(db.config());
  std::vector<std::unique_ptr<QueryChildren>> readers;
  std::vector<ChildSource> sources;
  for (size_t c = 0; c < child_queries_.size(); ++c) {
    SqlParams cp;
    for (const std::string& p : child_queries_[c].params) {
      if (auto it = params.find(p); it != params.end()) cp[p] = it->second;
    }
    cp["max_per_parent"] = static_cast<int64_t>(child_configs_[c].max_per_parent);
    readers.push_back(
        std::make_unique<QueryChildren>(*child_db, child_queries_[c], config_.keyset[0], std::move(cp)));
    sources.push_back({child_configs_[c].name, child_columns_.at(c), readers.back().get(),
                       static_cast<size_t>(child_configs_[c].max_per_parent)});
  }
  auto parents = std::make_unique<QueryChunks>(*parent_db, query_, keyset_, std::move(params), streamed);
  return std::make_unique<FamilyReader>(std::move(parent_db), std::move(child_db), std::move(parents),
                                        std::move(readers), keyset_, std::move(sources));
}

Feed::StateView Feed::State(Database& db, Database& seen_db, const SqlParams& params,
                            const std::string& request_state, bool gzip, std::optional<UnixTime> seen_at) const {
  StateView view;
  if (!state_query_) return view;
  // Every column, NULL told apart from an empty value.
  std::string row;
  Rows st = db.Run(*state_query_, params);
  if (st.Next()) {
    for (size_t i = 0; i < st.size(); ++i) {
      if (st.IsNull(i))
        row.push_back('\x1e');
      else
        row.append(st.Get(i));
      row.push_back('\x1f');
    }
    if (auto t = ParseSqlDateTime(st.Get(0), true)) view.newest = zone_.ToUnix(*t);
  }
  const uint64_t k1 = identity_ ^ 0x5bd1e995;
  view.validators.etag =
      EntityTag{weak_tags_, Hex64(SipHash24(identity_, k1, request_state + '\x1d' + row)) + (gzip ? "-gz" : "")}
          .ToString();
  if (!seen_at) return view;
  // The scope: the values that choose which rows the state covers. :now
  // and :limit are the run's and the config's, not a choice of rows.
  std::string scope;
  for (const std::string& p : state_query_->params) {
    if (p != "since" && p.rfind("after_", 0) != 0 && p.rfind("until_", 0) != 0) continue;
    if (scope.find('\x1e' + p + '=') != std::string::npos) continue;
    const SqlValue& v = params.at(p);
    const int64_t* n = std::get_if<int64_t>(&v);
    scope += '\x1e' + p + '=' + (n ? std::to_string(*n) : std::get<std::string>(v));
  }
  int64_t first_seen = 0;
  try {
    first_seen = StateStore(seen_db).StateSeen(config_.name, Hex64(SipHash24(0x73636f7065, 0, scope)),
                                               Hex64(SipHash24(identity_, k1, row)), *seen_at);
  } catch (const FeedError& e) {
    // The rows came from a replica and the primary is away: the response
    // is still right, only without the moment it cannot keep.
    if (&seen_db == &db || e.kind() != ErrorKind::kUnavailable) throw;
    view.seen_error = std::string("the moment of this state was not recorded: ") + e.what();
    return view;
  }
  // A moment past now is kept back until it comes (RFC 9110 §8.8.2.1): the
  // response then has no Last-Modified, and If-Modified-Since no say.
  if (first_seen <= *seen_at) {
    // ...and a row stamped ahead of now (a board's clock ahead) says now.
    view.validators.last_modified = std::min(std::max(view.newest.value_or(first_seen), first_seen), *seen_at);
  }
  return view;
}

}  // namespace feed
