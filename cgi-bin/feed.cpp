// feed.fcgi: the entry point. It only works out how it was started
// (FastCGI under mod_fcgid or spawn-fcgi, plain CGI, or the command line),
// builds the App from the config and hands each request to it.
#include <fcgiapp.h>
#include <sys/uio.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "config_file.h"
#include "error.h"
#include "state_tables.h"

namespace {

const char kUsage[] =
    "usage: feed.fcgi [--config FILE] [--now YYYY-MM-DDTHH:MM:SSZ] [COMMAND ...]\n"
    "\n"
    "Serves listing feeds (Yads, Jooble, ...) from a board's database.\n"
    "Without a command it serves requests: FastCGI when started by a FastCGI\n"
    "server (Apache mod_fcgid, spawn-fcgi), one CGI request otherwise.\n"
    "\n"
    "Commands:\n"
    "  render PATH [NAME=VALUE ...] [-o FILE]\n"
    "        write the feed at PATH (such as /yads) to FILE or stdout, with\n"
    "        the request parameters given (date=\"2026-11-01 00:00:00\",\n"
    "        continue=TOKEN); prints a summary (rows, rows left out and why,\n"
    "        the continue token) on stderr. Exit 0 on success, 1 otherwise.\n"
    "  write [--robots] PATH DIR\n"
    "        write the document set served at PATH (such as /sitemap.xml) into\n"
    "        DIR as static files: the index and every part, and .gz twins where\n"
    "        the config says gzip_files = 1. The new set replaces the old one in\n"
    "        one step; a run that fails leaves the old set as it was. Prints a\n"
    "        line per file (name, URLs, bytes), a summary and the rows left out;\n"
    "        --robots adds the Sitemap: lines for robots.txt. One run per DIR\n"
    "        at a time (a lock, DIR.lock beside it): a run that finds another\n"
    "        under way says so on stderr and exits 0, doing nothing. Exit 0 on\n"
    "        success, 1 otherwise.\n"
    "  sync PATH\n"
    "        bring the item state of the MSN feed at PATH (lifecycle = msn, such\n"
    "        as /msn) up to date with the board: new items, real changes and\n"
    "        take-downs, so that a fetch finds it fresh (run from cron at least\n"
    "        every settle_seconds to spare fetches the work). Prints what\n"
    "        changed. One run per feed at a time: a run that finds another\n"
    "        under way says so on stderr and exits 0, doing nothing. Exit 0 on\n"
    "        success, 1 otherwise.\n"
    "  install\n"
    "        create the program's own tables (robots' visits, part plans, item\n"
    "        state, run reports: sql/state.sql) in [database] name, and add to\n"
    "        a table of an older version the columns and indexes it lacks.\n"
    "        Needs CREATE, ALTER and INDEX on that database, nothing global;\n"
    "        never touches the board's tables. Prints one line per table\n"
    "        (created, up to date, upgraded); run again, it changes nothing.\n"
    "        Exit 0 on success, 1 with the reason (such as the GRANT to run).\n"
    "  check [--deep] [--json]\n"
    "        load the config, templates and SQL and run every feed's query for\n"
    "        real on a sample of rows (--deep: on all of them, and walk each\n"
    "        feed a few rows a chunk as a robot pages, against one unpaged\n"
    "        read: rows lost at a chunk's edge, rows a join repeats, rows out\n"
    "        of order); result columns whose charset the connection's cannot\n"
    "        hold; a sample of every feed and sitemap index rendered and checked\n"
    "        against its format (well-formed in its declared encoding, the\n"
    "        sitemaps.org XSDs, text sitemap lines); check that the spool\n"
    "        folder takes files. One line per\n"
    "        finding (FILE:LINE: what; what to do), rows the template's rules\n"
    "        leave out as warnings, then a summary; --json for scripts. Exit 0\n"
    "        when there is no error.\n"
    "\n"
    "--now runs a command as of that moment (UTC) instead of the clock's:\n"
    "for reproducing what a robot got, and for benchmarks on old data.\n"
    "\n"
    "The config file comes from --config, else FEED_CONFIG, else the first of\n"
    "feed.ini, ../feed.ini and ../../feed.ini from the program's folder (on a\n"
    "shared host, ~/feed.ini beside public_html is outside the web). FEED_DB_HOST,\n"
    "FEED_DB_PORT, FEED_DB_SOCKET, FEED_DB_USER, FEED_DB_PASSWORD and\n"
    "FEED_DB_NAME override its [database] keys; FEED_SECRET, when set, keys the\n"
    "continue tokens of paged feeds instead of the file's [server] secret.\n";

// libfcgi's output stream of one request. libfcgi cuts what it is given
// into 8 KB FCGI_STDOUT records, one write(2) each; a feed of hundreds of MB
// goes out in large pieces, so those are written here as records of up to
// 64 KB (the protocol's limit) straight to the connection, after flushing
// whatever libfcgi holds so that the order stays right. libfcgi still ends
// the stream and the request in FCGX_Finish_r.
class FcgxSink : public feed::Sink {
 public:
  explicit FcgxSink(FCGX_Request* r) : r_(r) {}
  void Write(std::string_view b) override {
    if (b.size() < kDirect) {
      if (!b.empty() && FCGX_PutStr(b.data(), static_cast<int>(b.size()), r_->out) < 0) Gone("FastCGI write failed");
      return;
    }
    Flush();
    while (!b.empty()) {
      size_t n = std::min<size_t>(b.size(), 65535);
      // FastCGI record header: version 1, FCGI_STDOUT (6), request id,
      // content length, no padding.
      unsigned char h[8] = {1,
                            6,
                            static_cast<unsigned char>(r_->requestId >> 8),
                            static_cast<unsigned char>(r_->requestId & 0xff),
                            static_cast<unsigned char>(n >> 8),
                            static_cast<unsigned char>(n & 0xff),
                            0,
                            0};
      iovec v[2] = {{h, sizeof h}, {const_cast<char*>(b.data()), n}};
      WriteAll(v);
      b.remove_prefix(n);
    }
  }
  void Flush() override {
    if (FCGX_FFlush(r_->out) < 0) Gone("FastCGI flush failed");
  }

