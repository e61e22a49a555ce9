#include "feed.h"

#include <algorithm>

#include "continue_token.h"
#include "datetime.h"
#include "error.h"

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
    try {
      return stream_ ? db_.Stream(query_, params_) : db_.Run(query_, params_);
    } catch (const FeedError& e) {
      if (e.kind() != ErrorKind::kInternal) throw;
      throw InternalError(query_.file + ": " + e.what());
    }
  }

 private:
  Database& db_;
  const SqlQuery& query_;
  const Keyset& keyset_;
  SqlParams params_;
  bool stream_;
};

}  // namespace

Feed::Feed(const FeedConfig& config, const Config& site) : Feed(config, site, ReadSiteFile(config.template_file)) {}

// The template's text is read once: compiled here, and part of the identity
// that goes into entity tags.
Feed::Feed(const FeedConfig& config, const Config& site, const std::string& template_text)
    : config_(config),
      template_(Template::Parse(template_text, config.template_file, config.format, config.encoding,
                                TemplateValues(site, &config), site.zone)),
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
      if (!known) {
        throw ConfigError(q.file + ": unknown parameter :" + p +
                          " (known: :since, :now, :limit, :site_KEY, :after_KEYSETFIELD, :until_KEYSETFIELD)");
      }
    }
  };
  check(query_);
  if (state_query_) check(*state_query_);
  std::string ident = template_text + '\0' + query_.text + '\0' + (state_query_ ? state_query_->text : "") + '\0' +
                      CharsetName(config_.encoding);
  identity_ = SipHash24(0x6665656466636769ULL, 0x6964656e74697479ULL, ident);
}

void Feed::Bind(Database& db) {
  if (bound_) return;
  std::vector<Column> cols = db.Describe(query_);
  template_.BindColumns(cols, query_.file);
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
  if (state_query_) db.Describe(*state_query_);
  bound_ = true;
}

SqlParams Feed::RunParams(const std::string& since, const std::string& now) const {
  SqlParams sp = site_params_;
  sp["since"] = since.empty() ? std::string(kMinDateTime) : since;
  sp["now"] = now;
  return sp;
}

std::unique_ptr<ChunkReader> Feed::Reader(Database& db, SqlParams params) const {
  return std::make_unique<QueryChunks>(db, query_, keyset_, std::move(params), config_.stream);
}

Validators Feed::State(Database& db, const SqlParams& params, const std::string& request_state, bool gzip) const {
  Validators v;
  if (!state_query_) return v;
  std::string state = request_state;
  Rows st = db.Run(*state_query_, params);
  if (st.Next()) {
    for (size_t i = 0; i < st.size(); ++i) state.append(st.Get(i)).push_back('\x1f');
    if (auto t = ParseSqlDateTime(st.Get(0), true)) v.last_modified = zone_.ToUnix(*t);
  }
  // A strong tag per representation: the gzip one differs.
  v.etag = "\"" + Hex64(SipHash24(identity_, identity_ ^ 0x5bd1e995, state)) + (gzip ? "-gz" : "") + "\"";
  return v;
}

}  // namespace feed
