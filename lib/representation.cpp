#include "representation.h"

namespace feed {

void JoinBodyReport(RenderReport body, FeedReport* report) {
  RenderReport& own = *report;
  const size_t skipped_before = own.skipped;
  std::vector<std::string> items_before = std::move(own.skipped_items);
  own = std::move(body);
  own.skipped += skipped_before;
  for (std::string& s : items_before) own.skipped_items.push_back(std::move(s));
}

bool Respond(const Request& req, const Representation& rep, const Clock& clock, Response& resp, FeedReport* report) {
  if (rep.validators.Match(req, clock.Now())) {
    resp.NotModified(rep.validators);
    report->complete = true;
    return false;
  }
  ResponseHead head = rep.head;
  head.Add(rep.validators);
  if (req.method == "HEAD") {
    if (rep.before_head) rep.before_head();
    resp.Start(head, rep.gzip);
    resp.Finish();
    report->complete = true;
    return false;
  }
  StartingSink body(resp, head, rep.gzip);
  JoinBodyReport(rep.write_body(body), report);
  if (!resp.started()) resp.Start(head, rep.gzip);
  resp.Finish();
  report->complete = true;
  return true;
}

}  // namespace feed
