#include "check.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>

#include "ascii.h"
#include "config.h"
#include "config_file.h"
#include "datetime.h"
#include "error.h"
#include "format_rules.h"
#include "item_state.h"
#include "output.h"
#include "renderer.h"
#include "replica_set.h"
#include "row_source.h"
#include "run_report.h"
#include "state.h"
#include "state_tables.h"
#include "xml_text.h"

namespace feed {
namespace {

constexpr size_t kIdsPerRule = 5;  // ids shown for each rule that leaves rows out
constexpr size_t kKeysShown = 5;   // keys shown for each kind of walk fault

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
  std::map<std::string, size_t> counts;                   // rule -> rows
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
    RowRejection why;
    scratch.clear();
    // An MSN item's template also writes values the engine computes: its
    // guid, as a sync renders it (dates left empty).
    const bool kept =
        f.config().lifecycle == Lifecycle::kMsn
            ? f.tmpl().RenderRow(scratch, rows, {f.config().guid_prefix + std::to_string(pos[0]), "", ""}, &why)
            : f.tmpl().RenderRow(scratch, rows, reader->ChildrenOf(pos), &why, nullptr);
    if (!kept) {
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
    findings->push_back(FindingOf(e, f.config().query_file,
                                  "order the rows by the keyset (" + Fields(f) + ") and start each chunk after it"));
  }
  return out;
}

// How findings name a feed: its section, and which walk for query_full's.
std::string Label(const FeedConfig& c) { return "[feed " + c.name + "]" + (c.full_walk ? " query_full" : ""); }

// Each result column of the feed's queries whose character set holds
// characters the connection's lacks (they would arrive as '?').
void CheckCharsets(Feed& f, Database& db, CheckReport* report) {
  const FeedConfig& c = f.config();
  std::vector<const SqlQuery*> queries = {&f.query()};
  for (const SqlQuery& q : f.child_queries()) queries.push_back(&q);
  const std::string setting = c.db_charset.empty() ? "set charset = utf8mb4 in [database]"
                                                   : "set db_charset = utf8mb4 in [feed " + c.name + "]";
  for (const SqlQuery* q : queries) {
    const std::string connection = q->charset.empty() ? db.config().charset : q->charset;
    for (const SourceColumn& col : db.SourceColumns(*q)) {
      if (col.charset.empty() || ConnectionHolds(connection, col.charset)) continue;
      const int line = q->LineOfWord(col.name, "as") ? q->LineOfWord(col.name, "as") : q->LineOfWord(col.name);
      report->findings.push_back(
          {true, q->file + (line ? ":" + std::to_string(line) : ""),
           Label(c) + ": column " + col.name + (col.origin.empty() ? "" : " (" + col.origin + ")") + " is " +
               col.charset + " but the connection is " + connection + ": characters " + connection +
               " lacks would arrive as '?'",
           setting + ": a utf8mb4 connection carries every character (the feed's encoding stays as it is)"});
    }
  }
}

// Renders the first `n` rows of `f` as one document (a part of a set, a
// page of a feed) into `out`.
RenderReport RenderFirst(Feed& f, Database& db, const Clock& clock, size_t n, Sink& out) {
  const std::string now = Now(f, clock);
  std::unique_ptr<ChunkReader> reader = f.Reader(db, f.RunParams("", now), /*stream=*/false);
  KeysetRows rows(*reader, f.keyset(), f.keyset().First(""), std::nullopt, std::max<size_t>(n, 1));
  DocumentRenderer renderer(f.tmpl(), rows, Limits{n, 0}, f.lastmod_column());
  DocumentValues doc;
  doc.name = f.config().name;
  doc.date = doc.updated = now;
  return renderer.Segment(out, doc, [&](const RenderReport& r, DocumentValues* d) {
    if (r.more && !f.config().continue_param.empty()) {
      d->more = true;
      d->continue_token = "sample-token";  // the real one is opaque text of this form
    }
  });
}

// The line of `template_file` where <element first opens; 0 when it does not.
int TemplateLine(const std::string& template_file, const std::string& element) {
  if (element.empty()) return 0;
  std::string text;
  try {
    text = ReadSiteFile(template_file);
  } catch (const FeedError&) {
    return 0;
  }
  for (size_t at = text.find("<" + element); at != std::string::npos; at = text.find("<" + element, at + 1)) {
    const size_t end = at + 1 + element.size();
    if (end < text.size() && (text[end] == '>' || text[end] == ' ' || text[end] == '/' || text[end] == '\n')) {
      return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    }
  }
  return 0;
}

// What to do about a fault of a sample, by what it is about.
std::string SampleTodo(const FormatFault& fault, bool text_sitemap, const std::string& feed) {
  static const std::map<std::string, std::string> sitemap = {
      {"loc",
       "write an absolute http(s) URL of 12 to 2,048 characters in <loc> ({loc|url}, and feed:require=\"loc:url\" "
       "leaves out a row without one)"},
      {"lastmod",
       "write <lastmod> as a W3C date, YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm ({lastmod|rfc3339} of a "
       "DATETIME column)"},
      {"changefreq", "write one of always, hourly, daily, weekly, monthly, yearly or never in <changefreq>"},
      {"priority", "write a number from 0.0 to 1.0 in <priority>"},
  };
  if (text_sitemap) {
    return "write one absolute http(s) URL per line and nothing else ({loc|url}, and feed:require=\"loc:url\" leaves "
           "out a row without one)";
  }
  if (fault.what.find("sitemaps.org") != std::string::npos) {
    auto it = sitemap.find(fault.element);
    return it != sitemap.end() ? it->second
                               : "write only what the sitemaps.org protocol allows: <url> with <loc> and optionally "
                                 "<lastmod>, <changefreq>, <priority>, in that order";
  }
  if (fault.what.find("declaration") != std::string::npos || fault.what.find(" are not ") != std::string::npos) {
    return "leave the XML declaration to the engine (it names the feed's encoding) and set encoding in [feed " + feed +
           "] to what the format wants";
  }
  return "fix the template: one root element around the feed:each element, every namespace prefix declared";
}

// Checks `doc` (a sample of `f`, or the index of a set: `f` null) against
// its format's rules; a finding per fault, at the template's line of the
// element when there is one.
void CheckDocument(const std::string& doc, const std::string& encoding, bool text_sitemap, const std::string& label,
                   const std::string& name, const std::string& template_file, size_t rows, CheckReport* report) {
  const std::vector<FormatFault> faults = text_sitemap ? CheckTextSitemap(doc) : CheckXmlDocument(doc, encoding);
  for (const FormatFault& fault : faults) {
    const int line = TemplateLine(template_file, fault.element);
    report->findings.push_back({true, template_file + (line ? ":" + std::to_string(line) : ""),
                                label + ": its sample (" + std::to_string(rows) + " rows rendered) " +
                                    (text_sitemap ? "breaks the text sitemap rules: " : "breaks its format's rules: ") +
                                    fault.what +
                                    (fault.line ? " (line " + std::to_string(fault.line) + " of the sample)" : ""),
                                SampleTodo(fault, text_sitemap, name)});
  }
}

// What a feed's sample needs to know about the feed's place in the config.
struct SampleRole {
  MsnFeed* msn = nullptr;     // an MSN feed: rendered its own way
  bool set_section = false;   // a part of a set: an empty one is never served
  bool text_sitemap = false;  // a part of a text set
  std::string newest;         // out: the sample's newest lastmod (for the index)
  size_t rows = 0;            // out: rows written
};

void CheckSample(Feed& f, Database& db, const Clock& clock, const CheckOptions& opt, SampleRole* role,
                 CheckReport* report) {
  StringSink out;
  const RenderReport r = role->msn ? role->msn->RenderSample(db, clock, opt.sample_render, out)
                                   : RenderFirst(f, db, clock, opt.sample_render, out);
  role->rows = r.rows;
  role->newest = r.newest;
  if (role->set_section && r.rows == 0) return;  // a set does not serve an empty part
  CheckDocument(out.data, CharsetName(f.tmpl().charset()), role->text_sitemap, Label(f.config()), f.config().name,
                f.config().template_file, r.rows, report);
}

void CheckOne(Feed& f, Database& db, const Clock& clock, const CheckOptions& opt, SampleRole* role,
              CheckReport* report) {
  const std::string& name = f.config().name;
  try {
    f.Bind(db);
    CheckCharsets(f, db, report);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    report->findings.push_back(FindingOf(e, f.config().query_file, "fix the mapping of " + Label(f.config())));
    return;
  }
  // The query for real: rows, and what the template's rules leave out.
  const Unpaged u = ReadUnpaged(f, db, clock, opt.deep ? SIZE_MAX / 2 : opt.sample_rows);
  report->rows += u.keys.size();
  for (const auto& [rule, ids] : u.rules) {
    const size_t n = u.counts.at(rule);
    report->findings.push_back({false, f.config().template_file,
                                Label(f.config()) + ": " + std::to_string(n) + " of " + std::to_string(u.keys.size()) +
                                    " rows read break " + rule + " and are left out (" + Keys(ids, n) + ")",
                                "fix those rows in the board, or map the field so that they pass"});
  }
  if (u.repeats) {
    report->findings.push_back({true, f.config().query_file,
                                Label(f.config()) + ": " + std::to_string(u.repeats) +
                                    " rows repeat the keyset of the row before (" + Fields(f) + " = " +
                                    Keys(u.repeated, u.repeats) +
                                    "): a join repeats rows (one row per language, a category listed twice)",
                                "make the query return one row per item (join a subquery that picks one row, or "
                                "GROUP BY the item): the keyset must be unique"});
  }
  if (u.backs) {
    report->findings.push_back({true, f.config().query_file,
                                Label(f.config()) + ": " + std::to_string(u.backs) +
                                    " rows come before the row before (" + Fields(f) + " = " +
                                    Keys(u.backwards, u.backs) + ")",
                                "ORDER BY the keyset fields (" + Fields(f) + "), in that order"});
  }
  if (u.repeats || u.backs) return;
  try {
    CheckSample(f, db, clock, opt, role, report);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    report->findings.push_back(FindingOf(e, f.config().template_file, "fix the mapping of " + Label(f.config())));
  }
  if (!opt.deep) return;

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
             "): for two fields, WHERE (a > :after_a OR (a = :after_a AND b > :after_b)), as docs/mapping.md shows"});
  }
}

}  // namespace