 private:
  static constexpr size_t kDirect = 16 * 1024;

  [[noreturn]] static void Gone(const char* what) { throw feed::FeedError(feed::ErrorKind::kClientGone, what); }

  void WriteAll(iovec* v) {
    int count = 2;
    while (count > 0) {
      ssize_t w = writev(r_->ipcFd, v, count);
      if (w < 0) {
        if (errno == EINTR) continue;
        Gone("FastCGI write failed");
      }
      // Skip what was written, across the two pieces.
      while (count > 0 && static_cast<size_t>(w) >= v->iov_len) {
        w -= static_cast<ssize_t>(v->iov_len);
        ++v;
        --count;
      }
      if (count > 0) {
        v->iov_base = static_cast<char*>(v->iov_base) + w;
        v->iov_len -= static_cast<size_t>(w);
      }
    }
  }

  FCGX_Request* r_;
};

// On the command line: the body of a 200 goes to the output, an error's
// one-line message to stderr.
class CommandLineSink : public feed::Sink {
 public:
  explicit CommandLineSink(FILE* out) : file_(out), err_(stderr) {}
  void Write(std::string_view b) override {
    if (target_) return target_->Write(b);
    head_.append(b);
    size_t end = head_.find("\r\n\r\n");
    if (end == std::string::npos) return;
    status_ = std::atoi(head_.c_str() + std::strlen("Status: "));
    target_ = status_ == 200 ? &file_ : &err_;
    std::string rest = head_.substr(end + 4);
    head_.clear();
    target_->Write(rest);
  }
  void Flush() override {
    if (target_) target_->Flush();
  }
  int status() const { return status_; }

 private:
  feed::FileSink file_, err_;
  feed::Sink* target_ = nullptr;
  std::string head_;
  int status_ = 0;
};

std::string PercentEncode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

int Render(feed::App& app, const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  feed::Request req;
  req.method = "GET";
  req.path_info = args[0];
  std::string output;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
      continue;
    }
    size_t eq = args[i].find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "feed.fcgi: expected NAME=VALUE, not '%s'\n", args[i].c_str());
      return 2;
    }
    req.query_string += (req.query_string.empty() ? "" : "&") + PercentEncode(args[i].substr(0, eq)) + "=" +
                        PercentEncode(args[i].substr(eq + 1));
  }
  FILE* out = stdout;
  if (!output.empty()) {
    out = std::fopen(output.c_str(), "wb");
    if (!out) {
      std::fprintf(stderr, "feed.fcgi: cannot write %s: %s\n", output.c_str(), std::strerror(errno));
      return 1;
    }
  }
  CommandLineSink sink(out);
  feed::FeedReport report;
  int status = app.Handle(req, sink, /*live=*/false, &report);
  bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
  if (status != 200 || !report.complete || !closed) return 1;
  std::fprintf(stderr, "%s: %zu rows written, %zu left out\n", req.path_info.c_str(), report.rows, report.skipped);
  for (const std::string& s : report.skipped_items) std::fprintf(stderr, "  left out: %s\n", s.c_str());
  for (const std::string& s : report.dropped_items) std::fprintf(stderr, "  item left out: %s\n", s.c_str());
  for (const std::string& s : report.noted_items) std::fprintf(stderr, "  noted: %s\n", s.c_str());
  if (report.dropped > report.dropped_items.size()) {
    std::fprintf(stderr, "  ... and %zu more items\n", report.dropped - report.dropped_items.size());
  }
  if (report.skipped > report.skipped_items.size()) {
    std::fprintf(stderr, "  ... and %zu more\n", report.skipped - report.skipped_items.size());
  }
  if (report.more) std::fprintf(stderr, "continue=%s\n", report.continue_token.c_str());
  return 0;
}

