#include "commands.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "app.h"
#include "command_line_sink.h"
#include "command_output.h"
#include "config_file.h"
#include "config_keys.h"
#include "error.h"
#include "state_tables.h"
#include "url.h"

namespace feed {
namespace {

int UsageMistake() {
  std::fputs(Usage().c_str(), stderr);
  return 2;
}

// Runs `body` with the App of the context's config; a config the program
// refuses, or a failure `body` does not catch, is one line on stderr.
template <class Body>
int WithApp(const CommandContext& context, Body body) {
  try {
    App app(LoadConfig(context.config_file), context.clock);
    return body(app);
  } catch (const FeedError& e) {
    std::fprintf(stderr, "feed.fcgi: %s\n", e.what());
    return 1;
  }
}

// A failure of write or sync. Cron started this run while the last one
// still works (kBusy): not a failure.
int Failed(const char* command, const std::string& path, const FeedError& e, const std::string& kept) {
  if (e.kind() == ErrorKind::kBusy) {
    std::fprintf(stderr, "feed.fcgi: %s %s: %s, nothing done\n", command, path.c_str(), e.what());
    return 0;
  }
  std::fprintf(stderr, "feed.fcgi: %s %s: %s%s\n", command, path.c_str(), e.what(), kept.c_str());
  return 1;
}

// `render`'s arguments after PATH: NAME=VALUE pairs, joined into a query
// string, and -o FILE. False (with the message printed) for any other.
bool RenderArguments(const std::vector<std::string>& args, Request* req, std::string* output) {
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      *output = args[++i];
      continue;
    }
    const size_t eq = args[i].find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "feed.fcgi: expected NAME=VALUE, not '%s'\n", args[i].c_str());
      return false;
    }
    req->query_string += (req->query_string.empty() ? "" : "&") + QueryComponentEncoded(args[i].substr(0, eq)) + "=" +
                         QueryComponentEncoded(args[i].substr(eq + 1));
  }
  return true;
}

int Render(const CommandContext& context, const std::vector<std::string>& args) {
  if (args.empty()) return UsageMistake();
  Request req;
  req.method = "GET";
  req.path_info = args[0];
  std::string output;
  if (!RenderArguments(args, &req, &output)) return 2;
  return WithApp(context, [&](App& app) {
    FILE* out = output.empty() ? stdout : std::fopen(output.c_str(), "wb");
    if (!out) {
      std::fprintf(stderr, "feed.fcgi: cannot write %s: %s\n", output.c_str(), std::strerror(errno));
      return 1;
    }
    CommandLineSink sink(out);
    FeedReport report;
    const int status = app.Handle(req, sink, /*live=*/false, &report);
    const bool closed = out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0;
    if (status != 200 || !report.complete || !closed) return 1;
    PrintRenderSummary(stderr, req.path_info, report);
    return 0;
  });
}

// A progress line on stderr, only for a person watching, at most once a
// second.
class Progress {
 public:
  Progress() : tty_(isatty(STDERR_FILENO)), started_(std::chrono::steady_clock::now()), last_(started_) {}
  void Rows(size_t rows) {
    const auto now = std::chrono::steady_clock::now();
    if (!tty_ || now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - started_).count();
    std::fprintf(stderr, "\r%zu rows, %.0f rows/s, %.0f s ", rows, rows / secs, secs);
  }
  void Items(size_t items) {
    if (tty_) std::fprintf(stderr, "\r%zu items written ", items);
  }
  // Clears the line (done) or ends it (failed).
  void Done() {
    if (tty_) std::fputs("\r\033[K", stderr);
  }
  void Failed() {
    if (tty_) std::fputs("\n", stderr);
  }

 private:
  bool tty_;
  std::chrono::steady_clock::time_point started_, last_;
};

int Write(const CommandContext& context, const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  const bool robots = !args.empty() && args[0] == "--robots";
  if (robots) args.erase(args.begin());
  if (args.size() != 2) return UsageMistake();
  return WithApp(context, [&](App& app) {
    Progress progress;
    try {
      const WriteReport r = app.WriteSet(args[0], args[1], [&](size_t rows) { progress.Rows(rows); });
      progress.Done();
      PrintWriteReport(stdout, args[1], r, robots);
      return std::fflush(stdout) == 0 ? 0 : 1;
    } catch (const FeedError& e) {
      progress.Failed();
      return Failed("write", args[0], e, " (" + args[1] + " left as it was)");
    }
  });
}

