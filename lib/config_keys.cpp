#include "config_keys.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iterator>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "address_range.h"
#include "ascii.h"
#include "continue_token.h"
#include "error.h"
#include "url.h"

extern char** environ;

namespace feed {

std::string ConfigWhere(const std::string& file, int line) { return file + ":" + std::to_string(line) + ": "; }

bool IsConfigName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

std::vector<std::string> ConfigWords(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) {
    if (!w.empty() && w.back() == ',') w.pop_back();
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

ConfigEnvironment ConfigEnvironment::FromProcess() {
  ConfigEnvironment env;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view v = *e;
    const size_t eq = v.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string name(v.substr(0, eq));
    if (name.rfind("FEED_", 0) == 0 || name == "TZDIR") env.vars[name] = std::string(v.substr(eq + 1));
  }
  return env;
}

std::optional<std::string> ConfigEnvironment::Get(const std::string& name) const {
  auto it = vars.find(name);
  if (it == vars.end()) return std::nullopt;
  return it->second;
}

std::string KeyInput::Where() const { return ConfigWhere(source.file, value.line); }

void KeyInput::Refuse(const std::string& what) const { throw ConfigError(Where() + what); }

int KeyInput::Int() const {
  const std::string& s = value.value;
  const bool digits = !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  const int n = digits ? std::atoi(s.c_str()) : -1;
  if (!digits || n < lo || n > hi) {
    Refuse(key + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + s +
           "'");
  }
  return n;
}

bool KeyInput::Flag() const {
  if (value.value != "0" && value.value != "1") Refuse(key + " must be 0 or 1");
  return value.value == "1";
}

std::string KeyInput::Path() const {
  const std::string& p = value.value;
  if (!p.empty() && p[0] == '/') return p;
  return source.base_dir + "/" + p;
}

namespace {

// Reads every line of `sec` through `keys`; a key not in the table goes to
// `other` (value.KEY, child.NAME), which returns false for an unknown one.
template <class T, size_t N>
void LoadKeys(const IniSection& sec, const ConfigSource& source, const ConfigKey<T> (&keys)[N], T* out,
              const std::string& section_name, bool (*other)(const KeyInput&, T*) = nullptr) {
  for (const auto& entry : sec.entries) {
    // Named, not bound: clang 14 cannot capture a structured binding.
    const std::string& key = entry.first;
    const IniValue& v = entry.second;
    const ConfigKey<T>* it =
        std::find_if(std::begin(keys), std::end(keys), [&](const ConfigKey<T>& k) { return key == k.name; });
    const bool known = it != std::end(keys);
    KeyInput in{key, v, source, known ? it->lo : 0, known ? it->hi : 0};
    if (known) {
      it->load(in, out);
    } else if (!other || !other(in, out)) {
      in.Refuse("unknown key '" + key + "' in [" + section_name + "]");
    }
  }
}

// A site path: "/..." with no "..", '?', '#', '%' or spaces.
std::string SitePath(const KeyInput& in) {
  const std::string& s = in.value.value;
  if (s.size() < 2 || s[0] != '/' || s.find("..") != std::string::npos ||
      s.find_first_of("?#% \t") != std::string::npos) {
    in.Refuse("path must start with '/' and hold no '..', '?', '#', '%' or spaces");
  }
  return s;
}

// A secret or token: never echoed in a message.
std::string Secret(const KeyInput& in) {
  if (std::string why = SecretUnfit(in.value.value); !why.empty()) in.Refuse(in.key + " " + why);
  return in.value.value;
}

std::string ConnectionCharset(const KeyInput& in) {
  const std::string& s = in.value.value;
  if (s != "utf8mb4" && s != "utf8" && s != "cp1251") in.Refuse(in.key + " must be utf8mb4, utf8 or cp1251");
  return s;
}

// A file the site owner names for the database: resolved, and readable.
std::string DatabaseFile(const KeyInput& in) {
  if (in.value.value.empty()) in.Refuse(in.key + " is empty");
  const std::string path = in.Path();
  if (access(path.c_str(), R_OK) != 0) in.Refuse(in.key + ": cannot read " + path);
  return path;
}

std::string NonEmptyPath(const KeyInput& in) {
  if (in.value.value.empty()) in.Refuse(in.key + " is empty");
  return in.Path();
}

std::vector<std::string> Keyset(const KeyInput& in, const char* example) {
  auto w = ConfigWords(in.value.value);
  if (w.empty() || w.size() > 3) in.Refuse(in.key + " names 1 to 3 result fields, such as: " + example);
  return w;
}

SslMode SslModeOf(const KeyInput& in) {
  for (SslMode m :
       {SslMode::kDisabled, SslMode::kPreferred, SslMode::kRequired, SslMode::kVerifyCa, SslMode::kVerifyIdentity}) {
    if (in.value.value == SslModeName(m)) return m;
  }
  in.Refuse("ssl_mode must be disabled, preferred, required, verify_ca or verify_identity, not '" +
            in.value.value.substr(0, 64) + "'");
}

std::string PluginDir(const KeyInput& in) {
  if (in.value.value.empty()) in.Refuse("plugin_dir is empty");
  const std::string dir = in.Path();
  struct stat st;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) in.Refuse("plugin_dir: no folder " + dir);
  return dir;
}

constexpr ConfigKey<DatabaseConfig> kDatabaseKeys[] = {
    {"host", "HOST", 0, 0, "localhost", "the server's host name or address (replicas: host or socket required)",
     [](const KeyInput& in, DatabaseConfig* d) { d->host = in.value.value; }},
    {"port", "", 1, 65535, "3306", "the server's TCP port",
     [](const KeyInput& in, DatabaseConfig* d) { d->port = in.Int(); }},
    {"socket", "PATH", 0, 0, "", "a Unix socket, used instead of host and port",
     [](const KeyInput& in, DatabaseConfig* d) { d->socket = in.value.value; }},
    {"user", "NAME", 0, 0, "", "the account", [](const KeyInput& in, DatabaseConfig* d) { d->user = in.value.value; }},
    {"password", "TEXT", 0, 0, "", "the account's password",
     [](const KeyInput& in, DatabaseConfig* d) { d->password = in.value.value; }},
    {"name", "NAME", 0, 0, "", "the board's database (required, here or in FEED_DB_NAME)",
     [](const KeyInput& in, DatabaseConfig* d) { d->name = in.value.value; }},
    {"charset", "utf8mb4 | utf8 | cp1251", 0, 0, "utf8mb4", "the connection's character set",
     [](const KeyInput& in, DatabaseConfig* d) { d->charset = ConnectionCharset(in); }},
    {"connect_timeout", "", 1, 3600, "3", "seconds to connect before the request gets 503",
     [](const KeyInput& in, DatabaseConfig* d) { d->connect_timeout = in.Int(); }},
    {"read_timeout", "", 1, 3600, "10", "seconds for each read of the connection",
     [](const KeyInput& in, DatabaseConfig* d) { d->read_timeout = in.Int(); }},
    {"write_timeout", "", 1, 3600, "10", "seconds for each write of the connection",
     [](const KeyInput& in, DatabaseConfig* d) { d->write_timeout = in.Int(); }},
    {"ssl_mode", "disabled | preferred | required | verify_ca | verify_identity", 0, 0, "disabled",
     "how the connection is secured (as MySQL's --ssl-mode)",
     [](const KeyInput& in, DatabaseConfig* d) { d->ssl_mode = SslModeOf(in); }},
    {"ssl_ca", "FILE", 0, 0, "", "the CA (PEM) that signed the server's certificate (verify_ca, verify_identity)",
     [](const KeyInput& in, DatabaseConfig* d) { d->ssl_ca = DatabaseFile(in); }},
    {"ssl_cert", "FILE", 0, 0, "", "a client certificate, with ssl_key",
     [](const KeyInput& in, DatabaseConfig* d) { d->ssl_cert = DatabaseFile(in); }},
    {"ssl_key", "FILE", 0, 0, "", "the client certificate's key, with ssl_cert",
     [](const KeyInput& in, DatabaseConfig* d) { d->ssl_key = DatabaseFile(in); }},
    {"plugin_dir", "FOLDER", 0, 0, "", "where the client finds authentication plugins (ed25519, caching_sha2_password)",
     [](const KeyInput& in, DatabaseConfig* d) { d->plugin_dir = PluginDir(in); }},
    {"replica_wait", "", 0, 60, "5",
     "[database] only: seconds a page waits for a replica to catch up before the next is tried",
     [](const KeyInput& in, DatabaseConfig* d) { d->replica_wait = in.Int(); }},
    {"replica_check", "", 1, 3600, "5", "[database] only: how often, at most, a replica's health is asked again",
     [](const KeyInput& in, DatabaseConfig* d) { d->replica_check = in.Int(); }},
};

// The TLS keys together: what each mode needs, what only some take.
void CheckSsl(const IniSection& sec, const std::string& file, const DatabaseConfig& db) {
  const std::string where = ConfigWhere(file, sec.line) + "[" + sec.name + "] ";
  const bool verify = db.ssl_mode == SslMode::kVerifyCa || db.ssl_mode == SslMode::kVerifyIdentity;
  if (db.ssl_mode == SslMode::kVerifyCa && db.ssl_ca.empty()) {
    throw ConfigError(where + "ssl_mode = verify_ca needs ssl_ca = FILE (the CA that signed the server's certificate)");
  }
  if (!db.ssl_ca.empty() && !verify) {
    throw ConfigError(where + "ssl_ca is for ssl_mode = verify_ca or verify_identity (ssl_mode is " +
                      SslModeName(db.ssl_mode) + ")");
  }
  if (db.ssl_cert.empty() != db.ssl_key.empty()) throw ConfigError(where + "ssl_cert and ssl_key go together");
  if (!db.ssl_cert.empty() && db.ssl_mode == SslMode::kDisabled) {
    throw ConfigError(where + "ssl_cert and ssl_key need ssl_mode other than disabled");
  }
}

HandOff HandOffOf(const KeyInput& in) {
  const std::string& s = in.value.value;
  if (s == "none") return HandOff::kNone;
  if (s == "x-sendfile") return HandOff::kXSendfile;
  if (s == "redirect") return HandOff::kRedirect;
  in.Refuse("hand_off must be none, x-sendfile or redirect");
}

std::string RedirectUrl(const KeyInput& in) {
  const std::string& s = in.value.value;
  if (!IsAbsoluteHttpUrl(s) && (s.size() < 2 || s[0] != '/' || s[1] == '/')) {
    in.Refuse("redirect_url must be an absolute http:// or https:// URL or a path of the site starting with '/'");
  }
  return s;
}

constexpr ConfigKey<ServerConfig> kServerKeys[] = {
    {"hand_off", "none | x-sendfile | redirect", 0, 0, "none",
     "how a body over spool_memory reaches the client: sent by the program, named to the web server, or published",
     [](const KeyInput& in, ServerConfig* s) { s->hand_off = HandOffOf(in); }},
    {"spool_dir", "FOLDER", 0, 0, "", "where whole bodies wait (the system's temporary folder when not set)",
     [](const KeyInput& in, ServerConfig* s) { s->spool_dir = NonEmptyPath(in); }},
    {"spool_memory", "", 0, 64 << 20, "262144", "bytes of a body kept in memory, and sent by the program",
     [](const KeyInput& in, ServerConfig* s) { s->spool_memory = in.Int(); }},
    {"secret", "SECRET", 0, 0, "", "keys the continue tokens of every feed without a secret of its own",
     [](const KeyInput& in, ServerConfig* s) { s->secret = Secret(in); }},
    {"redirect_dir", "FOLDER", 0, 0, "", "hand_off = redirect: the folder large bodies are published in",
     [](const KeyInput& in, ServerConfig* s) { s->redirect_dir = NonEmptyPath(in); }},
    {"redirect_url", "URL | /PATH", 0, 0, "",
     "where the web server serves redirect_dir (beside the program when not set)",
     [](const KeyInput& in, ServerConfig* s) { s->redirect_url = RedirectUrl(in); }},
    {"redirect_seconds", "", 60, 86400, "600", "how long a published body stays",
     [](const KeyInput& in, ServerConfig* s) { s->redirect_seconds = in.Int(); }},
};

std::vector<std::string> AllowList(const KeyInput& in) {
  std::vector<std::string> allow = ConfigWords(in.value.value);
  for (const std::string& a : allow) {
    if (!AddressRange::Parse(a)) {
      in.Refuse("allow lists IP addresses or CIDR ranges (127.0.0.1 ::1 10.0.0.0/8), not '" + a.substr(0, 64) + "'");
    }
  }
  return allow;
}

constexpr ConfigKey<StatusConfig> kStatusKeys[] = {
    {"enabled", "0 | 1", 0, 0, "0", "serve the status page (needs token, allow or both)",
     [](const KeyInput& in, StatusConfig* s) { s->enabled = in.Flag(); }},
    {"path", "/PATH", 0, 0, "/status", "where the page is served",
     [](const KeyInput& in, StatusConfig* s) { s->path = SitePath(in); }},
    {"token", "SECRET", 0, 0, "", "the token a request presents (Authorization: Bearer, or token=)",
     [](const KeyInput& in, StatusConfig* s) { s->token = Secret(in); }},
    {"allow", "ADDRESS ...", 0, 0, "", "addresses and CIDR ranges a request must come from",
     [](const KeyInput& in, StatusConfig* s) { s->allow = AllowList(in); }},
    {"reports", "", 1, 1000, "20", "run reports kept per feed, the oldest pruned",
     [](const KeyInput& in, StatusConfig* s) { s->reports = in.Int(); }},
};

}  // namespace

