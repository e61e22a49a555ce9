#include "app.h"

#include <chrono>
#include <cstdio>

#include "error.h"

namespace feed {
namespace {

constexpr const char* kAllow = "GET, HEAD, OPTIONS";

}  // namespace

App::App(Config config, const Clock* clock)
    : config_(std::move(config)),
      clock_(clock ? *clock : system_clock_),
      servers_(config_, clock_),
      spool_(config_.server.spool_dir),
      redirect_(config_.server.redirect_dir, config_.server.redirect_url, config_.server.redirect_seconds) {
  for (const FeedConfig& f : config_.feeds) {
    feeds_.push_back(std::make_unique<Feed>(f, config_, &clock_));
    if (f.path.empty()) continue;  // a set's section: served as its parts
    if (f.lifecycle == Lifecycle::kMsn) {
      msn_feeds_.push_back(std::make_unique<MsnFeed>(*feeds_.back(), config_.database));
      routes_.Add(Route{f.path, Role::kItems, msn_feeds_.size() - 1, {}, false});
      continue;
    }
    Feed* full = nullptr;
    if (!f.query_full_file.empty()) {
      full_walks_.push_back(std::make_unique<Feed>(FullWalkOf(f), config_, &clock_));
      full = full_walks_.back().get();
    }
    documents_.push_back(std::make_unique<DocumentFeed>(*feeds_.back(), full));
    if (f.page_ahead > 0) documents_.back()->SetPagesAhead(&ahead_);
    routes_.Add(Route{f.path, Role::kDocument, documents_.size() - 1, {}, false});
  }
  for (const SetConfig& s : config_.sets) {
    std::vector<Feed*> sections;
    for (const std::string& name : s.sections) {
      for (auto& f : feeds_) {
        if (f->config().name == name) sections.push_back(f.get());
      }
    }
    sets_.push_back(std::make_unique<DocumentSet>(s, std::move(sections), config_, &clock_));
    const size_t i = sets_.size() - 1;
    if (s.format == Format::kXml) {
      routes_.Add(Route{s.path, Role::kIndex, i, {}, false});
      routes_.Add(Route{s.path + ".gz", Role::kIndex, i, {}, true});
    }
    std::vector<std::string> names =
        s.PartPattern().find("{section}") == std::string::npos ? std::vector<std::string>{} : s.sections;
    routes_.Add(Route{s.PartPattern(), Role::kPart, i, names, false});
    routes_.Add(Route{s.PartPattern() + ".gz", Role::kPart, i, names, true});
  }
  if (config_.status.enabled) {
    std::vector<std::pair<std::string, std::string>> served;
    for (const FeedConfig& f : config_.feeds) {
      if (!f.path.empty()) served.emplace_back(f.name, f.path);
    }
    for (const SetConfig& s : config_.sets) served.emplace_back(s.name, s.path);
    status_ = std::make_unique<StatusPage>(config_, std::move(served));
  }
  for (const FeedConfig& f : config_.feeds) {
    if (!f.robot.empty()) robots_.push_back(f.robot);
  }
  log_ = [](const std::string& line) {
    std::fprintf(stderr, "feed.fcgi: %s\n", line.c_str());
    std::fflush(stderr);
  };
  servers_.SetLog([this](const std::string& line) { log_(line); });
}

void App::CheckDatabase() {
  for (auto& d : documents_) d->Bind(servers_.primary());
  for (auto& s : sets_) s->Bind(servers_.primary());
  for (auto& m : msn_feeds_) m->Bind(servers_.primary());
}

MsnFeed* App::msn_feed(const std::string& path) {
  for (auto& m : msn_feeds_) {
    if (m->feed().config().path == path) return m.get();
  }
  return nullptr;
}

SyncReport App::SyncItems(const std::string& path, const std::function<void(size_t items)>& progress) {
  MsnFeed* m = msn_feed(path);
  if (!m) throw NotFound("no feed with lifecycle = msn has path " + path);
  return m->Sync(servers_, clock_, /*only_if_stale=*/false, progress);
}

CheckReport App::Check(const CheckOptions& options) {
  ProgramCheck p;
  p.config = &config_;
  p.servers = &servers_;
  for (auto& f : feeds_) p.targets.feeds.push_back(f.get());
  for (auto& f : full_walks_) p.targets.feeds.push_back(f.get());  // query_full: a walk of its own
  for (auto& s : sets_) p.targets.sets.push_back(s.get());
  for (auto& m : msn_feeds_) p.targets.msn.push_back(m.get());
  p.spool_path = spool_.path();
  p.status_page = status_ != nullptr;
  p.bind_all = [this] { CheckDatabase(); };
  p.check_spool = [this] { CheckSpool(); };
  return CheckProgram(p, clock_, options);
}

WriteReport App::WriteSet(const std::string& path, const std::string& dir,
                          const std::function<void(size_t rows)>& progress) {
  for (auto& s : sets_) {
    if (s->config().path == path) return s->Write(servers_, clock_, dir, progress);
  }
  throw NotFound("no set has path " + path + " (a [set NAME] section's path, such as /sitemap.xml)");
}

void App::Dispatch(const Request& req, Response& resp, FeedReport* report, std::string* served) {
  if (status_ && req.path_info == config_.status.path) {
    status_->Serve(req, servers_.primary(), clock_, resp, &servers_);
    return;
  }
  auto match = routes_.Match(req.path_info);
  if (!match) throw NotFound("no feed at this path");
  const Route& r = *match->route;
  switch (r.role) {
    case Role::kDocument:
      *served = documents_[r.target]->feed().config().name;
      break;
    case Role::kItems:
      *served = msn_feeds_[r.target]->feed().config().name;
      break;
    case Role::kIndex:
    case Role::kPart:
      *served = sets_[r.target]->config().name;
      break;
  }
  switch (r.role) {
    case Role::kDocument: {
      DocumentFeed& d = *documents_[r.target];
      d.Serve(req, servers_, clock_, resp, report);
      if (d.makes_pages_ahead() && resp.status() == 200 && req.method == "GET" && !report->continue_token.empty()) {
        next_page_ = NextPage{r.target, req, report->continue_token};
      }
      if (!report->visit_error.empty()) {
        log_("feed " + d.feed().config().name + ": the robot's visit was not recorded: " + report->visit_error);
      }
      for (const std::string& w : report->write_errors) {
        // The primary did not take it: counted for the status page.
        servers_.WriteFailed("feed " + d.feed().config().name + ": " + w);
        if (w.rfind("the robot's visit: ", 0) != 0) log_("feed " + d.feed().config().name + ": " + w);
      }
      Log(d.feed().config().name, *report);
      return;
    }
    case Role::kItems: {
      MsnFeed& m = *msn_feeds_[r.target];
      m.Serve(req, servers_, clock_, resp, report);
      Log(m.feed().config().name, *report);
      return;
    }
    case Role::kIndex:
      sets_[r.target]->ServeIndex(req, r.gzip, servers_, clock_, resp, report);
      Log(sets_[r.target]->config().name, *report);
      return;
    case Role::kPart:
      sets_[r.target]->ServePart(req, match->section, match->part, r.gzip, servers_, clock_, resp, report);
      Log(sets_[r.target]->config().name, *report);
      return;
  }
}

void App::Log(const std::string& name, const FeedReport& report) {
  for (const std::string& n : report.notes) log_("feed " + name + ": " + n);
  if (report.dropped) {
    std::string items;
    for (const std::string& s : report.dropped_items) items += (items.empty() ? "" : "; ") + s;
    if (report.dropped > report.dropped_items.size()) items += "; ...";
    log_("feed " + name + ": " + std::to_string(report.dropped) + " items left out: " + items);
  }
  if (report.noted) {
    std::string items;
    for (const std::string& s : report.noted_items) items += (items.empty() ? "" : "; ") + s;
    if (report.noted > report.noted_items.size()) items += "; ...";
    log_("feed " + name + ": " + std::to_string(report.noted) + " notes: " + items);
  }
  if (!report.skipped) return;
  std::string ids;
  for (const std::string& s : report.skipped_items) ids += (ids.empty() ? "" : "; ") + s;
  if (report.skipped > report.skipped_items.size()) ids += "; ...";
  log_("feed " + name + ": " + std::to_string(report.skipped) + " rows left out: " + ids);
}

int App::Handle(const Request& req, Sink& out, bool live, FeedReport* report) {
  FeedReport local;
  if (!report) report = &local;
  const auto began = std::chrono::steady_clock::now();
  std::string served;
  const int status = Answer(req, out, live, report, &served);
  // A 503 is a database that does not answer: its report would only wait
  // for it once more.
  if (live && status_ && !served.empty() && status != 503) {
    const auto took = std::chrono::steady_clock::now() - began;
    pending_ = MakeRunReport(served, req, status, *report, clock_.Now(),
                             std::chrono::duration_cast<std::chrono::milliseconds>(took).count(), robots_);
  }
  return status;
}

void App::RecordRun() {
  if (!pending_) return;
  RunReport r = std::move(*pending_);
  pending_.reset();
  try {
    RunReportStore(servers_.primary()).Save(r, config_.status.reports);
  } catch (const std::exception& e) {  // FeedError, and whatever else: the feed is served
    log_("feed " + r.feed + ": the run report was not recorded: " + e.what());
  }
}

void App::CheckSpool() {
  spool_.Check();
  if (config_.server.hand_off == HandOff::kRedirect) redirect_.Check();
}

Delivery App::LiveDelivery(int64_t now) {
  Delivery delivery;
  delivery.spool = &spool_;
  delivery.x_sendfile = config_.server.hand_off == HandOff::kXSendfile;
  if (config_.server.hand_off == HandOff::kRedirect) delivery.redirect = &redirect_;
  delivery.memory_limit = static_cast<size_t>(config_.server.spool_memory);
  delivery.now = now;
  return delivery;
}

void App::MakePageAhead() {
  if (!next_page_) return;
  NextPage next = std::move(*next_page_);
  next_page_.reset();
  DocumentFeed& d = *documents_[next.target];
  try {
    d.MakeNextPage(next.req, next.token, servers_, clock_, LiveDelivery(clock_.Now()));
  } catch (const std::exception& e) {  // FeedError, and whatever else: the request reads the page itself
    log_("feed " + d.feed().config().name + ": the next page was not made ahead: " + e.what());
    if (const auto* f = dynamic_cast<const FeedError*>(&e); f && f->kind() == ErrorKind::kUnavailable) {
      servers_.Disconnect();
    }
  }
}

int App::Answer(const Request& req, Sink& out, bool live, FeedReport* report, std::string* served) {
  Delivery delivery;
  next_page_.reset();
  if (live) {
    const UnixTime now = clock_.Now();
    // The web server has long opened what earlier requests named to it.
    spool_.Release(now);
    if (now - swept_ >= 300) {
      swept_ = now;
      spool_.Sweep();
      ahead_.Sweep();
    }
    delivery = LiveDelivery(now);
    delivery.script_name = req.script_name;
  }
  Response resp(out, true, req.method == "HEAD", delivery);
  try {
    if (req.method == "OPTIONS") {
      ResponseHead h;
      h.status = 204;
      h.Add("Allow", kAllow);
      resp.Start(h, false);
      resp.Finish();
      return 204;
    }
    if (req.method != "GET" && req.method != "HEAD") {
      resp.Error(405, "method " + req.method.substr(0, 16) + " not allowed: use GET or HEAD", {{"Allow", kAllow}});
      return 405;
    }
    Dispatch(req, resp, report, served);
    if (!live) next_page_.reset();  // the command line makes nothing ahead
    return resp.status();
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kClientGone) {
      log_(std::string("client went away: ") + e.what());
      // Streamed, a result may be half read: start clean. Spooled, the
      // query had ended before anything was sent.
      if (!live) servers_.Disconnect();
      return resp.sent() ? resp.status() : 499;
    }
    if (resp.sent()) {
      // Streamed (the command line): the body is cut where it stands, no
      // closing tags, no gzip trailer.
      log_(std::string("feed cut off after the body began: ") + e.what());
      if (e.kind() == ErrorKind::kUnavailable) servers_.Disconnect();
      return resp.status();
    }
    int status = HttpStatus(e.kind());
    if (status >= 500 && status != 503) log_(std::string("error: ") + e.what());
    if (e.kind() == ErrorKind::kFull) log_(std::string("no room to write: ") + e.what());
    else if (status == 503) log_(std::string("database unavailable: ") + e.what());
    try {
      if (status == 503) {
        resp.Error(503, (e.reason().empty() ? "the database is unavailable" : e.reason()) + "; try again later",
                   {{"Retry-After", "60"}});
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
    if (!resp.sent()) {
      try {
        resp.Error(500, "internal error; see the server log");
      } catch (const FeedError&) {
      }
    }
    return 500;
  }
}

}  // namespace feed
