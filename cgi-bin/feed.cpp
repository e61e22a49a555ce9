// feed.fcgi: the entry point. It only works out how it was started
// (FastCGI under mod_fcgid or spawn-fcgi, plain CGI, or the command line)
// and hands over: a command to its entry in the table (commands.h), a
// request to the App built from the config.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "commands.h"
#include "config_file.h"
#include "error.h"
#include "fcgi_sink.h"

namespace {

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
    feed::FcgiSink sink(&request);
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

// Runs `check`; an error of `kind` is logged and left to each request.
template <typename Check>
void RetryLaterOn(feed::ErrorKind kind, Check&& check) {
  try {
    check();
  } catch (const feed::FeedError& e) {
    if (e.kind() != kind) throw;
    std::fprintf(stderr, "feed.fcgi: %s (will retry per request)\n", e.what());
  }
}

// Serves requests. A mapping error is reported once, at start; a database
// that is down now is checked again on the first request.
int Serve(const feed::CommandContext& context) {
  try {
    feed::App app(feed::LoadConfig(context.config_file), context.clock);
    // A spool folder with no room now (full, over its quota, read-only)
    // or a database down is not a reason to stop: what needs it answers
    // 503 until it returns.
    RetryLaterOn(feed::ErrorKind::kFull, [&] { app.CheckSpool(); });
    RetryLaterOn(feed::ErrorKind::kUnavailable, [&] { app.CheckDatabase(); });
    return FCGX_IsCGI() ? ServeCgi(app) : ServeFastCgi(app);
  } catch (const feed::FeedError& e) {
    std::fprintf(stderr, "feed.fcgi: %s\n", e.what());
    return 1;
  }
}

// --now YYYY-MM-DDTHH:MM:SSZ (UTC), or nullopt.
std::optional<feed::FixedClock> ClockAt(const std::string& t) {
  auto local = t.size() == 20 && t[10] == 'T' && t[19] == 'Z'
                   ? feed::ParseSqlDateTime(t.substr(0, 10) + " " + t.substr(11, 8))
                   : std::nullopt;
  if (!local) return std::nullopt;
  return feed::FixedClock(feed::NaiveSeconds(*local));
}

}  // namespace

int main(int argc, char** argv) {
  // A client that goes away must not kill the process: writes then fail
  // with EPIPE, which the sinks report as kClientGone.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(feed::Usage().c_str(), stdout);
    return 0;
  }
  std::optional<std::string> config_flag;
  if (args.size() >= 2 && args[0] == "--config") {
    config_flag = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  std::optional<feed::FixedClock> fixed;
  if (args.size() >= 2 && args[0] == "--now") {
    if (!(fixed = ClockAt(args[1]))) {
      std::fputs("feed.fcgi: --now takes a UTC moment such as 2026-11-01T12:00:00Z\n", stderr);
      return 2;
    }
    args.erase(args.begin(), args.begin() + 2);
  }
  const feed::Command* command = args.empty() ? nullptr : feed::FindCommand(args[0]);
  if (!args.empty() && !command) {
    std::fprintf(stderr, "feed.fcgi: unknown command '%s' (see --help)\n", args[0].c_str());
    return 2;
  }
  feed::CommandContext context{"", fixed ? &*fixed : nullptr};
  const std::vector<std::string> rest = args.empty() ? args : std::vector<std::string>(args.begin() + 1, args.end());
  if (command && !command->needs_config) return command->run(context, rest);
  std::vector<std::string> tried;
  const std::optional<std::string> found = feed::FindConfigFile(
      config_flag, std::getenv("FEED_CONFIG"), feed::ProgramFolder(argv[0], std::getenv("FEED_HOME")), &tried);
  if (!found) {
    std::string where;
    for (const std::string& t : tried) where += (where.empty() ? "" : ", ") + t;
    std::fprintf(stderr,
                 "feed.fcgi: no config: pass --config FILE, set FEED_CONFIG, or put feed.ini %s%s (see --help)\n",
                 where.empty() ? "beside the program" : "at one of: ", where.c_str());
    return 2;
  }
  context.config_file = *found;
  return command ? command->run(context, rest) : Serve(context);
}