void LoadDatabaseSection(const IniSection& sec, const ConfigSource& source, DatabaseConfig* db, bool replica) {
  for (const auto& [key, v] : sec.entries) {
    if (replica && key.rfind("replica_", 0) == 0) {
      throw ConfigError(ConfigWhere(source.file, v.line) + key +
                        " belongs in [database]: it is the same for every replica");
    }
  }
  LoadKeys(sec, source, kDatabaseKeys, db, sec.name);
  CheckSsl(sec, source.file, *db);
}

void LoadServerSection(const IniSection& sec, const ConfigSource& source, ServerConfig* server) {
  LoadKeys(sec, source, kServerKeys, server, "server");
  const std::string where = ConfigWhere(source.file, sec.line);
  if (server->hand_off == HandOff::kRedirect && server->redirect_dir.empty()) {
    throw ConfigError(where +
                      "hand_off = redirect needs redirect_dir (a folder the web server "
                      "serves; redirect_url where, when not beside the program)");
  }
  if (server->hand_off == HandOff::kXSendfile && server->spool_dir.empty()) {
    throw ConfigError(where + "hand_off = x-sendfile needs spool_dir (a folder the web server may send from)");
  }
}

void LoadStatusSection(const IniSection& sec, const ConfigSource& source, StatusConfig* status) {
  LoadKeys(sec, source, kStatusKeys, status, "status");
  if (status->enabled && status->token.empty() && status->allow.empty()) {
    throw ConfigError(ConfigWhere(source.file, sec.line) +
                      "[status] enabled = 1 needs token = A-LONG-RANDOM-STRING or allow = ADDRESSES (or both): "
                      "the status page is never public");
  }
}

