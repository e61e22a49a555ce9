#include "check.h"

#include <map>
#include <set>

#include "datetime.h"
#include "error.h"
#include "row_source.h"

namespace feed {
namespace {

constexpr size_t kIdsPerRule = 5;  // ids shown for each rule that leaves rows out
constexpr size_t kKeysShown = 5;   // keys shown for each kind of walk fault

// "FILE:LINE: text" as FeedError messages give it: the place and the rest.
Finding FromError(const FeedError& e, const std::string& fallback_where, std::string todo) {
  Finding f;
  std::string msg = e.what();
  const size_t colon = msg.find(": ");
  if (colon != std::string::npos && msg.rfind('/', colon) != std::string::npos) {
    f.where = msg.substr(0, colon);
    f.what = msg.substr(colon + 2);
  } else {
    f.where = fallback_where;
    f.what = msg;
  }
  f.todo = std::move(todo);
  return f;
}

std::string Keys(const std::vector<std::string>& keys, size_t total) {
  std::string s;
  for (size_t i = 0; i < keys.size() && i < kKeysShown; ++i) s += (i ? ", " : "") + keys[i];
  if (total > kKeysShown) s += " and " + std::to_string(total - kKeysShown) + " more";
  return s;
}

std::string Now(const Feed& f, const Clock& clock) { return FormatSqlDateTime(f.zone().FromUnix(clock.Now())); }

std::string Fields(const Feed& f) {
  std::string k;
  for (const auto& x : f.keyset().fields()) k += (k.empty() ? "" : ", ") + x;
  return k;
}

// One read of the feed's rows in keyset order, unpaged (at most
// `max_rows`), each row's position text as it came; keys that repeat or go
// backwards are collected rather than refused; the template's rules run on
// each row.
struct Unpaged {
  std::vector<std::string> keys;
  std::vector<std::string> repeated, backwards;
  size_t repeats = 0, backs = 0;
  std::map<std::string, std::vector<std::string>> rules;  // rule -> first ids
  std::map<std::string, size_t> counts;                  // rule -> rows
};

Unpaged ReadUnpaged(Feed& f, Database& db, const Clock& clock, size_t max_rows) {
  Unpaged u;
  std::unique_ptr<ChunkReader> reader = f.Reader(db, f.RunParams("", Now(f, clock)));
  Rows rows = reader->Read(f.keyset().First(""), f.keyset().Last(), max_rows);
  Position prev, pos;
  bool first = true;
  std::string scratch;
  while (rows.Next()) {
    f.keyset().Read(rows, &pos);
    const std::string key = Keyset::Format(pos);
    if (!first && !f.keyset().Before(prev, pos)) {
      if (f.keyset().Before(pos, prev)) {
        if (u.backwards.size() < kKeysShown) u.backwards.push_back(key);
        ++u.backs;
      } else {
        if (u.repeated.size() < kKeysShown) u.repeated.push_back(key);
        ++u.repeats;
      }
    }
    first = false;
    prev = pos;
    u.keys.push_back(key);
    // An MSN item's template also writes values the engine computes (its
    // guid and dates): its rows are rendered by the lifecycle, not here.
    if (f.config().lifecycle != Lifecycle::kNone) continue;
    RowRejection why;
    scratch.clear();
    if (!f.tmpl().RenderRow(scratch, rows, reader->ChildrenOf(pos), &why, nullptr)) {
      const std::string rule = (why.field.empty() ? "" : why.field + ":") + why.rule;
      auto& ids = u.rules[rule];
      if (ids.size() < kIdsPerRule) ids.push_back(why.item.empty() ? key : why.item);
      ++u.counts[rule];
    }
  }
  return u;
}

// The walk a robot makes: chunks of `fetch` rows, each starting after the
// last; the position texts, or what stopped the walk.
std::vector<std::string> ReadPaged(Feed& f, Database& db, const Clock& clock, size_t fetch,
                                   std::vector<Finding>* findings) {
  std::vector<std::string> out;
  std::unique_ptr<ChunkReader> reader = f.Reader(db, f.RunParams("", Now(f, clock)));
  KeysetRows rows(*reader, f.keyset(), f.keyset().First(""), std::nullopt, fetch);
  try {
    while (rows.Next()) out.push_back(Keyset::Format(rows.position()));
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    findings->push_back(FromError(e, f.config().query_file,
                                  "order the rows by the keyset (" + Fields(f) + ") and start each chunk after it"));
  }
  return out;
}

void CheckOne(Feed& f, Database& db, const Clock& clock, const CheckOptions& opt, CheckReport* report) {
  const std::string& name = f.config().name;
  try {
    f.Bind(db);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    report->findings.push_back(FromError(e, f.config().query_file, "fix the mapping of [feed " + name + "]"));
    return;
  }
  // The query for real: rows, and what the template's rules leave out.
  const Unpaged u = ReadUnpaged(f, db, clock, opt.deep ? SIZE_MAX / 2 : opt.sample_rows);
  report->rows += u.keys.size();
  for (const auto& [rule, ids] : u.rules) {
    const size_t n = u.counts.at(rule);
    report->findings.push_back({false, f.config().template_file,
                                "[feed " + name + "]: " + std::to_string(n) + " of " + std::to_string(u.keys.size()) +
                                    " rows read break " + rule + " and are left out (" + Keys(ids, n) + ")",
                                "fix those rows in the board, or map the field so that they pass"});
  }
  if (u.repeats) {
    report->findings.push_back({true, f.config().query_file,
                                "[feed " + name + "]: " + std::to_string(u.repeats) +
                                    " rows repeat the keyset of the row before (" + Fields(f) + " = " +
                                    Keys(u.repeated, u.repeats) +
                                    "): a join repeats rows (one row per language, a category listed twice)",
                                "make the query return one row per item (join a subquery that picks one row, or "
                                "GROUP BY the item): the keyset must be unique"});
  }
  if (u.backs) {
    report->findings.push_back({true, f.config().query_file,
                                "[feed " + name + "]: " + std::to_string(u.backs) + " rows come before the row before (" +
                                    Fields(f) + " = " + Keys(u.backwards, u.backs) + ")",
                                "ORDER BY the keyset fields (" + Fields(f) + "), in that order"});
  }
  if (!opt.deep || u.repeats || u.backs) return;

  // The walk a robot makes, with many chunk edges, against the one read.
  std::vector<std::string> paged = ReadPaged(f, db, clock, opt.deep_fetch, &report->findings);
  std::set<std::string> got(paged.begin(), paged.end());
  std::vector<std::string> lost;
  size_t lost_count = 0;
  for (const std::string& k : u.keys) {
    if (!got.count(k)) {
      ++lost_count;
      if (lost.size() < kKeysShown) lost.push_back(k);
    }
  }
  if (lost_count) {
    report->findings.push_back(
        {true, f.config().query_file,
         "[feed " + name + "]: walked " + std::to_string(opt.deep_fetch) + " rows a chunk, " +
             std::to_string(lost_count) + " of " + std::to_string(u.keys.size()) + " rows are never sent (" +
             Fields(f) + " = " + Keys(lost, lost_count) +
             "): rows that share the first keyset field at a chunk's edge are skipped",
         "start each chunk strictly after the last row in keyset order (" + Fields(f) +
             "): for two fields, WHERE (a > :after_a OR (a = :after_a AND b > :after_b)), as the README shows"});
  }
}

}  // namespace

std::string Finding::Line() const {
  return where + ": " + (error ? "" : "warning: ") + what + (todo.empty() ? "" : "; " + todo);
}

size_t CheckReport::errors() const {
  size_t n = 0;
  for (const Finding& f : findings) n += f.error;
  return n;
}

namespace {
std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}
}  // namespace

std::string CheckReport::Json() const {
  std::string s = "{\"feeds\": " + std::to_string(feeds) + ", \"rows\": " + std::to_string(rows) +
                  ", \"errors\": " + std::to_string(errors()) + ", \"findings\": [";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    s += std::string(i ? ", " : "") + "{\"severity\": " + (f.error ? "\"error\"" : "\"warning\"") +
         ", \"where\": " + JsonString(f.where) + ", \"what\": " + JsonString(f.what) +
         ", \"todo\": " + JsonString(f.todo) + "}";
  }
  return s + "]}";
}

CheckReport CheckFeeds(const std::vector<Feed*>& feeds, Database& db, const Clock& clock, const CheckOptions& options) {
  CheckReport report;
  for (Feed* f : feeds) {
    ++report.feeds;
    try {
      CheckOne(*f, db, clock, options, &report);
    } catch (const FeedError& e) {
      report.findings.push_back({true, "[database]", e.what(), "start the database, or fix [database] in the config"});
      break;  // the others would say the same
    }
  }
  return report;
}

}  // namespace feed
