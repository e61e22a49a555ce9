#include "status.h"

#include "ascii.h"
#include "error.h"
#include "sql_query.h"
#include "status_access.h"
#include "xml_text.h"

#ifndef FEED_VERSION
#define FEED_VERSION "unknown"
#endif

namespace feed {
namespace {

SqlQuery Ping() { return ParseSqlQuery("SELECT 1", "the status page"); }

// Text for HTML content and quoted attribute values: & < > " ' escaped,
// invalid UTF-8 and characters XML forbids dropped.
std::string Html(std::string_view text) {
  std::string out;
  for (char c : CleanUtf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string N(int64_t n) { return std::to_string(n); }

// "42 s", "3 min", "5 h", "2 d".
std::string Span(int64_t s) {
  if (s < 0) s = 0;
  if (s < 120) return N(s) + " s";
  if (s < 7200) return N(s / 60) + " min";
  if (s < 172800) return N(s / 3600) + " h";
  return N(s / 86400) + " d";
}

std::string SiteTime(UnixTime t, const TimeZone& zone) { return FormatSqlDateTime(zone.FromUnix(t)); }

const char kStyle[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f;background:#fff;"
    "margin:0 auto;max-width:75rem;padding:.75rem}"
    "h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.4rem 0 .4rem}"
    "h3{font-size:1rem;margin:1rem 0 .3rem}"
    ".meta{color:#555;margin:.2rem 0;overflow-wrap:anywhere}"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;border:1px solid #ddd;border-radius:4px}"
    "table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}"
    "th,td{padding:.35rem .55rem;border-bottom:1px solid #e5e5e5;text-align:left;vertical-align:top;"
    "white-space:nowrap}"
    "thead th{background:#f4f4f5;font-weight:600}"
    "td.n{text-align:right}td.reasons{white-space:normal;min-width:14rem;font-size:.9em;color:#444}"
    "small{color:#666}.ok{color:#0a6b2f}.bad{color:#b00020;font-weight:600}.none{color:#888}"
    "code{overflow-wrap:anywhere}"
    "@media (max-width:40rem){body{font-size:14px;padding:.5rem}th,td{padding:.3rem .4rem}}";

void HtmlResponseRow(std::string& h, const RunReport& r, const TimeZone& zone, UnixTime now, bool with_reasons) {
  const bool bad = r.status >= 400;
  h += "<td class=\"at\">" + Html(SiteTime(r.at, zone)) + "<br/><small>" + Span(now - r.at) + " ago</small></td>";
  h += "<td class=\"to\"><span class=\"robot\">" + (r.robot.empty() ? std::string("not a robot") : Html(r.robot)) +
       "</span><br/><small class=\"client\">" + Html(r.client) + "</small></td>";
  h += std::string("<td class=\"status n") + (bad ? " bad" : "") + "\">" + N(r.status) + "</td>";
  if (r.method != "GET") h.insert(h.size() - 5, " <small class=\"method\">" + Html(r.method) + "</small>");
  h += "<td class=\"rows n\">" + N(r.rows) + "</td>";
  h += "<td class=\"bytes n\">" + N(r.bytes) + "</td>";
  h += "<td class=\"millis n\">" + N(r.millis) + "</td>";
  h += "<td class=\"left-out n\">" + N(r.left_out) + "</td>";
  if (with_reasons) {
    h += "<td class=\"reasons\">";
    for (size_t i = 0; i < r.reasons.size(); ++i) h += (i ? "<br/>" : "") + Html(r.reasons[i]);
    if (r.left_out > static_cast<int64_t>(r.reasons.size())) {
      h += std::string(r.reasons.empty() ? "" : "<br/>") + "<small>(" +
           N(r.left_out - static_cast<int64_t>(r.reasons.size())) + " more)</small>";
    }
    h += "</td>";
  }
}

}  // namespace

const char* ProgramVersion() { return FEED_VERSION; }

std::string StatusHtml(const StatusSnapshot& s, const TimeZone& zone) {
  std::string h;
  h.reserve(16384);
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
       "<meta name=\"robots\" content=\"noindex, nofollow\"/>"
       "<title>feed.fcgi status</title><style>";
  h += kStyle;
  h += "</style></head>\n<body>\n<h1>feed.fcgi status</h1>\n";
  h += "<p class=\"meta\">version <span id=\"version\">" + Html(s.version) + "</span> · config <code id=\"config\">" +
       Html(s.config_file) + "</code><br/>as of <span id=\"generated\">" + Html(SiteTime(s.now, zone)) + "</span> (" +
       Html(s.time_zone) + ")</p>\n";

  h += "<section id=\"database\"><h2>Database</h2>\n";
  if (s.db_reachable) {
    h += "<p class=\"ok\" id=\"db-reachable\">reachable</p>";
  } else {
    h += "<p class=\"bad\" id=\"db-reachable\">unreachable: " + Html(s.db_error) + "</p>";
  }
  h += "<p id=\"db-connection\">";
  h += s.connection_age ? "connection open for " + Span(*s.connection_age) + " (" + N(*s.connection_age) + " s)"
                        : std::string("no connection open");
  h += "</p>\n";
  if (s.writes.failed > 0) {
    h += "<p class=\"bad\" id=\"failed-writes\">" + N(s.writes.failed) + " writes the primary did not take, the last " +
         Html(SiteTime(s.writes.last_failed, zone)) + ": " + Html(s.writes.last_error) + "</p>\n";
  }
  if (s.servers.size() > 1) {
    h += "<div class=\"scroll\"><table id=\"server-table\"><thead><tr><th>server</th><th>health</th>"
         "<th>checked</th><th>passed over</th><th>why</th></tr></thead><tbody>\n";
    for (const ServerStatus& v : s.servers) {
      const char* health = ServerHealthName(v.health);
      h += "<tr class=\"server\" data-server=\"" + Html(v.name) + "\" data-health=\"" + Html(health) + "\"><td>" +
           Html(v.name) + "</td><td class=\"" + (v.health == ServerHealth::kHealthy ? "ok" : "bad") + "\">" +
           Html(health) + "</td><td>" + (v.checked ? Html(SiteTime(v.checked, zone)) : std::string("—")) +
           "</td><td class=\"n\">" + N(v.passed_over) + "</td><td>" + Html(v.error) + "</td></tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  if (!s.reports_error.empty()) h += "<p class=\"bad\" id=\"reports-error\">" + Html(s.reports_error) + "</p>\n";
  h += "</section>\n";

  h += "<section id=\"feeds\"><h2>Feeds: the last response</h2>\n<div class=\"scroll\"><table id=\"feed-table\">"
       "<thead><tr><th>feed</th><th>when</th><th>to</th><th>status</th><th>rows</th><th>bytes</th><th>ms</th>"
       "<th>left out</th></tr></thead>\n<tbody>\n";
  for (const StatusFeed& f : s.feeds) {
    h += "<tr class=\"feed\" data-feed=\"" + Html(f.name) + "\"><th scope=\"row\"><a href=\"#feed-" + Html(f.name) +
         "\">" + Html(f.name) + "</a><br/><small>" + Html(f.path) + "</small></th>";
    if (f.responses.empty()) {
      h += "<td class=\"none\" colspan=\"7\">no response recorded</td>";
    } else {
      HtmlResponseRow(h, f.responses.front(), zone, s.now, false);
    }
    h += "</tr>\n";
  }
  h += "</tbody></table></div>\n</section>\n";

  h += "<section id=\"responses\"><h2>Feeds: recent responses</h2>\n";
  for (const StatusFeed& f : s.feeds) {
    h += "<h3 id=\"feed-" + Html(f.name) + "\">" + Html(f.name) + " <small>" + Html(f.path) + "</small></h3>\n";
    if (f.responses.empty()) {
      h += "<p class=\"none\">no response recorded</p>\n";
      continue;
    }
    h += "<div class=\"scroll\"><table class=\"responses\" data-feed=\"" + Html(f.name) +
         "\"><thead><tr><th>when</th><th>to</th><th>status</th><th>rows</th><th>bytes</th><th>ms</th>"
         "<th>left out</th><th>why left out</th></tr></thead><tbody>\n";
    for (const RunReport& r : f.responses) {
      h += "<tr class=\"response\">";
      HtmlResponseRow(h, r, zone, s.now, true);
      h += "</tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  h += "</section>\n";

  h += "<section id=\"robots\"><h2>Robots: the last whole visit</h2>\n";
  if (s.visits.empty()) {
    h += "<p class=\"none\">no robot visit recorded</p>\n";
  } else {
    h += "<div class=\"scroll\"><table id=\"robot-table\"><thead><tr><th>robot</th><th>feed</th>"
         "<th>last visit</th><th>the one before</th><th>recorded</th></tr></thead><tbody>\n";
    for (const RobotVisit& v : s.visits) {
      h += "<tr class=\"visit\" data-robot=\"" + Html(v.robot) + "\" data-feed=\"" + Html(v.feed) + "\"><td>" +
           Html(v.robot) + "</td><td>" + Html(v.feed) + "</td><td class=\"last\">" + Html(v.last) + "</td><td>" +
           (v.previous.empty() ? std::string("—") : Html(v.previous)) + "</td><td>" + Html(v.recorded) + "</td></tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  h += "</section>\n<p class=\"meta\"><small>The same as JSON: this address with ?format=json, or "
       "Accept: application/json.</small></p>\n</body></html>\n";
  return h;
}

std::string StatusJson(const StatusSnapshot& s) {
  std::string j = "{\"program\": \"feed.fcgi\", \"version\": " + JsonString(s.version) +
                  ", \"config\": " + JsonString(s.config_file) + ", \"time_zone\": " + JsonString(s.time_zone) +
                  ", \"generated\": " + N(s.now) + ", \"generated_utc\": " + JsonString(FormatRfc3339Utc(s.now)) +
                  ",\n \"database\": {\"reachable\": " + (s.db_reachable ? "true" : "false") +
                  ", \"error\": " + JsonString(s.db_error) +
                  ", \"connection_age_seconds\": " + (s.connection_age ? N(*s.connection_age) : "null") +
                  "},\n \"servers\": [";
  for (size_t i = 0; i < s.servers.size(); ++i) {
    const ServerStatus& v = s.servers[i];
    j += std::string(i ? ", " : "") + "{\"name\": " + JsonString(v.name) + ", \"health\": " + JsonString(ServerHealthName(v.health)) +
         ", \"error\": " + JsonString(v.error) + ", \"checked\": " + N(v.checked) + ", \"passed_over\": " + N(v.passed_over) +
         "}";
  }
  j += "],\n \"failed_writes\": {\"count\": " + N(s.writes.failed) + ", \"last_error\": " + JsonString(s.writes.last_error) +
       ", \"last\": " + N(s.writes.last_failed) + "},\n \"reports_error\": " + JsonString(s.reports_error) +
       ",\n \"feeds\": [";
  for (size_t i = 0; i < s.feeds.size(); ++i) {
    const StatusFeed& f = s.feeds[i];
    j += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + JsonString(f.name) + ", \"path\": " + JsonString(f.path) +
         ", \"responses\": [";
    for (size_t k = 0; k < f.responses.size(); ++k) {
      const RunReport& r = f.responses[k];
      j += std::string(k ? ",\n    " : "\n    ") + "{\"at\": " + N(r.at) +
           ", \"at_utc\": " + JsonString(FormatRfc3339Utc(r.at)) + ", \"robot\": " + JsonString(r.robot) +
           ", \"client\": " + JsonString(r.client) + ", \"method\": " + JsonString(r.method) + ", \"status\": " + N(r.status) +
           ", \"rows\": " + N(r.rows) + ", \"bytes\": " + N(r.bytes) + ", \"millis\": " + N(r.millis) +
           ", \"left_out\": " + N(r.left_out) + ", \"reasons\": [";
      for (size_t m = 0; m < r.reasons.size(); ++m) j += (m ? ", " : "") + JsonString(r.reasons[m]);
      j += "]}";
    }
    j += "]}";
  }
  j += "],\n \"robot_visits\": [";
  for (size_t i = 0; i < s.visits.size(); ++i) {
    const RobotVisit& v = s.visits[i];
    j += std::string(i ? ",\n  " : "\n  ") + "{\"robot\": " + JsonString(v.robot) + ", \"feed\": " + JsonString(v.feed) +
         ", \"last_visit\": " + JsonString(v.last) + ", \"previous_visit\": " + JsonString(v.previous) +
         ", \"recorded\": " + JsonString(v.recorded) + "}";
  }
  return j + "]}\n";
}

bool WantsJson(const Request& req, const QueryParams& params) {
  if (auto f = params.Get("format")) {
    if (*f == "json") return true;
    if (*f == "html") return false;
    throw BadRequest("format must be html or json");
  }
  // Accept: a comma-separated list of media ranges with parameters.
  std::string_view accept = req.accept;
  while (!accept.empty()) {
    const size_t comma = accept.find(',');
    std::string_view range = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view() : accept.substr(comma + 1);
    const size_t semi = range.find(';');
    if (!EqualsNoCase(TrimSpace(range.substr(0, semi)), "application/json")) continue;
    bool refused = false;  // q=0
    for (std::string_view rest = semi == std::string_view::npos ? "" : range.substr(semi + 1); !rest.empty();) {
      const size_t next = rest.find(';');
      std::string_view p = TrimSpace(rest.substr(0, next));
      rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
      if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
        std::string_view q = TrimSpace(p.substr(2));
        refused = !q.empty() && q.find_first_not_of("0.") == std::string_view::npos;
      }
    }
    if (!refused) return true;
  }
  return false;
}

StatusPage::StatusPage(const Config& config, std::vector<std::pair<std::string, std::string>> feeds)
    : config_(config), feeds_(std::move(feeds)) {}

StatusSnapshot StatusPage::Snapshot(Database& db, const Clock& clock, const ReplicaSet* servers) const {
  StatusSnapshot s;
  if (servers) {
    s.servers = servers->servers();
    s.writes = servers->writes();
  }
  s.version = ProgramVersion();
  s.config_file = config_.file;
  s.time_zone = config_.time_zone;
  s.now = clock.Now();
  for (const auto& [name, path] : feeds_) s.feeds.push_back({name, path, {}});
  try {
    Rows r = db.Run(Ping(), {});
    s.db_reachable = r.Next() && r.Get(0) == "1";
    if (!s.db_reachable) s.db_error = "SELECT 1 did not answer 1";
  } catch (const FeedError& e) {
    s.db_error = e.what();
  }
  // Both moments from the clock given (ReplicaSet gives its Databases the
  // App's); never below 0 (a clock stepped back).
  if (auto opened = db.opened()) s.connection_age = std::max<int64_t>(0, clock.Now() - *opened);
  if (!s.db_reachable) return s;  // each read would wait for the database in turn
  try {
    for (StatusFeed& f : s.feeds) f.responses = RunReportStore(db).Recent(f.name, config_.status.reports);
    s.visits = StateStore(db).ListVisits();
  } catch (const FeedError& e) {
    s.reports_error = std::string("cannot read the run reports (apply sql/state.sql): ") + e.what();
  }
  return s;
}

void StatusPage::Serve(const Request& req, Database& db, const Clock& clock, Response& resp,
                       const ReplicaSet* servers) const {
  std::optional<QueryParams> params;
  try {
    params = QueryParams::Parse(req.query_string);
  } catch (const FeedError&) {
    // Judged below, once the client is known to be allowed.
  }
  const std::optional<std::string> token = params ? params->Get("token") : std::nullopt;
  if (!StatusAllowed(config_.status, req, token)) {
    // Nothing says why: no body at all.
    ResponseHead h;
    h.status = 403;
    h.Add("Cache-Control", "no-store");
    resp.Start(h, false);
    resp.Finish();
    return;
  }
  if (!params) params = QueryParams::Parse(req.query_string);  // throws its 400
  const bool json = WantsJson(req, *params);
  const StatusSnapshot snap = Snapshot(db, clock, servers);
  ResponseHead h;
  h.Add("Content-Type", json ? "application/json; charset=utf-8" : "text/html; charset=utf-8");
  h.Add("Cache-Control", "no-store");
  h.Add("Vary", "Accept, Accept-Encoding, Authorization");
  // The page may be reached with ?token=: no Referer may carry it away.
  h.Add("Referrer-Policy", "no-referrer");
  h.Add("X-Frame-Options", "DENY");
  h.Add("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  resp.Start(h, AcceptsGzip(req.accept_encoding));
  resp.Write(json ? StatusJson(snap) : StatusHtml(snap, config_.zone));
  resp.Finish();
}

}  // namespace feed