void LoadSiteSection(const IniSection& sec, const ConfigSource& source, Config* c) {
  for (const auto& [key, v] : sec.entries) {
    const std::string where = ConfigWhere(source.file, v.line);
    if (key == "time_zone") {
      const std::optional<std::string> tzdir = source.env->Get("TZDIR");
      auto zone = TimeZone::Load(v.value, TimeZone::DefaultSource(tzdir ? tzdir->c_str() : nullptr));
      if (!zone) throw ConfigError(where + "unknown time zone '" + v.value + "'");
      c->time_zone = v.value;
      c->zone = *zone;
    } else if (!IsConfigName(key)) {
      throw ConfigError(where + "a [site] key is letters, digits, '_' and '-'");
    } else if (key == "url" && !IsAbsoluteHttpUrl(v.value)) {
      // The base of every link the feeds write.
      throw ConfigError(where + "[site] url is not an absolute http:// or https:// URL: '" + v.value + "'");
    }
    c->site[key] = v.value;
  }
}

namespace {

// A feed while its section is read: what the checks after the keys need.
struct FeedDraft {
  FeedConfig f;
  bool have_content_type = false;
  int since_line = 0;
  std::optional<int> page_ahead;
  int page_ahead_line = 0;
};

void LoadSince(const KeyInput& in, FeedDraft* d) {
  auto w = ConfigWords(in.value.value);
  d->since_line = in.value.line;
  if (w.size() == 1 && w[0] == "none") {
    d->f.since = SinceSource::kNone;
  } else if (w.size() == 2 && w[0] == "param" && IsConfigName(w[1])) {
    d->f.since = SinceSource::kParam;
    d->f.since_param = w[1];
  } else if (w.size() == 2 && w[0] == "robot" && IsConfigName(w[1])) {
    d->f.since = SinceSource::kRobot;
    d->f.robot = w[1];
  } else {
    in.Refuse("since must be 'none', 'param NAME' or 'robot USER-AGENT-WORD'");
  }
}

std::string ContinueParam(const KeyInput& in) {
  auto w = ConfigWords(in.value.value);
  if (w.size() != 2 || w[0] != "param" || !IsConfigName(w[1])) in.Refuse("continue must be 'param NAME'");
  return w[1];
}

// One of two words, as the first (true) or the second.
bool Either(const KeyInput& in, const char* yes, const char* no, const std::string& refusal) {
  if (in.value.value != yes && in.value.value != no) in.Refuse(refusal);
  return in.value.value == yes;
}

std::string GuidPrefix(const KeyInput& in) {
  // Fixed text: a guid must never hold anything that can change.
  const std::string& s = in.value.value;
  if (s.size() > 32 ||
      s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:/") != std::string::npos) {
    in.Refuse("guid_prefix is at most 32 letters, digits and - _ . : /");
  }
  return s;
}

constexpr ConfigKey<FeedDraft> kFeedKeys[] = {
    {"path", "/PATH", 0, 0, "/NAME", "the PATH_INFO that selects the feed",
     [](const KeyInput& in, FeedDraft* d) { d->f.path = SitePath(in); }},
    {"template", "FILE", 0, 0, "", "the feed's template (required)",
     [](const KeyInput& in, FeedDraft* d) { d->f.template_file = in.Path(); }},
    {"query", "FILE", 0, 0, "", "the SQL of the rows, with named parameters (required)",
     [](const KeyInput& in, FeedDraft* d) { d->f.query_file = in.Path(); }},
    {"keyset", "FIELD ...", 0, 0, "", "1 to 3 result fields ordering the query: its ORDER BY (required)",
     [](const KeyInput& in, FeedDraft* d) { d->f.keyset = Keyset(in, "added id"); }},
    {"state_query", "FILE", 0, 0, "", "the SQL of the newest change, for Last-Modified and ETag",
     [](const KeyInput& in, FeedDraft* d) { d->f.state_query_file = in.Path(); }},
    {"query_full", "FILE", 0, 0, "", "with since: the walk of a request with no since-moment, in primary-key order",
     [](const KeyInput& in, FeedDraft* d) { d->f.query_full_file = in.Path(); }},
    {"state_query_full", "FILE", 0, 0, "", "query_full's state query (required with state_query)",
     [](const KeyInput& in, FeedDraft* d) { d->f.state_query_full_file = in.Path(); }},
    {"keyset_full", "FIELD ...", 0, 0, "the keyset's last field", "query_full's keyset",
     [](const KeyInput& in, FeedDraft* d) { d->f.keyset_full = Keyset(in, "id"); }},
    {"encoding", "utf-8 | windows-1251 | ...", 0, 0, "utf-8", "the document's encoding",
     [](const KeyInput& in, FeedDraft* d) {
       std::string why;
       auto cs = Charset::Named(in.value.value, &why);
       if (!cs) in.Refuse("encoding: " + why);
       d->f.encoding = *cs;
     }},
    {"format", "xml | text", 0, 0, "xml", "an XML document, or text lines (UTF-8 only)",
     [](const KeyInput& in, FeedDraft* d) {
       d->f.format = Either(in, "xml", "text", "format must be xml or text") ? Format::kXml : Format::kText;
     }},
    {"content_type", "TYPE/SUBTYPE", 0, 0, "text/xml (text/plain for format = text)", "the media type served",
     [](const KeyInput& in, FeedDraft* d) {
       const std::string& s = in.value.value;
       if (s.empty() || s.find_first_of(";\r\n") != std::string::npos) {
         in.Refuse("content_type is a media type without parameters, such as text/xml");
       }
       d->f.content_type = s;
       d->have_content_type = true;
     }},
    {"order", "asc | desc", 0, 0, "asc", "the keyset's direction (desc: the newest first)",
     [](const KeyInput& in, FeedDraft* d) {
       d->f.order = Either(in, "asc", "desc", "order must be asc or desc (the keyset's direction)")
                        ? Direction::kAscending
                        : Direction::kDescending;
     }},
    {"max_items", "", 1, kMaxPartItems, "all (50 with order = desc, 1000 with lifecycle = msn)", "rows per document",
     [](const KeyInput& in, FeedDraft* d) { d->f.max_items = in.Int(); }},
    {"max_bytes", "", 1024, static_cast<int>(kMaxXmlPartBytes), "any", "bytes per document before compression",
     [](const KeyInput& in, FeedDraft* d) { d->f.max_bytes = in.Int(); }},
    {"gzip_files", "0 | 1", 0, 0, "0", "a static write adds .gz twins",
     [](const KeyInput& in, FeedDraft* d) { d->f.gzip_files = in.Flag(); }},
    {"lastmod", "FIELD", 0, 0, "", "the result field holding a row's last change",
     [](const KeyInput& in, FeedDraft* d) {
       if (!IsConfigName(in.value.value)) in.Refuse("lastmod names a result field");
       d->f.lastmod = in.value.value;
     }},
    {"since", "none | param NAME | robot WORD", 0, 0, "none",
     "where the since-moment comes from: a query parameter, or the robot's last visit", LoadSince},
    {"continue", "param NAME", 0, 0, "", "the query parameter of the continue token (with page_size)",
     [](const KeyInput& in, FeedDraft* d) { d->f.continue_param = ContinueParam(in); }},
    {"page_size", "", 1, 1000000, "", "rows per response of a paged feed (with continue)",
     [](const KeyInput& in, FeedDraft* d) { d->f.page_size = in.Int(); }},
    {"page_ahead", "", 0, 8, "2 for a paged feed that is not a robot's, else 0",
     "pages made ahead while the web server sends the one before",
     [](const KeyInput& in, FeedDraft* d) {
       d->page_ahead = in.Int();
       d->page_ahead_line = in.value.line;
     }},
    {"fetch_rows", "", 1, 1000000, "1000", "rows per query (internal keyset paging)",
     [](const KeyInput& in, FeedDraft* d) { d->f.fetch_rows = in.Int(); }},
    {"read", "prepared | stream", 0, 0, "prepared", "stream: plain statements whose rows stream",
     [](const KeyInput& in, FeedDraft* d) {
       d->f.stream = !Either(in, "prepared", "stream", "read must be prepared or stream");
     }},
    {"db_charset", "utf8mb4 | utf8 | cp1251", 0, 0, "[database] charset", "the connection's charset for the rows",
     [](const KeyInput& in, FeedDraft* d) { d->f.db_charset = ConnectionCharset(in); }},
    {"secret", "SECRET", 0, 0, "[server] secret", "keys the continue token (FEED_SECRET wins)",
     [](const KeyInput& in, FeedDraft* d) { d->f.secret = Secret(in); }},
    {"overlap_visits", "", 0, 1, "1", "since = robot: 1, since the visit before the last; 0, the last",
     [](const KeyInput& in, FeedDraft* d) { d->f.overlap_visits = in.Int(); }},
    {"settle_seconds", "", 0, 86400, "10", "the date written is the run's start less this",
     [](const KeyInput& in, FeedDraft* d) { d->f.settle_seconds = in.Int(); }},
    {"max_run_seconds", "", 3600, static_cast<int>(kMaxRunSecondsLimit), "604800",
     "a continue token whose run began longer ago gets 400",
     [](const KeyInput& in, FeedDraft* d) { d->f.max_run_seconds = in.Int(); }},
    {"lifecycle", "none | msn", 0, 0, "none", "msn: MSN's content ingestion (stable guids, take-downs)",
     [](const KeyInput& in, FeedDraft* d) {
       d->f.lifecycle = Either(in, "msn", "none", "lifecycle must be none or msn") ? Lifecycle::kMsn : Lifecycle::kNone;
     }},
    {"window_days", "", 1, 366, "7", "lifecycle = msn: items created or modified this long ago are listed",
     [](const KeyInput& in, FeedDraft* d) { d->f.window_days = in.Int(); }},
    {"retention_days", "", 1, 366, "7", "lifecycle = msn: a take-down stays listed this long",
     [](const KeyInput& in, FeedDraft* d) { d->f.retention_days = in.Int(); }},
    {"guid_prefix", "TEXT", 0, 0, "NAME-", "lifecycle = msn: guid = prefix + the keyset's id",
     [](const KeyInput& in, FeedDraft* d) { d->f.guid_prefix = GuidPrefix(in); }},
};

// value.KEY = TEXT and child.NAME = FILE, child.NAME.max = N.
bool LoadFeedPattern(const KeyInput& in, FeedDraft* d) {
  const std::string& key = in.key;
  FeedConfig& f = d->f;
  if (key.rfind("value.", 0) == 0 && IsConfigName(key.substr(6))) {
    f.values[key.substr(6)] = in.value.value;
    return true;
  }
  if (key.rfind("child.", 0) != 0) return false;
  std::string rest = key.substr(6);
  const bool max = rest.size() > 4 && rest.compare(rest.size() - 4, 4, ".max") == 0;
  if (max) rest.resize(rest.size() - 4);
  if (!IsConfigName(rest)) {
    in.Refuse("a child query is child.NAME = FILE (NAME: letters, digits, '_', '-') with child.NAME.max = N");
  }
  auto it = std::find_if(f.children.begin(), f.children.end(), [&](const ChildConfig& c) { return c.name == rest; });
  if (it == f.children.end()) it = f.children.insert(f.children.end(), ChildConfig{rest, "", 20, in.value.line});
  if (max) {
    it->max_per_parent = KeyInput{key, in.value, in.source, 1, 10000}.Int();
  } else {
    if (in.value.value.empty()) in.Refuse(key + " names the child query's SQL file");
    it->query_file = in.Path();
    it->line = in.value.line;
  }
  return true;
}

// Children, format and limits together.
void CheckFeedShape(const std::string& where, FeedDraft* d) {
  FeedConfig& f = d->f;
  if (!f.children.empty() && f.keyset.size() != 1) {
    throw ConfigError(where + "has child queries: its keyset is one integer field (the parent's id)");
  }
  if (!d->have_content_type && f.format == Format::kText) f.content_type = "text/plain";
  if (f.format == Format::kText && f.encoding != Charset::kUtf8)
    throw ConfigError(where + "format = text is UTF-8 only");
  if (f.format == Format::kText && f.max_bytes > kMaxTextPartBytes) {
    throw ConfigError(where + "max_bytes of a text feed is at most " + std::to_string(kMaxTextPartBytes));
  }
  if (f.max_items && !f.continue_param.empty()) throw ConfigError(where + "pages with page_size, not max_items");
}

void CheckLifecycle(const std::string& where, FeedConfig* f) {
  if (f->lifecycle != Lifecycle::kMsn) {
    if (f->window_days != 7 || f->retention_days != 7 || !f->guid_prefix.empty()) {
      throw ConfigError(where + "window_days, retention_days and guid_prefix need lifecycle = msn");
    }
    return;
  }
  const std::string msn = where + "lifecycle = msn ";
  if (f->keyset.size() != 1 || f->order != Direction::kAscending) {
    throw ConfigError(msn + "needs keyset = ID, one integer field that never changes (the primary key)");
  }
  if (f->since != SinceSource::kNone || !f->continue_param.empty() || f->page_size) {
    throw ConfigError(msn + "lists what changed by itself: no since, continue or page_size");
  }
  if (!f->state_query_file.empty()) throw ConfigError(msn + "takes its validators from the item state: no state_query");
  if (f->format != Format::kXml) throw ConfigError(msn + "is an XML feed");
  if (f->max_items == 0) f->max_items = 1000;
  if (f->guid_prefix.empty()) f->guid_prefix = f->name + "-";
}

void CheckFullWalk(const std::string& where, FeedConfig* f) {
  if (f->query_full_file.empty()) {
    if (!f->state_query_full_file.empty() || !f->keyset_full.empty()) {
      throw ConfigError(where + "state_query_full and keyset_full need query_full");
    }
    return;
  }
  if (f->since == SinceSource::kNone || f->lifecycle != Lifecycle::kNone || !f->children.empty()) {
    throw ConfigError(where +
                      "query_full is the walk of a request with no since-moment: it needs since = ..., "
                      "and no lifecycle or child queries");
  }
  if (f->state_query_file.empty() != f->state_query_full_file.empty()) {
    throw ConfigError(where +
                      "has state_query and state_query_full both or neither (each walk's validators "
                      "come from its own rows)");
  }
  if (f->keyset_full.empty()) f->keyset_full = {f->keyset.back()};
}

// The continue token, its secret, and the pages made ahead.
void CheckPaging(const std::string& where, const ConfigSource& source, FeedDraft* d) {
  FeedConfig& f = d->f;
  if (!f.continue_param.empty()) {
    if (f.page_size == 0) throw ConfigError(where + "has continue but no page_size");
    if (f.secret.empty()) {
      throw ConfigError(where +
                        "has continue but no secret ([server] secret = ..., secret = ... in the feed, or "
                        "FEED_SECRET in the environment)");
    }
    if (f.continue_param == f.since_param) {
      throw ConfigError(ConfigWhere(source.file, d->since_line) + "since and continue must be different parameters");
    }
  } else if (f.page_size != 0) {
    throw ConfigError(where + "has page_size but no continue = param NAME");
  }
  // A robot's feed records each visit: a page it never asked for must not
  // be made for it.
  const bool can_page_ahead = !f.continue_param.empty() && f.since != SinceSource::kRobot;
  if (d->page_ahead.value_or(0) > 0 && !can_page_ahead) {
    throw ConfigError(ConfigWhere(source.file, d->page_ahead_line) +
                      "page_ahead needs a paged feed (continue = param NAME) that is not a robot's (since = robot)");
  }
  f.page_ahead = d->page_ahead.value_or(can_page_ahead ? 2 : 0);
}

}  // namespace

