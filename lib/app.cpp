#include "app.h"

#include <cstdio>

#include "error.h"

namespace feed {

App::App(Config config) : config_(std::move(config)), db_(config_.database) {
  for (const FeedConfig& f : config_.feeds) feeds_.push_back(std::make_unique<Feed>(f, config_));
  log_ = [](const std::string& line) {
    std::fprintf(stderr, "feed.fcgi: %s\n", line.c_str());
    std::fflush(stderr);
  };
}

void App::CheckDatabase() {
  for (auto& f : feeds_) f->Bind(db_);
}

Feed* App::Find(const std::string& path) {
  for (auto& f : feeds_) {
    if (f->config().path == path) return f.get();
  }
  return nullptr;
}

int App::Handle(const Request& req, Sink& out, bool with_head, FeedReport* report) {
  FeedReport local;
  if (!report) report = &local;
  const bool head_only = req.method == "HEAD";
  Response resp(out, with_head, head_only);
  try {
    if (req.method != "GET" && req.method != "HEAD") {
      resp.Error(405, "method " + req.method.substr(0, 16) + " not allowed: use GET or HEAD", {{"Allow", "GET, HEAD"}});
      return 405;
    }
    Feed* feed = Find(req.path_info);
    if (!feed) {
      std::string known;
      for (auto& f : feeds_) known += (known.empty() ? "" : ", ") + f->config().path;
      throw NotFound("no feed at this path; feeds: " + known);
    }
    feed->Serve(req, db_, resp, report);
    if (!report->visit_error.empty()) {
      log_("feed " + feed->config().name + ": the robot's visit was not recorded: " + report->visit_error);
    }
    if (report->skipped) {
      std::string ids;
      for (const std::string& s : report->skipped_items) ids += (ids.empty() ? "" : "; ") + s;
      if (report->skipped > report->skipped_items.size()) ids += "; ...";
      log_("feed " + feed->config().name + ": " + std::to_string(report->skipped) + " rows left out: " + ids);
    }
    return resp.status();
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kClientGone) {
      log_(std::string("client went away: ") + e.what());
      db_.Disconnect();  // a result may be half read; start clean
      return resp.started() ? resp.status() : 499;
    }
    if (resp.started()) {
      // The body is cut where it stands: no closing tags, no gzip trailer.
      log_(std::string("feed cut off after the body began: ") + e.what());
      if (e.kind() == ErrorKind::kUnavailable) db_.Disconnect();
      return resp.status();
    }
    int status = HttpStatus(e.kind());
    if (status >= 500 && status != 503) log_(std::string("error: ") + e.what());
    if (status == 503) log_(std::string("database unavailable: ") + e.what());
    try {
      if (status == 503) {
        resp.Error(503, "the database is unavailable; try again later", {{"Retry-After", "60"}});
      } else if (status == 500) {
        resp.Error(500, "internal error; see the server log");
      } else {
        resp.Error(status, e.what());
      }
    } catch (const FeedError&) {
      // The client is gone; nothing more to do.
    }
    return status;
  } catch (const std::exception& e) {
    log_(std::string("error: ") + e.what());
    if (!resp.started()) {
      try {
        resp.Error(500, "internal error; see the server log");
      } catch (const FeedError&) {
      }
    }
    return 500;
  }
}

}  // namespace feed
