// The request as the engine sees it, whatever way it came in (FastCGI, CGI,
// the command line), and the small HTTP rules every feed shares: query
// string parsing, content negotiation, conditional requests, the response
// head. Values are copied out of the web server's environment, so nothing
// here points into libfcgi's memory after the request ends.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "datetime.h"
#include "output.h"
#include "spool.h"

namespace feed {

struct Request {
  std::string method = "GET";
  std::string path_info;     // "/yads"
  std::string query_string;  // raw, still percent-encoded
  std::string if_none_match;
  std::string if_modified_since;
  std::string accept_encoding;
  std::string user_agent;
  std::string accept;         // Accept
  std::string authorization;  // Authorization (the status page's token)
  std::string remote_addr;    // the client's address, as the web server saw it
  std::string script_name;    // SCRIPT_NAME: the program's own URL path, "/cgi-bin/feed.fcgi"
};

// Builds a Request from CGI meta-variables, looked up through `get` (getenv,
// or FCGX_GetParam over the request's envp); absent ones are empty.
Request RequestFromEnvironment(const std::function<const char*(const char*)>& get);

// The decoded query parameters. Parse rejects, with FeedError(kBadRequest)
// and a message naming the problem: a query string over 2048 bytes, a bad
// %-escape, a name or value holding NUL, control characters, characters XML
// forbids (U+FFFE) or invalid UTF-8 after decoding, more than 16 parameters, the same name twice.
class QueryParams {
 public:
  static QueryParams Parse(std::string_view query_string);
  // The value of `name`, or nullopt when absent.
  std::optional<std::string> Get(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& all() const { return params_; }
  // Throws FeedError(kBadRequest) naming a parameter that is none of
  // `known` but that a careless client meant as one: the same name in
  // another case ("Date") or with brackets ("date[]", "date[0]"). Ignoring
  // it would answer the whole feed instead of the part asked for. Other
  // unknown parameters (utm_source) are left alone.
  void RefuseLookalikes(const std::vector<std::string>& known) const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

// True when Accept-Encoding allows gzip (or x-gzip, or '*') with q > 0.
bool AcceptsGzip(std::string_view accept_encoding);

// An entity tag (RFC 9110 §8.8.3): W/"opaque" (weak) or "opaque" (strong).
// The opaque part is ASCII from 0x21 to 0x7e but '"', or bytes from 0x80.
struct EntityTag {
  bool weak = false;
  std::string opaque;  // between the quotes
  // As sent in ETag: W/"opaque" or "opaque".
  std::string ToString() const;
  // One entity-tag, exactly (no spaces around it); nullopt when malformed,
  // such as an unquoted tag or a lower-case w/.
  static std::optional<EntityTag> Parse(std::string_view text);
};

// The comparisons of RFC 9110 §8.8.3.2: strong when both tags are strong
// and their opaque parts equal; weak when the opaque parts equal, W/ or not.
bool StrongMatch(const EntityTag& a, const EntityTag& b);
bool WeakMatch(const EntityTag& a, const EntityTag& b);

// An If-None-Match value: "*" alone, or a comma-separated list of entity
// tags, with spaces and empty elements allowed around them (RFC 9110
// §5.6.1, §13.1.2). nullopt when the value is neither, or is empty.
struct EntityTagList {
  bool any = false;  // "*"
  std::vector<EntityTag> tags;
  static std::optional<EntityTagList> Parse(std::string_view text);
};

// If-None-Match against the current entity tag `etag` (as sent in ETag,
// weak or strong): true for "*" or when a listed tag is equal by weak
// comparison, as RFC 9110 §13.1.2 says for GET and HEAD. A malformed value
// matches nothing.
bool NoneMatchHits(std::string_view if_none_match, std::string_view etag);

// What a conditional request is checked against: an entity tag (as sent:
// W/"..." where bodies of one state differ in bytes but not in meaning,
// "..." where they are the same bytes) and the moment of the last change,
// either may be absent.
struct Validators {
  std::string etag;
  std::optional<UnixTime> last_modified;
  // True when the client holds the current representation: If-None-Match
  // when the request has one (If-Modified-Since is then ignored, RFC 9110
  // §13.1.3), else If-Modified-Since (a date that does not parse is
  // ignored; `now`, the clock's, places a two-digit year, ParseHttpDate).
  bool Match(const Request& req, UnixTime now) const;
};

// The head of a response; written as CGI headers ("Status: 200 OK").
struct ResponseHead {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  void Add(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
  void Add(const Validators& v);  // ETag and Last-Modified, those that are set
  std::string Serialize() const;
};

// How a live response reaches the client (the config's [server] section).
struct Delivery {
  // Where bodies wait until they are whole; nullptr: the body streams out
  // as it is made (the command line).
  SpoolDir* spool = nullptr;
  // Bodies over memory_limit are handed to the web server by name
  // (X-Sendfile) instead of being sent by the program; the web server also
  // compresses them, so the program never gzips (Content-Encoding is the
  // web server's).
  bool x_sendfile = false;
  size_t memory_limit = 256 << 10;
  int64_t now = 0;  // UnixTime of the request: when a file it names was named
  // The response is kept, not sent (a page made ahead, page_ahead.h):
  // Finish leaves the head and the body's file for Kept. REQUIRES: spool.
  bool keep = false;
  // hand_off = redirect: bodies over memory_limit are published there and
  // the client is sent to them (302); the program then never gzips either
  // (the web server compresses static files, where it does).
  RedirectDir* redirect = nullptr;
  std::string script_name{};  // the request's SCRIPT_NAME, for RedirectDir::Publish
};

// One response: the head once, then the body (gzip-encoded when chosen,
// nothing at all for HEAD). `with_head` is false on the command line, where
// only the body is wanted. With a spool, nothing reaches `out` before
// Finish: the whole body is made first, then sent with its Content-Length
// (or named to the web server), so a failure before Finish can still be
// answered with Error.
class Response : public Sink {
 public:
  Response(Sink& out, bool with_head, bool head_only, Delivery delivery = {});
  ~Response() override;
  // Adds Content-Encoding when the body is gzipped here. REQUIRES:
  // !started().
  void Start(const ResponseHead& head, bool gzip);
  void Write(std::string_view body) override;
  // 304 with the validators and Vary, no body. REQUIRES: !started().
  void NotModified(const Validators& v);
  // Ends the body (the gzip trailer) and sends what waited. Not called when
  // the feed failed midway: a streamed body then stays cut, a spooled one
  // is never sent.
  void Finish();
  // A kept response (Delivery::keep) after Finish: its head and its body's
  // file, given over to the caller (size bytes; "" without a body).
  struct KeptBody {
    ResponseHead head;
    std::string body;
    uint64_t size = 0;
  };
  KeptBody TakeKept() { return std::move(kept_); }
  // Sends a response made earlier and kept (a page made ahead): `head` as
  // it was kept, the body from file `body` (`size` bytes), which this
  // response now owns. REQUIRES: !started(), a spool.
  void SendKept(const ResponseHead& head, const std::string& body, uint64_t size);
  // The body, however large, is sent by the program itself, never handed
  // off by redirect: a robot's feed, whose visit is recorded only when the
  // program sent the whole of it. Call before Start (it also lets the
  // program gzip the body).
  void SendItself() { delivery_.redirect = nullptr; }
  bool started() const { return started_; }
  // Bytes went to `out`: the answer can no longer change.
  bool sent() const { return sent_; }
  int status() const { return status_; }
  // A one-line text/plain answer: 4xx, 503 (with Retry-After) or 500.
  // REQUIRES: !sent(); a spooled body begun is dropped. The line is held
  // in memory, never in the spool folder (which may be the one full).
  void Error(int status, std::string_view message, const std::vector<std::pair<std::string, std::string>>& extra = {});

 private:
  void SendHead(const ResponseHead& head);
  Sink& out_;
  bool with_head_, head_only_;
  Delivery delivery_;
  bool started_ = false, sent_ = false;
  int status_ = 0;
  ResponseHead head_;             // spooled: sent at Finish
  std::unique_ptr<Spool> spool_;  // spooled: the body so far
  std::unique_ptr<GzipSink> gzip_;
  KeptBody kept_;                 // Delivery::keep: what Finish kept
};

// Starts `resp` with `head` at the first byte written through it, so that
// a failure before then (the database, on the first chunk) can still be
// answered cleanly.
class StartingSink : public Sink {
 public:
  StartingSink(Response& resp, const ResponseHead& head, bool gzip) : resp_(resp), head_(head), gzip_(gzip) {}
  void Write(std::string_view b) override {
    if (!resp_.started()) resp_.Start(head_, gzip_);
    resp_.Write(b);
  }

 private:
  Response& resp_;
  const ResponseHead& head_;
  bool gzip_;
};

}  // namespace feed
