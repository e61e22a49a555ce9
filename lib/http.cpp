#include "http.h"

#include <algorithm>

#include "ascii.h"
#include "error.h"
#include "stop_point.h"
#include "xml_text.h"

namespace feed {
namespace {

constexpr size_t kMaxQueryString = 2048;
constexpr size_t kMaxParams = 16;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      int hi = i + 2 < s.size() ? HexValue(s[i + 1]) : -1;
      int lo = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) throw BadRequest("bad %-escape in the query string: write %XX with two hex digits");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

void CheckText(const std::string& s, const std::string& what) {
  for (size_t i = 0; i < s.size();) {
    size_t len;
    auto cp = DecodeUtf8(std::string_view(s).substr(i), &len);
    if (!cp) throw BadRequest(what + " is not valid UTF-8");
    if (*cp < 0x20 || *cp == 0x7f || !IsXmlChar(*cp))
      throw BadRequest(what + " holds a control character or a non-character");
    i += len;
  }
}

}  // namespace

Request RequestFromEnvironment(const std::function<const char*(const char*)>& get) {
  auto v = [&](const char* name) {
    const char* s = get(name);
    return std::string(s ? s : "");
  };
  Request r;
  r.method = v("REQUEST_METHOD");
  if (r.method.empty()) r.method = "GET";
  r.path_info = v("PATH_INFO");
  r.query_string = v("QUERY_STRING");
  r.if_none_match = v("HTTP_IF_NONE_MATCH");
  r.if_modified_since = std::string(TrimSpace(v("HTTP_IF_MODIFIED_SINCE")));
  r.accept_encoding = v("HTTP_ACCEPT_ENCODING");
  r.user_agent = v("HTTP_USER_AGENT");
  r.accept = v("HTTP_ACCEPT");
  r.authorization = v("HTTP_AUTHORIZATION");
  r.remote_addr = v("REMOTE_ADDR");
  r.script_name = v("SCRIPT_NAME");
  return r;
}

QueryParams QueryParams::Parse(std::string_view qs) {
  if (qs.size() > kMaxQueryString) {
    throw BadRequest("query string too long (" + std::to_string(qs.size()) + " bytes; at most " +
                     std::to_string(kMaxQueryString) + ")");
  }
  QueryParams out;
  size_t pos = 0;
  while (pos <= qs.size()) {
    size_t amp = qs.find('&', pos);
    if (amp == std::string_view::npos) amp = qs.size();
    std::string_view part = qs.substr(pos, amp - pos);
    pos = amp + 1;
    if (part.empty()) {
      if (amp == qs.size()) break;
      continue;
    }
    size_t eq = part.find('=');
    std::string name = PercentDecode(part.substr(0, eq));
    std::string value = eq == std::string_view::npos ? "" : PercentDecode(part.substr(eq + 1));
    CheckText(name, "a parameter name");
    if (name.empty()) throw BadRequest("a parameter without a name");
    CheckText(value, "the value of parameter '" + name.substr(0, 32) + "'");
    for (const auto& [n, _] : out.params_) {
      if (n == name) throw BadRequest("parameter '" + name.substr(0, 32) + "' given more than once");
    }
    if (out.params_.size() == kMaxParams) throw BadRequest("too many parameters");
    out.params_.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

std::optional<std::string> QueryParams::Get(std::string_view name) const {
  for (const auto& [n, v] : params_) {
    if (n == name) return v;
  }
  return std::nullopt;
}

void QueryParams::RefuseLookalikes(const std::vector<std::string>& known) const {
  for (const auto& [name, _] : params_) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string_view bare = std::string_view(name).substr(0, name.find('['));
    for (const std::string& k : known) {
      if (EqualsNoCase(bare, k)) {
        throw BadRequest("unknown parameter '" + name.substr(0, 32) + "'; this feed takes '" + k + "'");
      }
    }
  }
}

bool AcceptsGzip(std::string_view ae) {
  bool star = false, gzip = false, gzip_listed = false;
  size_t pos = 0;
  while (pos <= ae.size()) {
    size_t comma = ae.find(',', pos);
    if (comma == std::string_view::npos) comma = ae.size();
    std::string_view item = TrimSpace(ae.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) continue;
    std::string_view coding = TrimSpace(item.substr(0, item.find(';')));
    double q = 1.0;
    size_t semi = item.find(';');
    while (semi != std::string_view::npos) {
      size_t next = item.find(';', semi + 1);
      std::string_view p =
          TrimSpace(item.substr(semi + 1, next == std::string_view::npos ? std::string_view::npos : next - semi - 1));
      if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
        std::string num(p.substr(2));
        char* end = nullptr;
        q = std::strtod(num.c_str(), &end);
        if (end == num.c_str() || q < 0) q = 0;
      }
      semi = next;
    }
    if (EqualsNoCase(coding, "gzip") || EqualsNoCase(coding, "x-gzip")) {
      gzip_listed = true;
      gzip = q > 0;
    } else if (coding == "*") {
      star = q > 0;
    }
  }
  return gzip_listed ? gzip : star;
}