Finding FindingOf(const FeedError& e, const std::string& fallback_where, std::string todo) {
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

std::string CheckedReplica::Line() const {
  return "[database replica " + name + "]: " + (replicating ? "replicating" : "not replicating") +
         (behind ? ", " + std::to_string(*behind) + " s behind the primary" : "");
}

void CheckReplicas(const std::vector<ReplicaConfig>& replicas, int replica_wait, CheckReport* report) {
  const SqlQuery current_user = ParseSqlQuery("SELECT CURRENT_USER()", "(check)");
  for (const ReplicaConfig& r : replicas) {
    const std::string where = "[database replica " + r.name + "]";
    Database db(r.database);
    ReplicationStatus st;
    try {
      st = ReadReplicationStatus(db);
    } catch (const FeedError& e) {
      if (e.kind() == ErrorKind::kUnavailable) {
        report->findings.push_back({true, where, std::string("cannot be reached: ") + e.what(),
                                    "start it, or fix its host, port or socket in " + where});
        continue;
      }
      // SHOW SLAVE STATUS refused: the privilege is missing (SLAVE MONITOR,
      // or its alias REPLICA MONITOR, or SUPER). The user as the server
      // matched it, so that the GRANT is the one to run.
      std::string user = "'" + r.database.user + "'@'...'";
      try {
        Rows u = db.Run(current_user, {});
        if (u.Next()) {
          const std::string cu(u.Get(0));
          const size_t at = cu.rfind('@');
          if (at != std::string::npos) user = "'" + cu.substr(0, at) + "'@'" + cu.substr(at + 1) + "'";
        }
      } catch (const FeedError&) {
      }
      report->findings.push_back(
          {true, where,
           "the feed user may not run SHOW SLAVE STATUS, which the health check needs (" + std::string(e.what()) + ")",
           "run on the primary (it replicates to the replicas): GRANT SLAVE MONITOR ON *.* TO " + user});
      continue;
    }
    CheckedReplica checked{r.name, st.replicating(), st.behind};
    report->replicas.push_back(checked);
    if (!st.replica) {
      report->findings.push_back({true, where, "is not a replica (SHOW SLAVE STATUS is empty)",
                                  "set it up: CHANGE MASTER TO MASTER_HOST = ..., MASTER_USE_GTID = slave_pos; START "
                                  "SLAVE (see docs/replicas.md), or remove " +
                                      where});
      continue;
    }
    if (!st.replicating()) {
      report->findings.push_back(
          {true, where,
           "does not replicate: Slave_IO_Running " + st.io + ", Slave_SQL_Running " + st.sql +
               (st.io_error.empty() ? "" : "; " + st.io_error) + (st.sql_error.empty() ? "" : "; " + st.sql_error),
           "fix what the error says and START SLAVE on it; meanwhile pages are read from the other servers"});
    }
    if (st.using_gtid.empty() || EqualsNoCase(st.using_gtid, "No")) {
      report->findings.push_back({true, where,
                                  "replicates without GTID (Using_Gtid " +
                                      (st.using_gtid.empty() ? std::string("not shown") : st.using_gtid) +
                                      "): the program's replication positions are GTIDs",
                                  "STOP SLAVE; CHANGE MASTER TO MASTER_USE_GTID = slave_pos; START SLAVE"});
    }
    if (st.replicating() && st.behind && *st.behind > replica_wait) {
      report->findings.push_back({false, where,
                                  "is " + std::to_string(*st.behind) +
                                      " s behind the primary: a later page waits at "
                                      "most replica_wait = " +
                                      std::to_string(replica_wait) + " s for it and is read from another server",
                                  "look at its load and its replication"});
    }
  }
}

void CheckStateTables(Database& db, bool status_page, CheckReport* report) {
  const std::string where = "[database] user";
  try {
    for (const StateTable& t : StateTables()) {
      if (t.status_page && !status_page) continue;
      const StateGap gap = GapOf(db, t);
      if (gap.missing) {
        std::string todo = "run `feed.fcgi install` (or apply sql/state.sql as an administrator)";
        if (std::optional<Database::Refusal> r = db.Refuses(t.CreateStatement())) {
          if (std::optional<std::string> p = DeniedPrivilege(*r)) {
            todo = "run as an administrator: " + GrantFor(db, {"CREATE", "ALTER", "INDEX"}) +
                   ", then `feed.fcgi install`; or apply sql/state.sql as one";
          }
        }
        // The status page's own table is named in its section, as before.
        report->findings.push_back({true, t.status_page ? "[status]" : where, "the table " + t.name + " is missing", todo});
        continue;
      }
      // The program works with a table of an older layout, with less
      // (app.cpp's warnings say what): a warning.
      if (!gap.empty()) {
        report->findings.push_back({false, where, t.name + " is of an older layout: it lacks " + gap.Missing(),
                                    "run `feed.fcgi install` (it adds them; it needs ALTER and INDEX)"});
      }
      // One statement of each kind the program runs on the table, prepared.
      const std::string& c = t.columns[0].name;
      std::vector<std::string> lacking;
      for (const std::string& p : t.privileges) {
        const std::string probe = p == "SELECT"   ? "SELECT " + c + " FROM " + t.name
                                  : p == "INSERT" ? "INSERT INTO " + t.name + " (" + c + ") VALUES (?)"
                                  : p == "UPDATE" ? "UPDATE " + t.name + " SET " + c + " = ? WHERE FALSE"
                                                  : "DELETE FROM " + t.name + " WHERE FALSE";
        std::optional<Database::Refusal> r = db.Refuses(probe);
        if (r && DeniedPrivilege(*r)) lacking.push_back(p);
      }
      if (lacking.empty()) continue;
      std::string list;
      for (const std::string& p : lacking) list += (list.empty() ? "" : ", ") + p;
      report->findings.push_back({true, where, "the account lacks " + list + " on " + t.name +
                                                   (t.status_page ? " (the status page's run reports)" : ""),
                                  "run as an administrator: " + GrantFor(db, lacking)});
    }
  } catch (const FeedError& e) {
    report->findings.push_back({true, "[database]", e.what(), "start the database, or fix [database] in the config"});
  }
}

std::string Finding::Line() const {
  return where + ": " + (error ? "" : "warning: ") + what + (todo.empty() ? "" : "; " + todo);
}

size_t CheckReport::errors() const {
  size_t n = 0;
  for (const Finding& f : findings) n += f.error;
  return n;
}

std::string CheckReport::Json() const {
  std::string s = "{\"feeds\": " + std::to_string(feeds) + ", \"rows\": " + std::to_string(rows) +
                  ", \"errors\": " + std::to_string(errors()) + ", \"findings\": [";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    s += std::string(i ? ", " : "") + "{\"severity\": " + (f.error ? "\"error\"" : "\"warning\"") +
         ", \"where\": " + JsonString(f.where) + ", \"what\": " + JsonString(f.what) +
         ", \"todo\": " + JsonString(f.todo) + "}";
  }
  s += "], \"replicas\": [";
  for (size_t i = 0; i < replicas.size(); ++i) {
    const CheckedReplica& r = replicas[i];
    s += std::string(i ? ", " : "") + "{\"name\": " + JsonString(r.name) +
         ", \"replicating\": " + (r.replicating ? "true" : "false") +
         ", \"seconds_behind\": " + (r.behind ? std::to_string(*r.behind) : "null") + "}";
  }
  return s + "]}";
}

