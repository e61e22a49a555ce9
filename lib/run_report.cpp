#include "run_report.h"

#include <array>
#include <cctype>
#include <cstdlib>

#include "ascii.h"
#include "error.h"
#include "sql_query.h"
#include "xml_text.h"

namespace feed {
namespace {

SqlQuery State(const char* text) { return ParseSqlQuery(text, "sql/state.sql"); }

constexpr char kInsert[] =
    "INSERT INTO feed_run_report (feed, at, robot, client, method, status, rows_sent, bytes, millis, left_out, "
    "reasons) VALUES (:feed, :at, :robot, :client, :method, :status, :rows, :bytes, :millis, :left_out, :reasons)";
// The id of the newest report past the ones kept (none: nothing to prune).
constexpr char kCutoff[] = "SELECT id FROM feed_run_report WHERE feed = :feed ORDER BY id DESC LIMIT 1 OFFSET :keep";
constexpr char kPrune[] = "DELETE FROM feed_run_report WHERE feed = :feed AND id <= :id";
constexpr char kRecent[] =
    "SELECT at, robot, client, status, rows_sent, bytes, millis, left_out, reasons, method FROM feed_run_report "
    "WHERE feed = :feed ORDER BY id DESC LIMIT :n";

// Well-known crawlers, as they spell themselves in User-Agent.
constexpr std::array<std::string_view, 16> kKnownRobots = {
    "Googlebot", "YandexBot",   "bingbot",    "Baiduspider", "JoobleBot", "msnbot",     "DuckDuckBot",
    "Applebot",  "AhrefsBot",   "SemrushBot", "PetalBot",    "MJ12bot",   "Bytespider", "facebookexternalhit",
    "Sogou",     "Yahoo! Slurp"};

bool TokenChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }

int64_t Int(std::string_view s) { return std::atoll(std::string(s).c_str()); }

// `s` cut to at most `max` bytes, not inside a UTF-8 sequence.
std::string Cut(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + "…";
}

}  // namespace

std::string RobotOf(std::string_view ua, const std::vector<std::string>& configured) {
  for (const std::string& r : configured) {
    if (!r.empty() && ContainsNoCase(ua, r)) return r;
  }
  for (std::string_view r : kKnownRobots) {
    if (ContainsNoCase(ua, r)) return std::string(r);
  }
  for (size_t i = 0; i < ua.size();) {
    if (!TokenChar(ua[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < ua.size() && TokenChar(ua[end])) ++end;
    std::string_view token = ua.substr(i, end - i);
    if (token.size() <= 32 &&
        (ContainsNoCase(token, "bot") || ContainsNoCase(token, "crawler") || ContainsNoCase(token, "spider"))) {
      return std::string(token);
    }
    i = end;
  }
  return "";
}

RunReport MakeRunReport(const std::string& feed, const Request& req, int status, const FeedReport& report, UnixTime at,
                        int64_t millis, const std::vector<std::string>& robots) {
  RunReport r;
  r.feed = feed;
  r.at = at;
  r.robot = RobotOf(req.user_agent, robots);
  r.client = req.remote_addr.substr(0, 64);
  r.method = req.method.substr(0, 8);
  r.status = status;
  // A failed response sent nothing of what it had made.
  const bool whole = status == 200 && report.complete;
  r.rows = whole ? static_cast<int64_t>(report.rows) : 0;
  r.bytes = whole ? static_cast<int64_t>(report.bytes) : 0;
  r.millis = millis;
  r.left_out = whole ? static_cast<int64_t>(report.skipped + report.dropped) : 0;
  if (whole) {
    for (const auto* list : {&report.skipped_items, &report.dropped_items}) {
      for (const std::string& s : *list) {
        if (r.reasons.size() >= RunReport::kMaxReasons) break;
        std::string reason = CleanUtf8(s);
        for (char& c : reason) {
          if (c == '\n' || c == '\r' || c == '\t') c = ' ';  // the table holds one a line
        }
        r.reasons.push_back(Cut(reason, RunReport::kMaxReasonBytes));
      }
    }
  }
  return r;
}

void RunReportStore::Check() {
  try {
    db_.Describe(State(kRecent));
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) throw;
    throw ConfigError(std::string("the table feed_run_report is missing: apply sql/state.sql (") + e.what() + ")");
  }
}

void RunReportStore::Save(const RunReport& r, int keep) {
  std::string reasons;
  for (const std::string& s : r.reasons) reasons += (reasons.empty() ? "" : "\n") + s;
  db_.Update(State(kInsert), {{"feed", r.feed},
                              {"at", r.at},
                              {"robot", r.robot},
                              {"client", r.client},
                              {"method", r.method},
                              {"status", static_cast<int64_t>(r.status)},
                              {"rows", r.rows},
                              {"bytes", r.bytes},
                              {"millis", r.millis},
                              {"left_out", r.left_out},
                              {"reasons", reasons}});
  Rows c = db_.Run(State(kCutoff), {{"feed", r.feed}, {"keep", static_cast<int64_t>(keep)}});
  if (c.Next()) db_.Update(State(kPrune), {{"feed", r.feed}, {"id", Int(c.Get(0))}});
}

std::vector<RunReport> RunReportStore::Recent(const std::string& feed, int n) {
  std::vector<RunReport> out;
  Rows rows = db_.Run(State(kRecent), {{"feed", feed}, {"n", static_cast<int64_t>(n)}});
  while (rows.Next()) {
    RunReport r;
    r.feed = feed;
    r.at = Int(rows.Get(0));
    r.robot = std::string(rows.Get(1));
    r.client = std::string(rows.Get(2));
    r.status = static_cast<int>(Int(rows.Get(3)));
    r.rows = Int(rows.Get(4));
    r.bytes = Int(rows.Get(5));
    r.millis = Int(rows.Get(6));
    r.left_out = Int(rows.Get(7));
    r.method = std::string(rows.Get(9));
    std::string_view reasons = rows.Get(8);
    while (!reasons.empty()) {
      const size_t nl = reasons.find('\n');
      r.reasons.emplace_back(reasons.substr(0, nl));
      reasons = nl == std::string_view::npos ? std::string_view() : reasons.substr(nl + 1);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace feed