std::string EntityTag::ToString() const { return (weak ? "W/\"" : "\"") + opaque + "\""; }

std::optional<EntityTag> EntityTag::Parse(std::string_view s) {
  EntityTag t;
  if (s.substr(0, 2) == "W/") {  // case-sensitive: %s"W/"
    t.weak = true;
    s.remove_prefix(2);
  }
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  s = s.substr(1, s.size() - 2);
  for (unsigned char c : s) {
    if (c < 0x21 || c == '"' || c == 0x7f) return std::nullopt;
  }
  t.opaque = std::string(s);
  return t;
}

bool StrongMatch(const EntityTag& a, const EntityTag& b) { return !a.weak && !b.weak && a.opaque == b.opaque; }
bool WeakMatch(const EntityTag& a, const EntityTag& b) { return a.opaque == b.opaque; }

std::optional<EntityTagList> EntityTagList::Parse(std::string_view s) {
  EntityTagList list;
  if (TrimSpace(s) == "*") {
    list.any = true;
    return list;
  }
  // Members are found by their quotes, not by commas: an opaque tag may
  // hold a comma.
  size_t i = 0;
  for (;;) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == ',')) ++i;
    if (i == s.size()) break;
    size_t start = i;
    if (s.substr(i, 2) == "W/") i += 2;
    if (i == s.size() || s[i] != '"') return std::nullopt;
    size_t close = s.find('"', i + 1);
    if (close == std::string_view::npos) return std::nullopt;
    auto tag = EntityTag::Parse(s.substr(start, close + 1 - start));
    if (!tag) return std::nullopt;
    list.tags.push_back(std::move(*tag));
    i = close + 1;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i < s.size() && s[i] != ',') return std::nullopt;
  }
  if (list.tags.empty()) return std::nullopt;
  return list;
}

bool NoneMatchHits(std::string_view inm, std::string_view etag) {
  auto list = EntityTagList::Parse(inm);
  if (!list) return false;
  // GET and HEAD of a feed always find a current representation.
  if (list->any) return true;
  auto current = EntityTag::Parse(etag);
  if (!current) return false;
  return std::any_of(list->tags.begin(), list->tags.end(), [&](const EntityTag& t) { return WeakMatch(t, *current); });
}

bool Validators::Match(const Request& req, UnixTime now) const {
  if (!req.if_none_match.empty()) return NoneMatchHits(req.if_none_match, etag);
  if (req.if_modified_since.empty() || !last_modified) return false;
  auto ims = ParseHttpDate(req.if_modified_since, now);
  return ims && *last_modified <= *ims;
}

void ResponseHead::Add(const Validators& v) {
  if (!v.etag.empty()) Add("ETag", v.etag);
  if (v.last_modified) Add("Last-Modified", FormatHttpDate(*v.last_modified));
}

std::string ResponseHead::Serialize() const {
  std::string s = "Status: " + std::to_string(status) + " " + HttpReason(status) + "\r\n";
  for (const auto& [n, v] : headers) s += n + ": " + v + "\r\n";
  s += "\r\n";
  return s;
}