FeedConfig LoadFeedSection(const IniSection& sec, const ConfigSource& source, const std::string& server_secret) {
  FeedDraft d;
  FeedConfig& f = d.f;
  f.name = std::string(TrimSpace(sec.name.substr(5)));
  if (!IsConfigName(f.name)) {
    throw ConfigError(ConfigWhere(source.file, sec.line) + "a feed name is letters, digits, '_' and '-': [feed NAME]");
  }
  f.path = "/" + f.name;
  d.since_line = d.page_ahead_line = sec.line;
  LoadKeys(sec, source, kFeedKeys, &d, "feed " + f.name, LoadFeedPattern);
  for (const ChildConfig& c : f.children) {
    if (c.query_file.empty()) {
      throw ConfigError(ConfigWhere(source.file, c.line) + "child." + c.name + ".max without child." + c.name +
                        " = FILE");
    }
  }
  const std::string where = ConfigWhere(source.file, sec.line) + "[feed " + f.name + "] ";
  CheckFeedShape(where, &d);
  CheckLifecycle(where, &f);
  // A feed of the newest items first lists the newest 50 unless told.
  if (f.order == Direction::kDescending && f.max_items == 0) f.max_items = 50;
  if (f.template_file.empty()) throw ConfigError(where + "needs template = FILE");
  if (f.query_file.empty()) throw ConfigError(where + "needs query = FILE");
  if (f.keyset.empty()) throw ConfigError(where + "needs keyset = FIELDS (the query's ORDER BY)");
  CheckFullWalk(where, &f);
  if (const std::optional<std::string> env = source.env->Get("FEED_SECRET")) f.secret = *env;
  if (f.secret.empty()) f.secret = server_secret;
  CheckPaging(where, source, &d);
  return f;
}