int Write(feed::App& app, std::vector<std::string> args) {
  bool robots = false;
  if (!args.empty() && args[0] == "--robots") {
    robots = true;
    args.erase(args.begin());
  }
  if (args.size() != 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // A progress line, only for a person watching.
  const bool tty = isatty(STDERR_FILENO);
  const auto started = std::chrono::steady_clock::now();
  auto last = started;
  auto progress = [&](size_t rows) {
    const auto now = std::chrono::steady_clock::now();
    if (!tty || now - last < std::chrono::seconds(1)) return;
    last = now;
    const double secs = std::chrono::duration<double>(now - started).count();
    std::fprintf(stderr, "\r%zu rows, %.0f rows/s, %.0f s ", rows, rows / secs, secs);
  };
  try {
    feed::WriteReport r = app.WriteSet(args[0], args[1], progress);
    if (tty) std::fputs("\r\033[K", stderr);
    size_t bytes = 0;
    for (const feed::WrittenFile& f : r.files) {
      std::printf("%s\t%zu URLs\t%zu bytes\n", f.name.c_str(), f.rows, f.bytes);
      bytes += f.bytes;
    }
    std::printf("%s: %zu files, %zu URLs, %zu bytes, %zu rows left out\n", args[1].c_str(), r.files.size(), r.rows,
                bytes, r.left_out.skipped);
    for (const std::string& s : r.left_out.skipped_items) std::printf("  left out: %s\n", s.c_str());
    for (const std::string& s : r.left_out.dropped_items) std::printf("  item left out: %s\n", s.c_str());
    for (const std::string& s : r.left_out.noted_items) std::printf("  noted: %s\n", s.c_str());
    if (r.left_out.noted > r.left_out.noted_items.size()) {
      std::printf("  ... and %zu more notes\n", r.left_out.noted - r.left_out.noted_items.size());
    }
    if (r.left_out.dropped > r.left_out.dropped_items.size()) {
      std::printf("  ... and %zu more items\n", r.left_out.dropped - r.left_out.dropped_items.size());
    }
    if (r.left_out.skipped > r.left_out.skipped_items.size()) {
      std::printf("  ... and %zu more\n", r.left_out.skipped - r.left_out.skipped_items.size());
    }
    if (robots) {
      for (const std::string& u : r.urls) std::printf("Sitemap: %s\n", u.c_str());
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
  } catch (const feed::FeedError& e) {
    if (tty) std::fputs("\n", stderr);
    if (e.kind() == feed::ErrorKind::kBusy) {
      // Cron started this run while the last one still works: not a failure.
      std::fprintf(stderr, "feed.fcgi: write %s: %s, nothing done\n", args[0].c_str(), e.what());
      return 0;
    }
    std::fprintf(stderr, "feed.fcgi: write %s: %s (%s left as it was)\n", args[0].c_str(), e.what(), args[1].c_str());
    return 1;
  }
}

int Sync(feed::App& app, const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const bool tty = isatty(STDERR_FILENO);
  auto progress = [&](size_t items) {
    if (tty) std::fprintf(stderr, "\r%zu items written ", items);
  };
  try {
    feed::SyncReport r = app.SyncItems(args[0], progress);
    if (tty) std::fputs("\r\033[K", stderr);
    const feed::MergeCounts& n = r.counts;
    std::printf("%s: %zu items shown, %zu unchanged, %zu created, %zu updated, %zu shown again, %zu taken down, "
                "%zu dropped unlisted, %lld take-downs retired, %zu rows left out\n",
                args[0].c_str(), n.shown, n.unchanged, n.created, n.updated, n.returned, n.taken_down, n.dropped,
                static_cast<long long>(r.retired), r.left_out);
    for (const std::string& s : r.left_out_items) std::printf("  left out: %s\n", s.c_str());
    if (r.left_out > r.left_out_items.size()) std::printf("  ... and %zu more\n", r.left_out - r.left_out_items.size());
    return std::fflush(stdout) == 0 ? 0 : 1;
  } catch (const feed::FeedError& e) {
    if (tty) std::fputs("\n", stderr);
    if (e.kind() == feed::ErrorKind::kBusy) {
      std::fprintf(stderr, "feed.fcgi: sync %s: %s, nothing done\n", args[0].c_str(), e.what());
      return 0;
    }
    std::fprintf(stderr, "feed.fcgi: sync %s: %s\n", args[0].c_str(), e.what());
    return 1;
  }
}

int ServeFastCgi(feed::App& app) {
  FCGX_Request request;
  if (FCGX_Init() != 0 || FCGX_InitRequest(&request, 0, 0) != 0) {
    std::fputs("feed.fcgi: cannot initialise FastCGI\n", stderr);
    return 1;
  }
  while (FCGX_Accept_r(&request) >= 0) {
    // Everything needed is copied out of envp before FCGX_Finish_r.
    feed::Request req =
        feed::RequestFromEnvironment([&](const char* name) { return FCGX_GetParam(name, request.envp); });
    FcgxSink sink(&request);
    app.Handle(req, sink, /*live=*/true);
    FCGX_Finish_r(&request);
    // The client has its response: only now the run report (status page),
    // then the run's next page while the web server sends this one.
    app.RecordRun();
    app.MakePageAhead();
  }
  return 0;
}

int ServeCgi(feed::App& app) {
  feed::Request req = feed::RequestFromEnvironment([](const char* name) { return std::getenv(name); });
  feed::FileSink sink(stdout);
  app.Handle(req, sink, /*live=*/true);
  // The web server has the whole response once stdout is closed.
  std::fclose(stdout);
  app.RecordRun();
  return 0;
}

}  // namespace

// `check [--deep] [--json]`: exit 0 when nothing is wrong, 1 when
// something is, 2 for a usage mistake. A config, template or SQL file the
// program refuses at start is a finding too, in the same form.
int Check(const std::string& config_file, const feed::Clock* clock, const std::vector<std::string>& args) {
  feed::CheckOptions options;
  bool json = false;
  for (const std::string& a : args) {
    if (a == "--deep") {
      options.deep = true;
    } else if (a == "--json") {
      json = true;
    } else {
      std::fprintf(stderr, "feed.fcgi: check takes --deep and --json, not '%s'\n", a.c_str());
      return 2;
    }
  }
  feed::CheckReport report;
  if (std::string why = feed::ConfigModeWarning(config_file); !why.empty()) {
    report.findings.push_back({false, config_file, why, ""});
  }
  try {
    feed::Config config = feed::LoadConfig(config_file);
    const feed::DatabaseConfig db = config.database;
    feed::App app(std::move(config), clock);
    report = app.Check(options);
    // host = localhost reaches the socket where libmariadb was built to
    // look; RHEL-family hosts keep theirs elsewhere.
    const bool unreachable = std::any_of(report.findings.begin(), report.findings.end(),
                                         [](const feed::Finding& f) { return f.error && f.where == "[database]"; });
    if (unreachable && db.host == "localhost" && db.socket.empty()) {
      if (std::string s = feed::FindMysqlSocket(feed::kMysqlSockets); !s.empty() && s != feed::kMysqlSockets[0]) {
        report.findings.push_back({true, "[database] host", "the database's socket on this host is " + s + ", not " +
                                                              feed::kMysqlSockets[0] + " where the client looks",
                                   "add socket = " + s + " to [database]"});
      }
    }
    try {
      app.CheckSpool();
    } catch (const feed::FeedError& e) {
      report.findings.push_back({true, "[server] spool_dir", e.what(), "make the folder writable by the web user"});
    }
  } catch (const feed::FeedError& e) {
    report.findings.push_back(feed::FindingOf(e, config_file, "fix it: the program refuses to start with it"));
  }
  if (json) {
    std::printf("%s\n", report.Json().c_str());
  } else {
    for (const feed::CheckedReplica& r : report.replicas) std::printf("%s\n", r.Line().c_str());
    for (const feed::Finding& f : report.findings) std::printf("%s\n", f.Line().c_str());
    std::printf("%s: %zu feeds, %zu rows read%s: %zu errors, %zu warnings\n", config_file.c_str(), report.feeds,
                report.rows, options.deep ? " (deep)" : "", report.errors(), report.findings.size() - report.errors());
  }
  return report.errors() == 0 ? 0 : 1;
}

// `install`: the program's own tables, with the config's account.
int Install(const std::string& config_file, const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    const feed::Config config = feed::LoadConfig(config_file);
    feed::Database db(config.database);
    size_t changed = 0;
    feed::InstallStateTables(db, [&](const feed::InstalledTable& t) {
      std::printf("%s\n", t.Line().c_str());
      changed += t.outcome != feed::InstalledTable::kUpToDate;
    });
    std::printf("%s: %s\n", config.database.name.c_str(),
                changed ? (std::to_string(changed) + " tables changed").c_str()
                        : "every table up to date, nothing changed");
    return std::fflush(stdout) == 0 ? 0 : 1;
  } catch (const feed::FeedError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "feed.fcgi: install: %s\n", e.what());
    return 1;
  }
}