bool ConnectionHolds(std::string_view connection, std::string_view column) {
  auto is = [](std::string_view cs, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names) {
      if (EqualsNoCase(cs, n)) return true;
    }
    return false;
  };
  if (EqualsNoCase(connection, column) || is(column, {"binary", "ascii"})) return true;
  if (is(connection, {"utf8mb4", "utf16", "utf16le", "utf32"})) return true;  // every character
  if (is(connection, {"utf8", "utf8mb3", "ucs2"})) {
    // The Basic Multilingual Plane: all but 4-byte characters (emoji, rare CJK).
    return !is(column, {"utf8mb4", "utf16", "utf16le", "utf32"});
  }
  return false;  // a single-byte set holds only itself (and ASCII)
}

CheckReport CheckFeeds(const CheckTargets& targets, Database& db, const Clock& clock, const CheckOptions& options) {
  CheckReport report;
  std::map<const Feed*, SampleRole> roles;
  for (MsnFeed* m : targets.msn) roles[&m->feed()].msn = m;
  for (DocumentSet* s : targets.sets) {
    for (Feed* f : targets.feeds) {
      for (const std::string& section : s->config().sections) {
        if (f->config().name != section) continue;
        roles[f].set_section = true;
        roles[f].text_sitemap = s->config().format == Format::kText;
      }
    }
  }
  try {
    for (Feed* f : targets.feeds) {
      ++report.feeds;
      const size_t errors = report.errors();
      CheckOne(*f, db, clock, options, &roles[f], &report);
      if (report.errors() != errors) roles[f].rows = 0;  // no index entry for a broken section
    }
    // Each XML set's index, listing the first part of each section that has
    // rows (as the live index lists only parts that have).
    for (DocumentSet* s : targets.sets) {
      if (s->config().format != Format::kXml) continue;
      std::vector<std::pair<std::string, std::string>> parts;
      for (Feed* f : targets.feeds) {
        const SampleRole& role = roles[f];
        for (const std::string& section : s->config().sections) {
          if (f->config().name == section && role.rows > 0) parts.emplace_back(s->PartName(section, 1), role.newest);
        }
      }
      if (parts.empty()) continue;
      StringSink out;
      s->RenderIndex(parts, out);
      CheckDocument(out.data, "UTF-8", false, "[set " + s->config().name + "] index", s->config().name,
                    s->config().template_file, parts.size(), &report);
    }
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) {
      report.findings.push_back({true, "[database]", e.what(), "start the database, or fix [database] in the config"});
    } else {
      report.findings.push_back(FindingOf(e, "[config]", "fix the mapping"));
    }
  }
  return report;
}