namespace {

// A set's path, and the format it gives.
void LoadSetPath(const KeyInput& in, SetConfig* s) {
  const std::string& x = in.value.value;
  const size_t dot = x.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : x.substr(dot);
  if (x.size() < 2 || x[0] != '/' || x.find_first_of("?#%{} \t") != std::string::npos ||
      x.find("..") != std::string::npos || (ext != ".xml" && ext != ".txt") || x.rfind('/') > dot) {
    in.Refuse("a set's path ends in .xml (an index of XML parts) or .txt (text parts), such as /sitemap.xml");
  }
  s->path = x;
  s->format = ext == ".xml" ? Format::kXml : Format::kText;
}

void LoadPublishUrl(const KeyInput& in, SetConfig* s) {
  const std::string& x = in.value.value;
  if ((x.rfind("http://", 0) != 0 && x.rfind("https://", 0) != 0) || x.find_first_of(" \t\"<>") != std::string::npos) {
    in.Refuse("publish_url is the absolute http(s) URL the set is published under");
  }
  s->publish_url = x;
  while (!s->publish_url.empty() && s->publish_url.back() == '/') s->publish_url.pop_back();
}

constexpr ConfigKey<SetConfig> kSetKeys[] = {
    {"path", "/NAME.xml | /NAME.txt", 0, 0, "", "the index (.xml), or the stem of text parts (.txt) (required)",
     LoadSetPath},
    {"sections", "FEED ...", 0, 0, "", "the [feed NAME]s whose rows make the parts, in the index's order (required)",
     [](const KeyInput& in, SetConfig* s) {
       s->sections = ConfigWords(in.value.value);
       for (const std::string& n : s->sections) {
         if (!IsConfigName(n)) in.Refuse("sections names [feed NAME] sections");
       }
     }},
    {"publish_url", "URL", 0, 0, "", "the absolute URL the set is published under (required)", LoadPublishUrl},
    {"template", "FILE", 0, 0, "", "the index's template (XML sets; required there)",
     [](const KeyInput& in, SetConfig* s) { s->template_file = in.Path(); }},
    {"max_items", "", 1, kMaxPartItems, "50000", "the index's entries at most",
     [](const KeyInput& in, SetConfig* s) { s->max_items = in.Int(); }},
    {"max_bytes", "", 1024, static_cast<int>(kMaxXmlPartBytes), "52428800", "the index's bytes at most",
     [](const KeyInput& in, SetConfig* s) { s->max_bytes = in.Int(); }},
    {"gzip_files", "0 | 1", 0, 0, "0", "a static write adds a .gz twin of the index",
     [](const KeyInput& in, SetConfig* s) { s->gzip_files = in.Flag(); }},
    {"refresh_seconds", "", 0, 86400 * 7, "300", "live: how old a part plan may grow before it is refreshed",
     [](const KeyInput& in, SetConfig* s) { s->refresh_seconds = in.Int(); }},
    {"part_fill", "", 50, 100, "90", "live: a new part closes at this percent of its limits",
     [](const KeyInput& in, SetConfig* s) { s->part_fill = in.Int(); }},
};

}  // namespace