int Sync(const CommandContext& context, const std::vector<std::string>& args) {
  if (args.size() != 1) return UsageMistake();
  return WithApp(context, [&](App& app) {
    Progress progress;
    try {
      const SyncReport r = app.SyncItems(args[0], [&](size_t items) { progress.Items(items); });
      progress.Done();
      PrintSyncReport(stdout, args[0], r);
      return std::fflush(stdout) == 0 ? 0 : 1;
    } catch (const FeedError& e) {
      progress.Failed();
      return Failed("sync", args[0], e, "");
    }
  });
}

// `install`: the program's own tables, with the config's account.
int Install(const CommandContext& context, const std::vector<std::string>& args) {
  if (!args.empty()) return UsageMistake();
  try {
    const Config config = LoadConfig(context.config_file);
    Database db(config.database);
    size_t changed = 0;
    InstallStateTables(db, [&](const InstalledTable& t) {
      std::printf("%s\n", t.Line().c_str());
      changed += t.outcome != InstalledTable::kUpToDate;
    });
    std::printf(
        "%s: %s\n", config.database.name.c_str(),
        changed ? (std::to_string(changed) + " tables changed").c_str() : "every table up to date, nothing changed");
    return std::fflush(stdout) == 0 ? 0 : 1;
  } catch (const FeedError& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "feed.fcgi: install: %s\n", e.what());
    return 1;
  }
}

// Everything check finds about the config at `file` (CheckProgram). A
// config, template or SQL file the program refuses at start is a finding
// too, in the same form.
CheckReport CheckConfig(const std::string& file, const Clock* clock, const CheckOptions& options) {
  CheckReport report;
  if (std::string why = ConfigModeWarning(file); !why.empty()) report.findings.push_back({false, file, why, ""});
  try {
    App app(LoadConfig(file), clock);
    // XXX: the mode warning above is kept only when the config is refused
    // (as before the command table); app.Check's report replaces it.
    report = app.Check(options);
  } catch (const FeedError& e) {
    report.findings.push_back(FindingOf(e, file, "fix it: the program refuses to start with it"));
  }
  return report;
}

// `check [--deep] [--json]`: exit 0 when nothing is wrong, 1 when
// something is, 2 for a usage mistake.
int Check(const CommandContext& context, const std::vector<std::string>& args) {
  CheckOptions options;
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
  const CheckReport report = CheckConfig(context.config_file, context.clock, options);
  PrintCheckReport(stdout, context.config_file, report, options.deep, json);
  return report.errors() == 0 ? 0 : 1;
}