namespace {

// What the program cannot see from here: the web server's side.
void CheckServerSide(const Config& config, const std::string& spool_path, CheckReport* report) {
  if (config.server.hand_off == HandOff::kXSendfile) {
    report->findings.push_back(
        {false, "[server] hand_off",
         "hand_off = x-sendfile names every body over spool_memory to the web server in an X-Sendfile header "
         "instead of sending it: that needs Apache's mod_xsendfile (XSendFile On, XSendFilePath covering spool_dir " +
             spool_path +
             "; nginx takes X-Accel-Redirect, not X-Sendfile); without it every large feed is a 200 with an empty body",
         "keep hand_off = none unless the web server is set up so (a server you manage as root)"});
  }
  if (const int bound = RequestWaitBound(config); bound >= kWebServerTimeout) {
    report->findings.push_back(
        {false, "[database]",
         "a request may wait " + std::to_string(bound) +
             " s on the database (2 x (connect_timeout + read_timeout), plus " +
             std::to_string(RequestLockWait(config.database)) +
             " s for a lock, plus each replica's 2 x (connect_timeout + read_timeout)): mod_fcgid's FcgidIOTimeout "
             "(" +
             std::to_string(kWebServerTimeout) + " s by default) answers 500 first",
         "lower connect_timeout and read_timeout (the defaults: 3 and 10), or raise FcgidIOTimeout if you can"});
  }
}

// What serving needs beyond the mappings (the robots' visits table, a
// set's part plans, the run reports).
void CheckServingTables(const ProgramCheck& p, CheckReport* report) {
  Database& primary = p.servers->primary();
  try {
    p.bind_all();
    // Tables of a version before replicas keep working, but without a
    // stored position every part and sync reads the primary.
    if (p.servers->has_replicas() && !p.targets.sets.empty() && !StateStore(primary).PlansHavePosition()) {
      report->findings.push_back({false, "[database]",
                                  "feed_part_plan has no column position (a table of an older version): every "
                                  "sitemap part is read from the primary, none from a replica",
                                  "apply sql/state.sql (it adds the column)"});
    }
    if (p.servers->has_replicas() && !p.targets.msn.empty() &&
        !ItemStateStore(primary, p.targets.msn[0]->feed().config().name).SyncsHavePosition()) {
      report->findings.push_back({false, "[database]",
                                  "feed_item_sync has no column position (a table of an older version): every MSN "
                                  "sync after the first reads the board from the primary",
                                  "apply sql/state.sql (it adds the column)"});
    }
  } catch (const FeedError& e) {
    report->findings.push_back({true, "[database]", e.what(), "apply sql/state.sql and the grants in docs/deploy.md"});
  }
  if (!p.status_page) return;
  try {
    RunReportStore(primary).Check();
  } catch (const FeedError& e) {
    report->findings.push_back(
        {true, "[status]", e.what(), "apply sql/state.sql and GRANT SELECT, INSERT, DELETE ON feed_run_report"});
  }
}

// host = localhost reaches the socket where libmariadb was built to look;
// RHEL-family hosts keep theirs elsewhere. A finding that says where, when
// the database could not be reached that way.
void AddSocketHint(const DatabaseConfig& db, CheckReport* report) {
  const bool unreachable = std::any_of(report->findings.begin(), report->findings.end(),
                                       [](const Finding& f) { return f.error && f.where == "[database]"; });
  if (!unreachable || db.host != "localhost" || !db.socket.empty()) return;
  const std::string s = FindMysqlSocket(kMysqlSockets);
  if (s.empty() || s == kMysqlSockets[0]) return;
  report->findings.push_back({true, "[database] host",
                              "the database's socket on this host is " + s + ", not " + kMysqlSockets[0] +
                                  " where the client looks",
                              "add socket = " + s + " to [database]"});
}

}  // namespace

