#include "document.h"

#include <unistd.h>

#include <algorithm>

#include "ascii.h"
#include "datetime.h"
#include "error.h"
#include "page_ahead.h"
#include "representation.h"
#include "stop_point.h"

namespace feed {

DocumentFeed::DocumentFeed(Feed& feed, Feed* full) : feed_(feed), full_(full) {
  if (!feed_.config().secret.empty()) codec_ = std::make_unique<ContinueTokenCodec>(feed_.config().secret);
}

void DocumentFeed::Bind(Database& db) {
  feed_.Bind(db);
  if (full_) full_->Bind(db);
  if (feed_.config().since == SinceSource::kRobot) StateStore(db).CheckVisits();
}

std::string DocumentFeed::SinceMoment(const Request& req, const QueryParams& params, ReplicaSet& servers,
                                      UnixTime now, std::string* record_error) const {
  const FeedConfig& c = feed_.config();
  if (c.since == SinceSource::kParam) {
    auto v = params.Get(c.since_param);
    if (!v) return "";
    auto t = ParseSqlDateTime(*v);
    if (!t) {
      throw BadRequest(c.since_param + " must be YYYY-MM-DD HH:MM:SS in the site's time, such as 2026-11-01 09:30:00");
    }
    return FormatSqlDateTime(*t);
  }
  if (c.since == SinceSource::kRobot) {
    // After the robot's last visit: If-Modified-Since when the request has
    // one (an unreadable one is ignored, as HTTP says), else the record.
    if (auto ims = req.if_modified_since.empty() ? std::nullopt : ParseHttpDate(req.if_modified_since, now)) {
      return FormatSqlDateTime(feed_.zone().FromUnix(*ims));
    }
    // A visit may have been cut where the program could not see it (the
    // web server and the kernel had taken the whole response): with
    // overlap_visits, each change goes out again in the next visit too.
    // No record, or only one with overlap: everything.
    Visits visits;
    try {
      visits = StateStore(servers.primary()).LoadVisits(c.robot, c.name);
    } catch (const FeedError& e) {
      // Only the primary's record counts (two nodes must not disagree on
      // what the robot saw); without it, everything current is served.
      if (e.kind() != ErrorKind::kUnavailable || !servers.has_replicas()) throw;
      *record_error = e.what();
      return "";
    }
    if (auto since = c.overlap_visits ? visits.previous : visits.last) return *since;
  }
  return "";
}

DocumentFeed::Start DocumentFeed::Begin(const Request& req, ReplicaSet& servers, const Clock& clock) const {
  const FeedConfig& c = feed_.config();
  // Client input is checked before the database is asked anything, so a
  // bad request is a 400 even while the database is down.
  QueryParams params = QueryParams::Parse(req.query_string);
  std::vector<std::string> known;
  if (c.since == SinceSource::kParam) known.push_back(c.since_param);
  if (!c.continue_param.empty()) known.push_back(c.continue_param);
  params.RefuseLookalikes(known);
  Start s;
  s.since = SinceMoment(req, params, servers, clock.Now(), &s.record_error);
  const int64_t now = NaiveSeconds(feed_.zone().FromUnix(clock.Now()));
  std::optional<ContinueToken> token;
  if (!c.continue_param.empty()) {
    if (auto v = params.Get(c.continue_param)) {
      s.token_text = *v;
      token = codec_->Decode(s.token_text, Binding(s.since), now);
      if (!token || token->keyset.size() != Walk(s.since).config().keyset.size()) {
        throw BadRequest(c.continue_param + " is not a token this feed issued for this " +
                         (c.since == SinceSource::kParam ? c.since_param : std::string("request")) + "; start again without " +
                         c.continue_param);
      }
    }
  }
  s.run_start = now;
  if (token) {
    // A good MAC says this feed wrote the token, not that what it carries is
    // sane (the secret may have leaked): the run must be recent. The keyset
    // position is checked in Serve, once the columns' types are known.
    if (std::string why = RunStartUnfit(token->run_start, now, c.max_run_seconds); !why.empty()) {
      throw BadRequest(c.continue_param + " is a token of a run that " + why + "; start again without " +
                       c.continue_param);
    }
    s.run_start = token->run_start;
    s.after = token->keyset;
    s.at = token->position;  // empty for a token of before replicas: the primary
  } else if (c.since == SinceSource::kRobot && servers.has_replicas() && s.record_error.empty()) {
    // Everything the primary held as the visit begins, so that the rows
    // the record will say were seen are all there.
    s.at = servers.PrimaryPosition();
  }
  return s;
}

void DocumentFeed::RecordVisit(Database& db, int64_t run_start, FeedReport* report) const {
  const FeedConfig& c = feed_.config();
  try {
    StateStore store(db);
    // Never past the database's clock (the header says why).
    const int64_t server_now = NaiveSeconds(feed_.zone().FromUnix(store.ServerNow()));
    if (run_start > server_now) {
      report->notes.push_back("the web server's clock is " + std::to_string(run_start - server_now) +
                              " s ahead of the database's: the robot's visit was recorded at the database's time");
      run_start = server_now;
    }
    store.RecordVisit(c.robot, c.name, FormatSqlDateTime(FromNaiveSeconds(run_start - c.settle_seconds)),
                      FormatSqlDateTime(FromNaiveSeconds(run_start)));
    report->visit_recorded = true;
  } catch (const FeedError& e) {
    // The feed was delivered; the robot will get these rows again.
    report->visit_error = e.what();
  }
}

std::string DocumentFeed::PageIdentity(const Start& start, bool gzip) const {
  return Binding(start.since) + '\n' + start.token_text + (gzip ? "\ngzip" : "\nidentity");
}

void DocumentFeed::Serve(const Request& req, ReplicaSet& servers, const Clock& clock, Response& resp,
                         FeedReport* report) {
  Start start = Begin(req, servers, clock);
  if (ahead_ && req.method == "GET" && !start.token_text.empty() && req.if_none_match.empty() &&
      req.if_modified_since.empty()) {
    if (auto page = ahead_->Take(PageIdentity(start, AcceptsGzip(req.accept_encoding)), clock.Now())) {
      resp.SendKept(page->head, page->body, page->size);
      *report = std::move(page->report);
      report->made_ahead = true;
      return;
    }
  }
  const ReplicaSet::Source source = servers.ForRead(start.at);
  report->read_from = *source.name;
  if (!start.record_error.empty()) {
    report->visit_error = "the robot's record could not be read, every current item was served: " + start.record_error;
  }
  try {
    Serve(req, start, servers, source, clock, resp, report);
  } catch (const FeedError& e) {
    if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
    throw;
  }
}

void DocumentFeed::MakeNextPage(const Request& req, const std::string& token, ReplicaSet& servers, const Clock& clock,
                                Delivery delivery) {
  if (!ahead_) return;
  const Start first = Begin(req, servers, clock);
  const bool gzip = AcceptsGzip(req.accept_encoding);
  Request next = req;
  next.method = "GET";
  next.if_none_match.clear();
  next.if_modified_since.clear();
  delivery.keep = true;
  // The pages after the one `req` got, up to page_ahead of them: each one
  // made already (by this process or another) is passed over to the one
  // after it.
  std::string at_token = token;
  for (int n = 0; n < feed_.config().page_ahead && !at_token.empty(); ++n) {
    // The page's start, as its request will give it: the same since-moment,
    // the run's start, position and replication position from the token.
    Start start = first;
    auto decoded = codec_->Decode(at_token, Binding(start.since), NaiveSeconds(feed_.zone().FromUnix(clock.Now())));
    if (!decoded) throw InternalError("the next page's token does not decode");
    start.token_text = at_token;
    start.run_start = decoded->run_start;
    start.after = decoded->keyset;
    start.at = decoded->position;
    const std::string identity = PageIdentity(start, gzip);
    std::unique_ptr<PagesAhead::Making> making = ahead_->Begin(identity);
    if (!making) {
      // Made already: on to the page after it. Being made: its maker goes on.
      at_token = ahead_->NextToken(identity).value_or("");
      continue;
    }
    StringSink nothing;
    Response resp(nothing, true, false, delivery);
    FeedReport report;
    const ReplicaSet::Source source = servers.ForRead(start.at);
    report.read_from = *source.name;
    try {
      Serve(next, start, servers, source, clock, resp, &report);
    } catch (const FeedError& e) {
      if (e.kind() == ErrorKind::kUnavailable) servers.ReadFailed(source);
      throw;
    }
    Response::KeptBody kept = resp.TakeKept();
    if (kept.head.status != 200 || kept.body.empty()) {
      if (!kept.body.empty()) ::unlink(kept.body.c_str());
      return;
    }
    StopPoint("ahead.made");
    making->Done(kept.head, kept.body, kept.size, report, clock.Now());
    at_token = report.continue_token;
  }
}

void DocumentFeed::Serve(const Request& req, Start& start, ReplicaSet& servers, const ReplicaSet::Source& source,
                         const Clock& clock, Response& resp, FeedReport* report) {
  const FeedConfig& c = feed_.config();
  Database& db = *source.db;
  Bind(db);
  Feed& walk = Walk(start.since);
  if (start.after.empty()) {
    start.after = walk.keyset().First(start.since);
  } else if (std::string why = walk.keyset().Unfit(start.after, start.since); !why.empty()) {
    throw BadRequest(c.continue_param + " is not a position of this feed: " + why + "; start again without " +
                     c.continue_param);
  }
  SqlParams params = walk.RunParams(start.since, FormatSqlDateTime(FromNaiveSeconds(start.run_start)));
  walk.keyset().BindAfter(start.after, &params);
  walk.keyset().BindUntil(walk.keyset().Last(), &params);
  // A page is page_size rows, and one more read tells whether another
  // follows; a feed of the newest items is max_items rows.
  const bool paged = c.page_size > 0;
  const size_t page = paged ? static_cast<size_t>(c.page_size) : static_cast<size_t>(c.max_items);
  // The rows the response looks at, for a state query that bounds itself
  // as the page does: a paged feed reads one more row to know whether a
  // continue token follows.
  params["limit"] = static_cast<int64_t>(page ? page + paged : INT32_MAX);

  Representation rep;
  rep.head.Add("Content-Type", c.content_type + "; charset=" + CharsetName(c.encoding));
  rep.head.Add("Vary", "Accept-Encoding");
  rep.gzip = AcceptsGzip(req.accept_encoding);
  // A robot's visit counts only when the program sent the whole of it.
  if (c.since == SinceSource::kRobot) resp.SendItself();
  // The entity tag covers everything the body depends on but the moment it
  // was made. A page reached by a continue token serves one robot's run:
  // it has no Last-Modified, so that its state is not recorded page by page.
  const Feed::StateView state =
      walk.State(db, servers.primary(), params, start.since + '\x1f' + start.token_text + '\x1f', rep.gzip,
                 start.token_text.empty() ? std::optional(clock.Now()) : std::nullopt);
  if (!state.seen_error.empty()) report->write_errors.push_back(state.seen_error);
  rep.validators = state.validators;

  // The rows, read once the validators did not answer.
  std::unique_ptr<ChunkReader> reader;
  std::optional<KeysetRows> rows;
  auto open = [&] {
    reader = walk.Reader(db, params);
    rows.emplace(*reader, walk.keyset(), start.after, std::nullopt, static_cast<size_t>(c.fetch_rows),
                 page ? page + 1 : SIZE_MAX);
  };
  rep.before_head = [&] {
    open();
    rows->Next();  // the first chunk, so that a database failure is still a 503
  };
  rep.write_body = [&](Sink& body) {
    open();
    return RenderPage(walk, start, servers, source, clock, state, *rows, body, report);
  };
  if (!Respond(req, rep, clock, resp, report)) return;  // a 304 or a HEAD: the robot saw nothing new

  // The robot got the whole feed: next time it gets what changed after the
  // snapshot (less the settle margin, for rows still being committed then).
  // A person looking at the feed moves nothing.
  if (c.since == SinceSource::kRobot && ContainsNoCase(req.user_agent, c.robot) && !start.record_error.empty()) {
    report->write_errors.push_back("the robot's visit: " + report->visit_error);
  } else if (c.since == SinceSource::kRobot && ContainsNoCase(req.user_agent, c.robot)) {
    StopPoint("send.done");
    RecordVisit(servers.primary(), start.run_start, report);
    if (!report->visit_error.empty()) report->write_errors.push_back("the robot's visit: " + report->visit_error);
  }
}

RenderReport DocumentFeed::RenderPage(Feed& walk, const Start& start, ReplicaSet& servers,
                                      const ReplicaSet::Source& source, const Clock& clock,
                                      const Feed::StateView& state, KeysetRows& rows, Sink& body,
                                      FeedReport* report) const {
  const FeedConfig& c = feed_.config();
  const bool paged = c.page_size > 0;
  const size_t page = paged ? static_cast<size_t>(c.page_size) : static_cast<size_t>(c.max_items);
  std::function<std::string(const Position&)> unfit;
  if (paged) {
    unfit = [&](const Position& p) { return ContinueTokenCodec::Unfit(start.run_start, p); };
  }
  DocumentRenderer renderer(walk.tmpl(), rows, Limits{page, 0}, walk.lastmod_column(), unfit);
  DocumentValues doc;
  doc.name = c.name;
  doc.date = FormatSqlDateTime(FromNaiveSeconds(start.run_start - c.settle_seconds));
  // Never after now: a row stamped ahead (a board's clock ahead) says now.
  doc.updated = state.newest ? FormatSqlDateTime(feed_.zone().FromUnix(std::min(*state.newest, clock.Now())))
                             : FormatSqlDateTime(FromNaiveSeconds(start.run_start));
  RenderReport r = renderer.Segment(body, doc, [&](const RenderReport& r, DocumentValues* d) {
    if (!paged || !r.more) return;
    d->more = true;
    // Rows left out at the start of a page still move it on.
    // The position this page's rows were read at (asked after them):
    // the next page is read from no older state. One too large for the
    // token is left out of it, and the next page is the primary's.
    d->continue_token =
        codec_->Encode(ContinueToken{start.run_start, r.has_last ? r.last : start.after, servers.PositionOf(source)},
                       Binding(start.since));
    report->continue_token = d->continue_token;
  });
  if (!paged) r.more = false;
  return r;
}

}  // namespace feed