SetConfig LoadSetSection(const IniSection& sec, const ConfigSource& source) {
  SetConfig s;
  s.name = std::string(TrimSpace(sec.name.substr(4)));
  if (!IsConfigName(s.name)) {
    throw ConfigError(ConfigWhere(source.file, sec.line) + "a set name is letters, digits, '_' and '-'");
  }
  LoadKeys(sec, source, kSetKeys, &s, "set " + s.name);
  const std::string where = ConfigWhere(source.file, sec.line) + "[set " + s.name + "] ";
  if (s.path.empty()) throw ConfigError(where + "needs path = /NAME.xml or /NAME.txt");
  if (s.sections.empty()) throw ConfigError(where + "needs sections = FEED ...");
  if (s.publish_url.empty()) throw ConfigError(where + "needs publish_url = the URL its files are published under");
  if (s.format == Format::kXml && s.template_file.empty()) {
    throw ConfigError(where + "needs template = FILE for its index (templates/sitemap-index.xml)");
  }
  if (s.format == Format::kText && !s.template_file.empty()) {
    throw ConfigError(where + "is a text set: its parts have no index, and so no template");
  }
  return s;
}

namespace {

// The variables that override a database section's keys: FEED_DB_ (or a
// replica's FEED_DB_REPLICA_<NAME>_) and the suffix. NAME is [database]'s
// alone.
struct DatabaseOverride {
  const char* suffix;
  std::string DatabaseConfig::*text;  // nullptr: the port
  bool replica;                       // a replica takes it too
};
const DatabaseOverride kDatabaseOverrides[] = {
    {"HOST", &DatabaseConfig::host, true},         {"PORT", nullptr, true},
    {"SOCKET", &DatabaseConfig::socket, true},     {"USER", &DatabaseConfig::user, true},
    {"PASSWORD", &DatabaseConfig::password, true}, {"NAME", &DatabaseConfig::name, false},
};

void ApplyOverrides(const ConfigEnvironment& env, const std::string& prefix, bool replica, DatabaseConfig* db) {
  for (const DatabaseOverride& o : kDatabaseOverrides) {
    if (replica && !o.replica) continue;
    const std::string name = prefix + o.suffix;
    const std::optional<std::string> v = env.Get(name);
    if (!v) continue;
    if (o.text) {
      db->*o.text = *v;
    } else {
      db->port = KeyInput{name, IniValue{*v, 0}, ConfigSource{name, "", &env}, 1, 65535}.Int();
    }
  }
}

}  // namespace

