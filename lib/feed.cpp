#include "feed.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>

#include "ascii.h"
#include "datetime.h"
#include "error.h"

namespace feed {
namespace {

constexpr size_t kFlushBytes = 64 * 1024;
constexpr size_t kMaxReportedItems = 1000;
constexpr const char* kMinDateTime = "1000-01-01 00:00:00";

std::map<std::string, std::string> FixedValues(const FeedConfig& config, const Config& site) {
  std::map<std::string, std::string> fixed;
  for (const auto& [k, v] : site.site) fixed["site." + k] = v;
  for (const auto& [k, v] : config.values) fixed["value." + k] = v;
  return fixed;
}

// The project's own table of robot visits (sql/state.sql). Constant SQL:
// robot and feed names come from the config, never from a request.
const SqlQuery& LoadVisitQuery() {
  static const SqlQuery q = ParseSqlQuery(
      "SELECT last_visit FROM feed_robot_visit WHERE robot = :robot AND feed = :feed", "robot visit (sql/state.sql)");
  return q;
}
const SqlQuery& SaveVisitQuery() {
  // GREATEST: two overlapping visits never move the record back.
  static const SqlQuery q = ParseSqlQuery(
      "INSERT INTO feed_robot_visit (robot, feed, last_visit, recorded) VALUES (:robot, :feed, :visit, :now) "
      "ON DUPLICATE KEY UPDATE last_visit = GREATEST(last_visit, VALUES(last_visit)), recorded = VALUES(recorded)",
      "robot visit (sql/state.sql)");
  return q;
}

std::string Hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

Feed::Feed(const FeedConfig& config, const Config& site) : Feed(config, site, ReadSiteFile(config.template_file)) {}

// The template's text is read once: compiled here, and part of the identity
// that goes into entity tags.
Feed::Feed(const FeedConfig& config, const Config& site, const std::string& template_text)
    : config_(config),
      template_(Template::Parse(template_text, config.template_file, config.encoding, FixedValues(config, site))),
      query_(LoadSqlQuery(config.query_file)) {
  query_.charset = config_.db_charset;
  if (!config_.state_query_file.empty()) state_query_ = LoadSqlQuery(config_.state_query_file);
  if (!config_.secret.empty()) codec_ = std::make_unique<ContinueTokenCodec>(config_.secret);
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
  auto check = [&](const SqlQuery& q, bool rows) {
    for (const std::string& p : q.params) {
      bool known = p == "since" || p == "now" || site_params_.count(p) ||
                   (rows && (p == "limit" ||
                             (p.rfind("after_", 0) == 0 && std::find(config_.keyset.begin(), config_.keyset.end(),
                                                                     p.substr(6)) != config_.keyset.end())));
      if (!known) {
        throw ConfigError(q.file + ": unknown parameter :" + p + " (known: :since, :now, :site_KEY" +
                          (rows ? ", :limit, :after_KEYSETFIELD)" : ")"));
      }
    }
  };
  check(query_, true);
  if (state_query_) check(*state_query_, false);
  std::string ident = template_text + '\0' + query_.text + '\0' + (state_query_ ? state_query_->text : "") + '\0' +
                      CharsetName(config_.encoding);
  identity_ = SipHash24(0x6665656466636769ULL, 0x6964656e74697479ULL, ident);
}

void Feed::Bind(Database& db) {
  if (bound_) return;
  std::vector<Column> cols = db.Describe(query_);
  template_.BindColumns(cols, query_.file);
  key_columns_.clear();
  key_types_.clear();
  for (const std::string& k : config_.keyset) {
    size_t i = 0;
    while (i < cols.size() && cols[i].name != k) ++i;
    if (i == cols.size())
      throw ConfigError(config_.query_file + ": keyset field '" + k + "' is not a column of the query");
    if (cols[i].type == ColumnType::kText) {
      throw ConfigError(config_.query_file + ": keyset field '" + k + "' must be an integer, DATE or DATETIME column");
    }
    key_columns_.push_back(i);
    key_types_.push_back(cols[i].type);
  }
  if (state_query_) db.Describe(*state_query_);
  if (config_.since == SinceSource::kRobot) {
    try {
      db.Describe(LoadVisitQuery());
    } catch (const FeedError& e) {
      if (e.kind() == ErrorKind::kUnavailable) throw;
      throw ConfigError(config_.name + ": the robot visits table is missing: apply sql/state.sql (" + e.what() + ")");
    }
  }
  bound_ = true;
}

void Feed::ReadKeyset(const Rows& rows, std::vector<int64_t>* key) const {
  key->resize(key_columns_.size());
  for (size_t i = 0; i < key_columns_.size(); ++i) {
    std::string_view v = rows.Get(key_columns_[i]);
    if (key_types_[i] == ColumnType::kInteger) {
      int64_t n = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (ec != std::errc() || p != v.data() + v.size()) {
        throw InternalError(config_.query_file + ": keyset field '" + config_.keyset[i] + "' is not an integer: '" +
                            std::string(v.substr(0, 40)) + "'");
      }
      (*key)[i] = n;
    } else {
      auto t = ParseSqlDateTime(v, /*allow_date_only=*/true);
      if (!t) {
        throw InternalError(config_.query_file + ": keyset field '" + config_.keyset[i] + "' is NULL or not a date: '" +
                            std::string(v.substr(0, 40)) + "'");
      }
      (*key)[i] = NaiveSeconds(*t);
    }
  }
}

void Feed::BindKeyset(const std::vector<int64_t>& key, SqlParams* params) const {
  for (size_t i = 0; i < key.size(); ++i) {
    const std::string name = "after_" + config_.keyset[i];
    if (key_types_[i] == ColumnType::kInteger) {
      (*params)[name] = key[i];
    } else {
      (*params)[name] = FormatSqlDateTime(FromNaiveSeconds(key[i]));
    }
  }
}

std::string Feed::SinceMoment(const Request& req, const QueryParams& params, Database& db) const {
  if (config_.since == SinceSource::kParam) {
    auto v = params.Get(config_.since_param);
    if (!v) return "";
    auto t = ParseSqlDateTime(*v);
    if (!t) {
      throw BadRequest(config_.since_param +
                       " must be YYYY-MM-DD HH:MM:SS in the site's time, such as 2026-11-01 09:30:00");
    }
    return FormatSqlDateTime(*t);
  }
  if (config_.since == SinceSource::kRobot) {
    // After the robot's last visit: If-Modified-Since when the request has
    // one (an unreadable one is ignored, as HTTP says), else the record.
    if (auto ims = req.if_modified_since.empty() ? std::nullopt : ParseHttpDate(req.if_modified_since)) {
      return FormatSqlDateTime(SiteZone::FromUnix(*ims));
    }
    Rows visit = db.Run(LoadVisitQuery(), {{"robot", config_.robot}, {"feed", config_.name}});
    if (visit.Next() && !visit.IsNull(0)) return std::string(visit.Get(0));
  }
  return "";
}

bool Feed::AnswerNotModified(const Request& req, Database& db, const SqlParams& sp, std::string state, bool gzip,
                             ResponseHead* head, Response& resp) const {
  Rows st = db.Run(*state_query_, sp);
  std::optional<UnixTime> last_modified;
  if (st.Next()) {
    for (size_t i = 0; i < st.size(); ++i) state.append(st.Get(i)).push_back('\x1f');
    if (auto t = ParseSqlDateTime(st.Get(0), true)) last_modified = SiteZone::ToUnix(*t);
  }
  // A strong tag per representation: the gzip one differs.
  const std::string etag =
      "\"" + Hex64(SipHash24(identity_, identity_ ^ 0x5bd1e995, state)) + (gzip ? "-gz" : "") + "\"";
  bool not_modified = false;
  if (!req.if_none_match.empty()) {
    not_modified = NoneMatchHits(req.if_none_match, etag);  // checked first
  } else if (!req.if_modified_since.empty() && last_modified) {
    auto ims = ParseHttpDate(req.if_modified_since);
    not_modified = ims && *last_modified <= *ims;
  }
  if (not_modified) {
    ResponseHead nm;
    nm.status = 304;
    nm.Add("ETag", etag);
    if (last_modified) nm.Add("Last-Modified", FormatHttpDate(*last_modified));
    nm.Add("Vary", "Accept-Encoding");
    resp.Start(nm, false);
    resp.Finish();
    return true;
  }
  head->Add("ETag", etag);
  if (last_modified) head->Add("Last-Modified", FormatHttpDate(*last_modified));
  return false;
}

std::vector<int64_t> Feed::FirstKeyset(const std::string& since) const {
  std::vector<int64_t> key(config_.keyset.size(), INT64_MIN);
  for (size_t i = 0; i < key.size(); ++i) {
    if (key_types_[i] != ColumnType::kInteger) {
      key[i] = NaiveSeconds(*ParseSqlDateTime(since));
      break;  // later fields stay at their minimum
    }
  }
  return key;
}

void Feed::RecordVisit(Database& db, int64_t run_start, FeedReport* report) const {
  SqlParams visit = {{"robot", config_.robot},
                     {"feed", config_.name},
                     {"visit", FormatSqlDateTime(FromNaiveSeconds(run_start - config_.settle_seconds))},
                     {"now", FormatSqlDateTime(FromNaiveSeconds(run_start))}};
  try {
    db.Update(SaveVisitQuery(), visit);
    report->visit_recorded = true;
  } catch (const FeedError& e) {
    // The feed was delivered; the robot will get these rows again.
    report->visit_error = e.what();
  }
}

void Feed::Serve(const Request& req, Database& db, Response& resp, FeedReport* report) {
  // Client input is checked before the database is asked anything, so a
  // bad request is a 400 even while the database is down.
  QueryParams params = QueryParams::Parse(req.query_string);
  const std::string since_text = SinceMoment(req, params, db);

  // Where this page starts: a continue token, or the first row.
  const std::string binding = config_.name + '\n' + since_text;
  std::optional<ContinueToken> token;
  std::string token_text;
  if (!config_.continue_param.empty()) {
    if (auto v = params.Get(config_.continue_param)) {
      token_text = *v;
      token = codec_->Decode(token_text, binding);
      if (!token || token->keyset.size() != config_.keyset.size()) {
        throw BadRequest(config_.continue_param + " is not a token this feed issued for this " +
                         (config_.since == SinceSource::kParam ? config_.since_param : std::string("request")) +
                         "; start again without " + config_.continue_param);
      }
    }
  }
  const int64_t run_start = token ? token->run_start : NaiveSeconds(SiteZone::FromUnix(Now()));

  Bind(db);
  SqlParams sp = site_params_;
  sp["since"] = since_text.empty() ? std::string(kMinDateTime) : since_text;
  sp["now"] = FormatSqlDateTime(FromNaiveSeconds(run_start));

  ResponseHead head;
  head.Add("Content-Type", config_.content_type + "; charset=" + CharsetName(config_.encoding));
  head.Add("Vary", "Accept-Encoding");
  const bool gzip = AcceptsGzip(req.accept_encoding);
  if (gzip) head.Add("Content-Encoding", "gzip");
  // The entity tag covers everything the body depends on but the moment
  // it was made.
  if (state_query_ && AnswerNotModified(req, db, sp, since_text + '\x1f' + token_text + '\x1f', gzip, &head, resp)) {
    report->complete = true;
    return;
  }

  // The first chunk is read before anything is sent, so that a database
  // failure here is still a clean 503.
  const bool paged = config_.page_size > 0;
  size_t budget = paged ? static_cast<size_t>(config_.page_size) : SIZE_MAX;
  auto chunk_limit = [&] {
    size_t lim = static_cast<size_t>(config_.fetch_rows);
    if (paged && budget + 1 < lim) lim = budget + 1;  // one more tells whether a page follows
    return lim;
  };
  std::vector<int64_t> key = token ? token->keyset : FirstKeyset(std::get<std::string>(sp["since"]));
  size_t limit = chunk_limit();
  auto read = [&] {
    BindKeyset(key, &sp);
    sp["limit"] = static_cast<int64_t>(limit);
    return config_.stream ? db.Stream(query_, sp) : db.Run(query_, sp);
  };
  Rows rows = read();

  resp.Start(head, gzip);
  if (req.method == "HEAD") {
    resp.Finish();
    report->complete = true;
    return;
  }

  DocumentValues doc;
  doc.name = config_.name;
  doc.date = FormatSqlDateTime(FromNaiveSeconds(run_start - config_.settle_seconds));
  std::string out;
  out.reserve(kFlushBytes + 64 * 1024);
  template_.RenderHead(out, doc);

  // Every row must come strictly after the position the query was given.
  std::vector<int64_t> prev = key;
  for (;;) {
    size_t got = 0;
    while (rows.Next()) {
      ++got;
      if (paged && budget == 0) {
        doc.more = true;  // the extra row: another page follows
        break;
      }
      ReadKeyset(rows, &key);
      if (!(prev < key)) {
        throw InternalError(query_.file + ": rows are not in keyset order (ORDER BY must follow keyset = ...)");
      }
      prev = key;
      RowRejection why;
      if (template_.RenderRow(out, rows, &why)) {
        ++report->rows;
      } else {
        ++report->skipped;
        if (report->skipped_items.size() < kMaxReportedItems) {
          report->skipped_items.push_back((why.item.empty() ? "" : "item " + why.item + ": ") + why.field + "='" +
                                          why.value + "' breaks " + why.rule);
        }
      }
      if (paged) --budget;
      if (out.size() >= kFlushBytes) {
        resp.Write(out);
        out.clear();
      }
    }
    if (doc.more || got < limit) break;
    limit = chunk_limit();  // 1 when the page is full: is there another row?
    rows = read();
  }

  if (doc.more) {
    doc.continue_token = codec_->Encode(ContinueToken{run_start, prev}, binding);
    report->continue_token = doc.continue_token;
  }
  report->more = doc.more;
  template_.RenderTail(out, doc);
  resp.Write(out);
  resp.Finish();
  report->complete = true;

  // The robot got the whole feed: next time it gets what changed after the
  // snapshot (less the settle margin, for rows still being committed then).
  // A person looking at the feed moves nothing.
  if (config_.since == SinceSource::kRobot && ContainsNoCase(req.user_agent, config_.robot)) {
    RecordVisit(db, run_start, report);
  }
}

}  // namespace feed