CheckReport CheckProgram(const ProgramCheck& p, const Clock& clock, const CheckOptions& options) {
  CheckReport report;
  CheckServerSide(*p.config, p.spool_path, &report);
  try {
    // An MSN feed's template binds the engine's fields too: bound its way
    // first (Feed::Bind then has nothing left to do).
    for (MsnFeed* m : p.targets.msn) m->Bind(p.servers->primary());
  } catch (const FeedError& e) {
    report.findings.push_back({true, "[feed msn]", e.what(), "fix the MSN feed's mapping"});
  }
  // The replicas first: a page may be read from any of them.
  CheckReplicas(p.config->replicas, p.config->database.replica_wait, &report);
  CheckReport feeds = CheckFeeds(p.targets, p.servers->primary(), clock, options);
  report.feeds = feeds.feeds;
  report.rows = feeds.rows;
  report.findings.insert(report.findings.end(), feeds.findings.begin(), feeds.findings.end());
  // The program's own tables, and what the account may do with them.
  if (report.errors() == 0) CheckStateTables(p.servers->primary(), p.status_page, &report);
  if (report.errors() == 0) CheckServingTables(p, &report);
  AddSocketHint(p.config->database, &report);
  try {
    p.check_spool();
  } catch (const FeedError& e) {
    report.findings.push_back({true, "[server] spool_dir", e.what(), "make the folder writable by the web user"});
  }
  return report;
}

}  // namespace feed