void ApplyDatabaseEnvironment(const ConfigEnvironment& env, DatabaseConfig* db) {
  ApplyOverrides(env, "FEED_DB_", false, db);
}

std::string ReplicaEnvironmentPrefix(const std::string& replica) {
  std::string env = "FEED_DB_REPLICA_";
  for (char ch : replica) env += ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return env;
}

void ApplyReplicaEnvironment(const ConfigEnvironment& env, const std::string& replica, DatabaseConfig* db) {
  ApplyOverrides(env, ReplicaEnvironmentPrefix(replica) + "_", true, db);
}

namespace {

// One key as the reference shows it.
struct KeyRow {
  std::string name, form, fallback, help;
};

template <class T, size_t N>
std::vector<KeyRow> Rows(const ConfigKey<T> (&keys)[N]) {
  std::vector<KeyRow> out;
  for (const ConfigKey<T>& k : keys) {
    const std::string form = *k.form ? k.form : std::to_string(k.lo) + "-" + std::to_string(k.hi);
    out.push_back({k.name, form, k.fallback, k.help});
  }
  return out;
}

struct SectionRows {
  const char* section;
  const char* about;
  std::vector<KeyRow> rows;
};

std::vector<SectionRows> Reference() {
  std::vector<KeyRow> feed = Rows(kFeedKeys);
  feed.push_back({"value.KEY", "TEXT", "", "the template's {value.KEY}"});
  feed.push_back({"child.NAME", "FILE", "", "a child query: rows of another table per row (keyset of one field)"});
  feed.push_back({"child.NAME.max", "1-10000", "20", "rows one parent carries at most"});
  return {
      {"[database]", "The primary: every write, and reads no replica can serve", Rows(kDatabaseKeys)},
      {"[database replica NAME]",
       "A read replica: [database]'s keys but replica_*, each one not given taken from [database] except host, port "
       "and socket",
       {}},
      {"[server]", "How live responses reach the client", Rows(kServerKeys)},
      {"[site]",
       "Any other key is the templates' {site.KEY} (url, host, title...)",
       {{"time_zone", "ZONE", "UTC", "the site's IANA time zone"},
        {"url", "URL", "", "the absolute http(s) URL every link starts with"}}},
      {"[status]", "The owner's status page, off unless enabled", Rows(kStatusKeys)},
      {"[feed NAME]", "A feed, served at /NAME unless path says otherwise", std::move(feed)},
      {"[set NAME]", "A document set: an index and numbered parts of its section feeds", Rows(kSetKeys)},
  };
}

std::string EnvironmentRows(bool markdown) {
  std::string out;
  auto row = [&](const std::string& name, const std::string& what) {
    out += markdown ? "| `" + name + "` | " + what + " |\n" : "  " + name + "  " + what + "\n";
  };
  for (const DatabaseOverride& o : kDatabaseOverrides) {
    std::string key = o.suffix;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    row(std::string("FEED_DB_") + o.suffix, "[database] " + key);
  }
  for (const DatabaseOverride& o : kDatabaseOverrides) {
    if (!o.replica) continue;
    std::string key = o.suffix;
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    row(std::string("FEED_DB_REPLICA_<NAME>_") + o.suffix,
        "[database replica NAME] " + key + " (NAME in capitals, '-' as '_')");
  }
  row("FEED_SECRET", "every feed's secret (continue tokens), over the file's");
  row("TZDIR", "where the time zones are (as glibc reads it)");
  return out;
}

}  // namespace