// `keys [--markdown]`: the reference of every config key.
int Keys(const CommandContext&, const std::vector<std::string>& args) {
  const bool markdown = args.size() == 1 && args[0] == "--markdown";
  if (!args.empty() && !markdown) return UsageMistake();
  std::fputs((markdown ? ConfigKeysMarkdown() : ConfigKeysText()).c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

constexpr Command kCommands[] = {
    {"render", "render PATH [NAME=VALUE ...] [-o FILE]",
     "write the feed at PATH (such as /yads) to FILE or stdout, with\n"
     "the request parameters given (date=\"2026-11-01 00:00:00\",\n"
     "continue=TOKEN); prints a summary (rows, rows left out and why,\n"
     "the continue token) on stderr. Exit 0 on success, 1 otherwise.",
     true, Render},
    {"write", "write [--robots] PATH DIR",
     "write the document set served at PATH (such as /sitemap.xml) into\n"
     "DIR as static files: the index and every part, and .gz twins where\n"
     "the config says gzip_files = 1. The new set replaces the old one in\n"
     "one step; a run that fails leaves the old set as it was. Prints a\n"
     "line per file (name, URLs, bytes), a summary and the rows left out;\n"
     "--robots adds the Sitemap: lines for robots.txt. One run per DIR\n"
     "at a time (a lock, DIR.lock beside it): a run that finds another\n"
     "under way says so on stderr and exits 0, doing nothing. Exit 0 on\n"
     "success, 1 otherwise.",
     true, Write},
    {"sync", "sync PATH",
     "bring the item state of the MSN feed at PATH (lifecycle = msn, such\n"
     "as /msn) up to date with the board: new items, real changes and\n"
     "take-downs, so that a fetch finds it fresh (run from cron at least\n"
     "every settle_seconds to spare fetches the work). Prints what\n"
     "changed. One run per feed at a time: a run that finds another\n"
     "under way says so on stderr and exits 0, doing nothing. Exit 0 on\n"
     "success, 1 otherwise.",
     true, Sync},
    {"install", "install",
     "create the program's own tables (robots' visits, part plans, item\n"
     "state, run reports: sql/state.sql) in [database] name, and add to\n"
     "a table of an older version the columns and indexes it lacks.\n"
     "Needs CREATE, ALTER and INDEX on that database, nothing global;\n"
     "never touches the board's tables. Prints one line per table\n"
     "(created, up to date, upgraded); run again, it changes nothing.\n"
     "Exit 0 on success, 1 with the reason (such as the GRANT to run).",
     true, Install},
    {"check", "check [--deep] [--json]",
     "load the config, templates and SQL and run every feed's query for\n"
     "real on a sample of rows (--deep: on all of them, and walk each\n"
     "feed a few rows a chunk as a robot pages, against one unpaged\n"
     "read: rows lost at a chunk's edge, rows a join repeats, rows out\n"
     "of order); result columns whose charset the connection's cannot\n"
     "hold; a sample of every feed and sitemap index rendered and checked\n"
     "against its format (well-formed in its declared encoding, the\n"
     "sitemaps.org XSDs, text sitemap lines); check that the spool\n"
     "folder takes files. One line per\n"
     "finding (FILE:LINE: what; what to do), rows the template's rules\n"
     "leave out as warnings, then a summary; --json for scripts. Exit 0\n"
     "when there is no error.",
     true, Check},
    {"keys", "keys [--markdown]",
     "print every config key: its section, form, default and what it\n"
     "does, and the environment variables that override the file\n"
     "(--markdown: the table of docs/config-keys.md). Needs no config.",
     false, Keys},
};

}  // namespace

std::span<const Command> Commands() { return kCommands; }

namespace {

// `text` in lines of at most 74 characters, broken at spaces.
std::string Wrapped(const std::string& text) {
  std::string out, line;
  size_t i = 0;
  while (i < text.size()) {
    const size_t space = std::min(text.find(' ', i), text.size());
    const std::string word = text.substr(i, space - i);
    if (!line.empty() && line.size() + 1 + word.size() > 74) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    i = space + 1;
  }
  return out + line + "\n";
}

}  // namespace

const Command* FindCommand(std::string_view name) {
  for (const Command& c : Commands()) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

std::string Usage() {
  std::string out =
      "usage: feed.fcgi [--config FILE] [--now YYYY-MM-DDTHH:MM:SSZ] [COMMAND ...]\n"
      "\n"
      "Serves listing feeds (Yads, Jooble, ...) from a board's database.\n"
      "Without a command it serves requests: FastCGI when started by a FastCGI\n"
      "server (Apache mod_fcgid, spawn-fcgi), one CGI request otherwise.\n"
      "\n"
      "Commands:\n";
  for (const Command& c : Commands()) {
    out += std::string("  ") + c.usage + "\n";
    std::string_view help = c.help;
    while (!help.empty()) {
      const size_t nl = std::min(help.find('\n'), help.size());
      out += "        " + std::string(help.substr(0, nl)) + "\n";
      help.remove_prefix(std::min(nl + 1, help.size()));
    }
  }
  out +=
      "\n"
      "--now runs a command as of that moment (UTC) instead of the clock's:\n"
      "for reproducing what a robot got, and for benchmarks on old data.\n"
      "\n";
  out += Wrapped(
      "The config file comes from --config, else FEED_CONFIG, else the first of feed.ini, ../feed.ini and "
      "../../feed.ini from the program's folder (on a shared host, ~/feed.ini beside public_html is "
      "outside the web). " +
      ConfigEnvironmentHelp());
  return out;
}

}  // namespace feed