Response::Response(Sink& out, bool with_head, bool head_only, Delivery delivery)
    : out_(out), with_head_(with_head), head_only_(head_only), delivery_(delivery) {}

Response::~Response() = default;

void Response::SendHead(const ResponseHead& head) {
  sent_ = true;
  if (with_head_) out_.Write(head.Serialize());
}

void Response::Start(const ResponseHead& head, bool gzip) {
  started_ = true;
  status_ = head.status;
  ResponseHead h = head;
  h.Add("X-Content-Type-Options", "nosniff");
  const bool zip = gzip && head.status == 200 && !delivery_.x_sendfile && !delivery_.redirect;
  if (zip) h.Add("Content-Encoding", "gzip");
  const bool body = !head_only_ && head.status != 204 && head.status != 304;
  if (delivery_.spool) {
    head_ = std::move(h);
    if (body) spool_ = std::make_unique<Spool>(*delivery_.spool, delivery_.memory_limit);
  } else {
    SendHead(h);
  }
  if (zip && body) gzip_ = std::make_unique<GzipSink>(spool_ ? static_cast<Sink&>(*spool_) : out_);
}

void Response::Write(std::string_view body) {
  if (head_only_ || body.empty()) return;
  if (gzip_)
    gzip_->Write(body);
  else if (spool_)
    spool_->Write(body);
  else
    out_.Write(body);
}

void Response::NotModified(const Validators& v) {
  ResponseHead nm;
  nm.status = 304;
  nm.Add(v);
  nm.Add("Vary", "Accept-Encoding");
  Start(nm, false);
  Finish();
}

namespace {

// The Content-Type a head names ("" when none).
std::string ContentTypeOf(const ResponseHead& h) {
  for (const auto& [name, value] : h.headers) {
    if (EqualsNoCase(name, "Content-Type")) return value;
  }
  return "";
}

}  // namespace

void Response::Finish() {
  if (gzip_) gzip_->Finish();
  if (delivery_.keep) {
    kept_.head = std::move(head_);
    if (spool_) {
      kept_.size = spool_->size();
      kept_.body = spool_->Keep();
    }
    gzip_.reset();
    spool_.reset();
    return;
  }
  if (delivery_.spool && !sent_) {
    ResponseHead h = std::move(head_);
    if (spool_ && delivery_.x_sendfile && !spool_->in_memory()) {
      h.Add("X-Sendfile", spool_->Publish(delivery_.now));
      StopPoint("handoff.named");
      SendHead(h);
    } else if (spool_ && delivery_.redirect && !spool_->in_memory() && h.status == 200) {
      ResponseHead moved;
      moved.status = 302;
      moved.Add("Location", delivery_.redirect->Publish(*spool_, ContentTypeOf(h), delivery_.now, delivery_.script_name));
      moved.Add("Cache-Control", "no-store");
      moved.Add("Content-Length", "0");
      StopPoint("handoff.moved");
      SendHead(moved);
    } else if (spool_) {
      spool_->Flush();  // the whole body in its file before the head goes out
      h.Add("Content-Length", std::to_string(spool_->size()));
      SendHead(h);
      spool_->CopyTo(out_);
    } else {
      SendHead(h);
    }
    gzip_.reset();
    spool_.reset();
  }
  out_.Flush();
}

void Response::SendKept(const ResponseHead& head, const std::string& body, uint64_t size) {
  started_ = true;
  status_ = head.status;
  head_ = head;
  spool_ = Spool::Adopt(*delivery_.spool, body, size);
  Finish();
}

void Response::Error(int status, std::string_view message,
                     const std::vector<std::pair<std::string, std::string>>& extra) {
  gzip_.reset();
  spool_.reset();
  // A line of text, held in memory: an error is answered even when the
  // spool folder has no room (the 503 that says so).
  delivery_.memory_limit = SIZE_MAX;
  ResponseHead h;
  h.status = status;
  h.Add("Content-Type", "text/plain; charset=utf-8");
  h.Add("Cache-Control", "no-store");
  for (const auto& [n, v] : extra) h.Add(n, v);
  Start(h, false);
  Write(std::string(message) + "\n");
  Finish();
}

}  // namespace feed