std::string ConfigKeysText() {
  std::string out;
  for (const SectionRows& s : Reference()) {
    out += s.section + std::string("  ") + s.about + "\n";
    for (const KeyRow& r : s.rows) {
      out += "  " + r.name + " = " + r.form + (r.fallback.empty() ? "" : " (default " + r.fallback + ")") + "\n";
      out += "      " + r.help + "\n";
    }
    out += "\n";
  }
  out += "The environment, over the file:\n" + EnvironmentRows(false);
  return out;
}

std::string ConfigKeysMarkdown() {
  std::string out =
      "# Config keys\n\n"
      "Every key of the config file (feed.ini), made by `feed.fcgi keys --markdown` from the table the\n"
      "program loads the file with (lib/config_keys.cpp); a unit test keeps this page equal to it.\n"
      "The config's sections and what they are for: [README.md](../README.md) and\n"
      "[mapping.md](mapping.md).\n";
  for (const SectionRows& s : Reference()) {
    out += "\n## " + std::string(s.section) + "\n\n" + s.about + ".\n";
    if (s.rows.empty()) continue;
    out += "\n| key | value | default | what it does |\n|---|---|---|---|\n";
    for (const KeyRow& r : s.rows) {
      std::string form = r.form;
      for (size_t i = 0; (i = form.find('|', i)) != std::string::npos; i += 2) form.replace(i, 1, "\\|");
      out += "| `" + r.name + "` | " + form + " | " + r.fallback + " | " + r.help + " |\n";
    }
  }
  out +=
      "\n## The environment\n\nEach variable, when set, wins over the file.\n\n| variable | overrides |\n|---|---|\n" +
      EnvironmentRows(true);
  return out;
}

std::string ConfigEnvironmentHelp() {
  std::string names;
  const size_t n = std::size(kDatabaseOverrides);
  for (size_t i = 0; i < n; ++i) {
    names += std::string(i == 0 ? "" : i + 1 == n ? " and " : ", ") + "FEED_DB_" + kDatabaseOverrides[i].suffix;
  }
  return names +
         " override its [database] keys; FEED_SECRET, when set, keys the continue tokens of paged feeds instead of "
         "the file's [server] secret. `feed.fcgi keys` lists every key and variable.";
}

}  // namespace feed