int main(int argc, char** argv) {
  // A client that goes away must not kill the process: writes then fail
  // with EPIPE, which the sinks report as kClientGone.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::optional<std::string> config_flag;
  if (args.size() >= 2 && args[0] == "--config") {
    config_flag = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  std::optional<feed::FixedClock> fixed;
  if (args.size() >= 2 && args[0] == "--now") {
    // "YYYY-MM-DDTHH:MM:SSZ", UTC.
    std::string t = args[1];
    auto local = t.size() == 20 && t[10] == 'T' && t[19] == 'Z'
                     ? feed::ParseSqlDateTime(t.substr(0, 10) + " " + t.substr(11, 8))
                     : std::nullopt;
    if (!local) {
      std::fputs("feed.fcgi: --now takes a UTC moment such as 2026-11-01T12:00:00Z\n", stderr);
      return 2;
    }
    fixed.emplace(feed::NaiveSeconds(*local));
    args.erase(args.begin(), args.begin() + 2);
  }
  std::vector<std::string> tried;
  const std::optional<std::string> found = feed::FindConfigFile(
      config_flag, std::getenv("FEED_CONFIG"), feed::ProgramFolder(argv[0], std::getenv("FEED_HOME")), &tried);
  if (!found) {
    std::string where;
    for (const std::string& t : tried) where += (where.empty() ? "" : ", ") + t;
    std::fprintf(stderr, "feed.fcgi: no config: pass --config FILE, set FEED_CONFIG, or put feed.ini %s%s (see --help)\n",
                 where.empty() ? "beside the program" : "at one of: ", where.c_str());
    return 2;
  }
  const std::string& config_file = *found;
  if (!args.empty() && args[0] == "install") return Install(config_file, {args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "check") {
    return Check(config_file, fixed ? &*fixed : nullptr, {args.begin() + 1, args.end()});
  }
  try {
    feed::App app(feed::LoadConfig(config_file), fixed ? &*fixed : nullptr);
    if (!args.empty() && args[0] == "render") return Render(app, {args.begin() + 1, args.end()});
    if (!args.empty() && args[0] == "write") return Write(app, {args.begin() + 1, args.end()});
    if (!args.empty() && args[0] == "sync") return Sync(app, {args.begin() + 1, args.end()});
    if (!args.empty()) {
      std::fprintf(stderr, "feed.fcgi: unknown command '%s' (see --help)\n", args[0].c_str());
      return 2;
    }
    // A mapping error is reported once, at start; a database that is down
    // now is checked again on the first request.
    // A spool folder with no room now (full, over its quota, read-only) is
    // not a reason to stop: what needs it answers 503 until the room
    // returns.
    try {
      app.CheckSpool();
    } catch (const feed::FeedError& e) {
      if (e.kind() != feed::ErrorKind::kFull) throw;
      std::fprintf(stderr, "feed.fcgi: %s (will retry per request)\n", e.what());
    }
    try {
      app.CheckDatabase();
    } catch (const feed::FeedError& e) {
      if (e.kind() != feed::ErrorKind::kUnavailable) throw;
      std::fprintf(stderr, "feed.fcgi: %s (will retry per request)\n", e.what());
    }
    return FCGX_IsCGI() ? ServeCgi(app) : ServeFastCgi(app);
  } catch (const feed::FeedError& e) {
    std::fprintf(stderr, "feed.fcgi: %s\n", e.what());
    return 1;
  }
}
