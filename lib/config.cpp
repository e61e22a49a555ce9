#include "config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "ascii.h"
#include "continue_token.h"
#include "datetime.h"
#include "error.h"
#include "status_access.h"
#include "url.h"

namespace feed {
namespace {

std::string Trim(std::string_view s) { return std::string(TrimSpace(s)); }

std::string Where(const std::string& file, int line) { return file + ":" + std::to_string(line) + ": "; }

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string Resolve(const std::string& base_dir, const std::string& p) {
  if (!p.empty() && p[0] == '/') return p;
  return base_dir + "/" + p;
}

int ParseInt(const IniValue& v, const std::string& file, const std::string& key, int lo, int hi) {
  const std::string& s = v.value;
  bool digits = !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  int n = digits ? std::atoi(s.c_str()) : -1;
  if (!digits || n < lo || n > hi) {
    throw ConfigError(Where(file, v.line) + key + " must be a whole number from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", not '" + s + "'");
  }
  return n;
}

bool ParseFlag(const IniValue& v, const std::string& file, const std::string& key) {
  if (v.value != "0" && v.value != "1") throw ConfigError(Where(file, v.line) + key + " must be 0 or 1");
  return v.value == "1";
}

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) {
    if (!w.empty() && w.back() == ',') w.pop_back();
    if (!w.empty()) out.push_back(w);
  }
  return out;
}

bool IsName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

// A file the site owner names for the database: resolved, and readable.
std::string DatabaseFile(const IniValue& v, const std::string& file, const std::string& base, const std::string& key) {
  if (v.value.empty()) throw ConfigError(Where(file, v.line) + key + " is empty");
  const std::string path = Resolve(base, v.value);
  if (access(path.c_str(), R_OK) != 0) throw ConfigError(Where(file, v.line) + key + ": cannot read " + path);
  return path;
}

// The TLS keys together: what each mode needs, what only some take.
void CheckSsl(const IniSection& sec, const std::string& file, const DatabaseConfig& db) {
  const std::string where = Where(file, sec.line) + "[" + sec.name + "] ";
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

// [database] (replica false) or a [database replica NAME] (replica true).
void LoadDatabase(const IniSection& sec, const std::string& file, const std::string& base, DatabaseConfig* db,
                  bool replica) {
  for (const auto& [key, v] : sec.entries) {
    if (!replica && key == "replica_wait") {
      db->replica_wait = ParseInt(v, file, key, 0, 60);
    } else if (!replica && key == "replica_check") {
      db->replica_check = ParseInt(v, file, key, 1, 3600);
    } else if (replica && key.rfind("replica_", 0) == 0) {
      throw ConfigError(Where(file, v.line) + key + " belongs in [database]: it is the same for every replica");
    } else if (key == "host")
      db->host = v.value;
    else if (key == "port")
      db->port = ParseInt(v, file, key, 1, 65535);
    else if (key == "socket")
      db->socket = v.value;
    else if (key == "user")
      db->user = v.value;
    else if (key == "password")
      db->password = v.value;
    else if (key == "name")
      db->name = v.value;
    else if (key == "charset") {
      if (v.value != "utf8mb4" && v.value != "utf8" && v.value != "cp1251") {
        throw ConfigError(Where(file, v.line) + "charset must be utf8mb4, utf8 or cp1251");
      }
      db->charset = v.value;
    } else if (key == "connect_timeout") {
      db->connect_timeout = ParseInt(v, file, key, 1, 3600);
    } else if (key == "read_timeout") {
      db->read_timeout = ParseInt(v, file, key, 1, 3600);
    } else if (key == "write_timeout") {
      db->write_timeout = ParseInt(v, file, key, 1, 3600);
    } else if (key == "ssl_mode") {
      bool known = false;
      for (SslMode m : {SslMode::kDisabled, SslMode::kPreferred, SslMode::kRequired, SslMode::kVerifyCa,
                        SslMode::kVerifyIdentity}) {
        if (v.value == SslModeName(m)) {
          db->ssl_mode = m;
          known = true;
        }
      }
      if (!known) {
        throw ConfigError(Where(file, v.line) +
                          "ssl_mode must be disabled, preferred, required, verify_ca or verify_identity, not '" +
                          v.value.substr(0, 64) + "'");
      }
    } else if (key == "ssl_ca") {
      db->ssl_ca = DatabaseFile(v, file, base, key);
    } else if (key == "ssl_cert") {
      db->ssl_cert = DatabaseFile(v, file, base, key);
    } else if (key == "ssl_key") {
      db->ssl_key = DatabaseFile(v, file, base, key);
    } else if (key == "plugin_dir") {
      if (v.value.empty()) throw ConfigError(Where(file, v.line) + "plugin_dir is empty");
      const std::string dir = Resolve(base, v.value);
      struct stat st;
      if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        throw ConfigError(Where(file, v.line) + "plugin_dir: no folder " + dir);
      }
      db->plugin_dir = dir;
    } else {
      throw ConfigError(Where(file, v.line) + "unknown key '" + key + "' in [" + sec.name + "]");
    }
  }
}

void LoadServer(const IniSection& sec, const std::string& file, const std::string& base, ServerConfig* server) {
  for (const auto& [key, v] : sec.entries) {
    if (key == "hand_off") {
      if (v.value == "none")
        server->hand_off = HandOff::kNone;
      else if (v.value == "x-sendfile")
        server->hand_off = HandOff::kXSendfile;
      else if (v.value == "redirect")
        server->hand_off = HandOff::kRedirect;
      else
        throw ConfigError(Where(file, v.line) + "hand_off must be none, x-sendfile or redirect");
    } else if (key == "redirect_dir") {
      if (v.value.empty()) throw ConfigError(Where(file, v.line) + "redirect_dir is empty");
      server->redirect_dir = Resolve(base, v.value);
    } else if (key == "redirect_url") {
      if (!IsAbsoluteHttpUrl(v.value) && (v.value.size() < 2 || v.value[0] != '/' || v.value[1] == '/')) {
        throw ConfigError(Where(file, v.line) + "redirect_url must be an absolute http:// or https:// URL or a "
                                                "path of the site starting with '/'");
      }
      server->redirect_url = v.value;
    } else if (key == "redirect_seconds") {
      server->redirect_seconds = ParseInt(v, file, key, 60, 86400);
    } else if (key == "spool_dir") {
      if (v.value.empty()) throw ConfigError(Where(file, v.line) + "spool_dir is empty");
      server->spool_dir = Resolve(base, v.value);
    } else if (key == "spool_memory") {
      server->spool_memory = ParseInt(v, file, key, 0, 64 << 20);
    } else if (key == "secret") {
      // The secret itself never goes into a message.
      if (std::string why = SecretUnfit(v.value); !why.empty()) throw ConfigError(Where(file, v.line) + "secret " + why);
      server->secret = v.value;
    } else {
      throw ConfigError(Where(file, v.line) + "unknown key '" + key + "' in [server]");
    }
  }
  if (server->hand_off == HandOff::kRedirect && server->redirect_dir.empty()) {
    throw ConfigError(Where(file, sec.line) + "hand_off = redirect needs redirect_dir (a folder the web server "
                                              "serves; redirect_url where, when not beside the program)");
  }
  if (server->hand_off == HandOff::kXSendfile && server->spool_dir.empty()) {
    throw ConfigError(Where(file, sec.line) +
                      "hand_off = x-sendfile needs spool_dir (a folder the web server may send from)");
  }
}

void LoadStatus(const IniSection& sec, const std::string& file, StatusConfig* status) {
  for (const auto& [key, v] : sec.entries) {
    const std::string& s = v.value;
    if (key == "enabled") {
      status->enabled = ParseFlag(v, file, key);
    } else if (key == "path") {
      if (s.size() < 2 || s[0] != '/' || s.find("..") != std::string::npos ||
          s.find_first_of("?#% \t") != std::string::npos) {
        throw ConfigError(Where(file, v.line) + "path must start with '/' and hold no '..', '?', '#', '%' or spaces");
      }
      status->path = s;
    } else if (key == "token") {
      // The token itself never goes into a message.
      if (std::string why = SecretUnfit(s); !why.empty()) throw ConfigError(Where(file, v.line) + "token " + why);
      status->token = s;
    } else if (key == "allow") {
      status->allow = Words(s);
      for (const std::string& a : status->allow) {
        if (!AddressRange::Parse(a)) {
          throw ConfigError(Where(file, v.line) +
                            "allow lists IP addresses or CIDR ranges (127.0.0.1 ::1 10.0.0.0/8), not '" +
                            a.substr(0, 64) + "'");
        }
      }
    } else if (key == "reports") {
      status->reports = ParseInt(v, file, key, 1, 1000);
    } else {
      throw ConfigError(Where(file, v.line) + "unknown key '" + key + "' in [status]");
    }
  }
  if (status->enabled && status->token.empty() && status->allow.empty()) {
    throw ConfigError(Where(file, sec.line) +
                      "[status] enabled = 1 needs token = A-LONG-RANDOM-STRING or allow = ADDRESSES (or both): "
                      "the status page is never public");
  }
}

// `env_secret`: FEED_SECRET, already checked, or nullptr when unset;
// `server_secret`: [server] secret, already checked, or "".
FeedConfig LoadFeed(const IniSection& sec, const std::string& file, const std::string& base, const char* env_secret,
                    const std::string& server_secret) {
  FeedConfig f;
  f.name = Trim(sec.name.substr(5));
  if (!IsName(f.name)) {
    throw ConfigError(Where(file, sec.line) + "a feed name is letters, digits, '_' and '-': [feed NAME]");
  }
  f.path = "/" + f.name;
  bool have_template = false, have_query = false, have_content_type = false;
  int since_line = sec.line;
  std::optional<int> page_ahead;
  int page_ahead_line = sec.line;
  for (const auto& [key, v] : sec.entries) {
    const std::string& s = v.value;
    if (key == "path") {
      if (s.size() < 2 || s[0] != '/' || s.find("..") != std::string::npos ||
          s.find_first_of("?#% \t") != std::string::npos) {
        throw ConfigError(Where(file, v.line) + "path must start with '/' and hold no '..', '?', '#', '%' or spaces");
      }
      f.path = s;
    } else if (key == "template") {
      f.template_file = Resolve(base, s);
      have_template = true;
    } else if (key == "query") {
      f.query_file = Resolve(base, s);
      have_query = true;
    } else if (key == "state_query") {
      f.state_query_file = Resolve(base, s);
    } else if (key == "query_full") {
      f.query_full_file = Resolve(base, s);
    } else if (key == "state_query_full") {
      f.state_query_full_file = Resolve(base, s);
    } else if (key == "keyset_full") {
      f.keyset_full = Words(s);
      if (f.keyset_full.empty() || f.keyset_full.size() > 3) {
        throw ConfigError(Where(file, v.line) + "keyset_full names 1 to 3 result fields, such as: id");
      }
    } else if (key == "encoding") {
      std::string why;
      auto cs = Charset::Named(s, &why);
      if (!cs) throw ConfigError(Where(file, v.line) + "encoding: " + why);
      f.encoding = *cs;
    } else if (key == "content_type") {
      if (s.empty() || s.find_first_of(";\r\n") != std::string::npos) {
        throw ConfigError(Where(file, v.line) + "content_type is a media type without parameters, such as text/xml");
      }
      f.content_type = s;
      have_content_type = true;
    } else if (key == "format") {
      if (s != "xml" && s != "text") throw ConfigError(Where(file, v.line) + "format must be xml or text");
      f.format = s == "xml" ? Format::kXml : Format::kText;
    } else if (key == "order") {
      if (s != "asc" && s != "desc") {
        throw ConfigError(Where(file, v.line) + "order must be asc or desc (the keyset's direction)");
      }
      f.order = s == "asc" ? Direction::kAscending : Direction::kDescending;
    } else if (key == "max_items") {
      f.max_items = ParseInt(v, file, key, 1, kMaxPartItems);
    } else if (key == "max_bytes") {
      f.max_bytes = ParseInt(v, file, key, 1024, kMaxXmlPartBytes);
    } else if (key == "gzip_files") {
      f.gzip_files = ParseFlag(v, file, key);
    } else if (key == "lastmod") {
      if (!IsName(s)) throw ConfigError(Where(file, v.line) + "lastmod names a result field");
      f.lastmod = s;
    } else if (key == "since") {
      auto w = Words(s);
      since_line = v.line;
      if (w.size() == 1 && w[0] == "none") {
        f.since = SinceSource::kNone;
      } else if (w.size() == 2 && w[0] == "param" && IsName(w[1])) {
        f.since = SinceSource::kParam;
        f.since_param = w[1];
      } else if (w.size() == 2 && w[0] == "robot" && IsName(w[1])) {
        f.since = SinceSource::kRobot;
        f.robot = w[1];
      } else {
        throw ConfigError(Where(file, v.line) + "since must be 'none', 'param NAME' or 'robot USER-AGENT-WORD'");
      }
    } else if (key == "continue") {
      auto w = Words(s);
      if (w.size() != 2 || w[0] != "param" || !IsName(w[1])) {
        throw ConfigError(Where(file, v.line) + "continue must be 'param NAME'");
      }
      f.continue_param = w[1];
    } else if (key == "page_size") {
      f.page_size = ParseInt(v, file, key, 1, 1000000);
    } else if (key == "read") {
      if (s != "prepared" && s != "stream") throw ConfigError(Where(file, v.line) + "read must be prepared or stream");
      f.stream = s == "stream";
    } else if (key == "db_charset") {
      if (s != "utf8mb4" && s != "utf8" && s != "cp1251") {
        throw ConfigError(Where(file, v.line) + "db_charset must be utf8mb4, utf8 or cp1251");
      }
      f.db_charset = s;
    } else if (key == "page_ahead") {
      page_ahead = ParseInt(v, file, key, 0, 8);
      page_ahead_line = v.line;
    } else if (key == "fetch_rows") {
      f.fetch_rows = ParseInt(v, file, key, 1, 1000000);
    } else if (key == "keyset") {
      f.keyset = Words(s);
      if (f.keyset.empty() || f.keyset.size() > 3) {
        throw ConfigError(Where(file, v.line) + "keyset names 1 to 3 result fields, such as: added id");
      }
    } else if (key == "secret") {
      if (std::string why = SecretUnfit(s); !why.empty()) throw ConfigError(Where(file, v.line) + "secret " + why);
      f.secret = s;
    } else if (key == "overlap_visits") {
      f.overlap_visits = ParseInt(v, file, key, 0, 1);
    } else if (key == "settle_seconds") {
      f.settle_seconds = ParseInt(v, file, key, 0, 86400);
    } else if (key == "max_run_seconds") {
      f.max_run_seconds = ParseInt(v, file, key, 3600, static_cast<int>(kMaxRunSecondsLimit));
    } else if (key == "lifecycle") {
      if (s != "none" && s != "msn") throw ConfigError(Where(file, v.line) + "lifecycle must be none or msn");
      f.lifecycle = s == "msn" ? Lifecycle::kMsn : Lifecycle::kNone;
    } else if (key == "window_days") {
      f.window_days = ParseInt(v, file, key, 1, 366);
    } else if (key == "retention_days") {
      f.retention_days = ParseInt(v, file, key, 1, 366);
    } else if (key == "guid_prefix") {
      // Fixed text: a guid must never hold anything that can change.
      if (s.size() > 32 || s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:/") !=
                               std::string::npos) {
        throw ConfigError(Where(file, v.line) + "guid_prefix is at most 32 letters, digits and - _ . : /");
      }
      f.guid_prefix = s;
    } else if (key.rfind("value.", 0) == 0 && IsName(key.substr(6))) {
      f.values[key.substr(6)] = s;
    } else if (key.rfind("child.", 0) == 0) {
      // child.NAME = FILE, child.NAME.max = N
      std::string rest = key.substr(6);
      const bool max = rest.size() > 4 && rest.compare(rest.size() - 4, 4, ".max") == 0;
      if (max) rest.resize(rest.size() - 4);
      if (!IsName(rest)) {
        throw ConfigError(Where(file, v.line) + "a child query is child.NAME = FILE (NAME: letters, digits, '_', '-')" +
                          " with child.NAME.max = N");
      }
      auto it = std::find_if(f.children.begin(), f.children.end(), [&](const ChildConfig& c) { return c.name == rest; });
      if (it == f.children.end()) it = f.children.insert(f.children.end(), ChildConfig{rest, "", 20, v.line});
      if (max) {
        it->max_per_parent = ParseInt(v, file, key, 1, 10000);
      } else {
        if (s.empty()) throw ConfigError(Where(file, v.line) + key + " names the child query's SQL file");
        it->query_file = Resolve(base, s);
        it->line = v.line;
      }
    } else {
      throw ConfigError(Where(file, v.line) + "unknown key '" + key + "' in [feed " + f.name + "]");
    }
  }
  for (const ChildConfig& c : f.children) {
    if (c.query_file.empty()) {
      throw ConfigError(Where(file, c.line) + "child." + c.name + ".max without child." + c.name + " = FILE");
    }
  }
  if (!f.children.empty() && f.keyset.size() != 1) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name +
                      "] has child queries: its keyset is one integer field (the parent's id)");
  }
  if (!have_content_type && f.format == Format::kText) f.content_type = "text/plain";
  if (f.format == Format::kText && f.encoding != Charset::kUtf8) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] format = text is UTF-8 only");
  }
  if (f.format == Format::kText && f.max_bytes > kMaxTextPartBytes) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] max_bytes of a text feed is at most " +
                      std::to_string(kMaxTextPartBytes));
  }
  if (f.max_items && !f.continue_param.empty()) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] pages with page_size, not max_items");
  }
  if (f.lifecycle == Lifecycle::kMsn) {
    const std::string where = Where(file, sec.line) + "[feed " + f.name + "] lifecycle = msn ";
    if (f.keyset.size() != 1 || f.order != Direction::kAscending) {
      throw ConfigError(where + "needs keyset = ID, one integer field that never changes (the primary key)");
    }
    if (f.since != SinceSource::kNone || !f.continue_param.empty() || f.page_size) {
      throw ConfigError(where + "lists what changed by itself: no since, continue or page_size");
    }
    if (!f.state_query_file.empty()) {
      throw ConfigError(where + "takes its validators from the item state: no state_query");
    }
    if (f.format != Format::kXml) throw ConfigError(where + "is an XML feed");
    if (f.max_items == 0) f.max_items = 1000;
    if (f.guid_prefix.empty()) f.guid_prefix = f.name + "-";
  } else if (f.window_days != 7 || f.retention_days != 7 || !f.guid_prefix.empty()) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name +
                      "] window_days, retention_days and guid_prefix need lifecycle = msn");
  }
  // A feed of the newest items first lists the newest 50 unless told.
  if (f.order == Direction::kDescending && f.max_items == 0) f.max_items = 50;
  if (!have_template) throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] needs template = FILE");
  if (!have_query) throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] needs query = FILE");
  if (f.keyset.empty())
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] needs keyset = FIELDS (the query's ORDER BY)");
  if (!f.query_full_file.empty()) {
    const std::string where = Where(file, sec.line) + "[feed " + f.name + "] ";
    if (f.since == SinceSource::kNone || f.lifecycle != Lifecycle::kNone || !f.children.empty()) {
      throw ConfigError(where + "query_full is the walk of a request with no since-moment: it needs since = ..., "
                                "and no lifecycle or child queries");
    }
    if (f.state_query_file.empty() != f.state_query_full_file.empty()) {
      throw ConfigError(where + "has state_query and state_query_full both or neither (each walk's validators "
                                "come from its own rows)");
    }
    if (f.keyset_full.empty()) f.keyset_full = {f.keyset.back()};
  } else if (!f.state_query_full_file.empty() || !f.keyset_full.empty()) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] state_query_full and keyset_full need query_full");
  }
  if (env_secret) f.secret = env_secret;
  if (f.secret.empty()) f.secret = server_secret;
  if (!f.continue_param.empty()) {
    if (f.page_size == 0)
      throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] has continue but no page_size");
    if (f.secret.empty()) {
      throw ConfigError(Where(file, sec.line) + "[feed " + f.name +
                        "] has continue but no secret ([server] secret = ..., secret = ... in the feed, or FEED_SECRET "
                        "in the environment)");
    }
    if (f.continue_param == f.since_param)
      throw ConfigError(Where(file, since_line) + "since and continue must be different parameters");
  } else if (f.page_size != 0) {
    throw ConfigError(Where(file, sec.line) + "[feed " + f.name + "] has page_size but no continue = param NAME");
  }
  // A robot's feed records each visit: a page it never asked for must not
  // be made for it.
  const bool can_page_ahead = !f.continue_param.empty() && f.since != SinceSource::kRobot;
  if (page_ahead.value_or(0) > 0 && !can_page_ahead) {
    throw ConfigError(Where(file, page_ahead_line) + "page_ahead needs a paged feed (continue = param NAME) "
                                                     "that is not a robot's (since = robot)");
  }
  f.page_ahead = page_ahead.value_or(can_page_ahead ? 2 : 0);
  return f;
}

SetConfig LoadSet(const IniSection& sec, const std::string& file, const std::string& base) {
  SetConfig s;
  s.name = Trim(sec.name.substr(4));
  if (!IsName(s.name)) throw ConfigError(Where(file, sec.line) + "a set name is letters, digits, '_' and '-'");
  for (const auto& [key, v] : sec.entries) {
    const std::string& x = v.value;
    if (key == "path") {
      const size_t dot = x.rfind('.');
      const std::string ext = dot == std::string::npos ? "" : x.substr(dot);
      if (x.size() < 2 || x[0] != '/' || x.find_first_of("?#%{} \t") != std::string::npos ||
          x.find("..") != std::string::npos || (ext != ".xml" && ext != ".txt") || x.rfind('/') > dot) {
        throw ConfigError(Where(file, v.line) +
                          "a set's path ends in .xml (an index of XML parts) or .txt (text parts), such as "
                          "/sitemap.xml");
      }
      s.path = x;
      s.format = ext == ".xml" ? Format::kXml : Format::kText;
    } else if (key == "template") {
      s.template_file = Resolve(base, x);
    } else if (key == "sections") {
      s.sections = Words(x);
      for (const std::string& n : s.sections) {
        if (!IsName(n)) throw ConfigError(Where(file, v.line) + "sections names [feed NAME] sections");
      }
    } else if (key == "publish_url") {
      if ((x.rfind("http://", 0) != 0 && x.rfind("https://", 0) != 0) ||
          x.find_first_of(" \t\"<>") != std::string::npos) {
        throw ConfigError(Where(file, v.line) + "publish_url is the absolute http(s) URL the set is published under");
      }
      s.publish_url = x;
      while (!s.publish_url.empty() && s.publish_url.back() == '/') s.publish_url.pop_back();
    } else if (key == "max_items") {
      s.max_items = ParseInt(v, file, key, 1, kMaxPartItems);
    } else if (key == "max_bytes") {
      s.max_bytes = ParseInt(v, file, key, 1024, kMaxXmlPartBytes);
    } else if (key == "gzip_files") {
      s.gzip_files = ParseFlag(v, file, key);
    } else if (key == "refresh_seconds") {
      s.refresh_seconds = ParseInt(v, file, key, 0, 86400 * 7);
    } else if (key == "part_fill") {
      s.part_fill = ParseInt(v, file, key, 50, 100);
    } else {
      throw ConfigError(Where(file, v.line) + "unknown key '" + key + "' in [set " + s.name + "]");
    }
  }
  const std::string where = Where(file, sec.line) + "[set " + s.name + "] ";
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

void Override(const char* env, std::string* field) {
  if (const char* v = std::getenv(env)) *field = v;
}

}  // namespace

const char* SslModeName(SslMode mode) {
  switch (mode) {
    case SslMode::kDisabled:
      return "disabled";
    case SslMode::kPreferred:
      return "preferred";
    case SslMode::kRequired:
      return "required";
    case SslMode::kVerifyCa:
      return "verify_ca";
    case SslMode::kVerifyIdentity:
      return "verify_identity";
  }
  return "?";
}

// Sixteen characters of one or two kinds ("aaaa...", "abab...") or spaces
// pass a length check; eight different characters rule those out without
// refusing a hex or base64 string (48 random hex digits miss eight of the
// sixteen with a chance of about 1e-13).
std::string SecretUnfit(std::string_view secret) {
  if (secret.size() < 16) return "must be at least 16 characters";
  for (const char* placeholder : {"change-me", "changeme", "change_me"}) {
    if (ContainsNoCase(secret, placeholder)) {
      return "is a placeholder ('" + std::string(placeholder) +
             "'): use a long random string of your own, such as the output of "
             "`head -c 24 /dev/urandom | base64`";
    }
  }
  std::set<char> distinct(secret.begin(), secret.end());
  if (distinct.size() < 8) {
    return "must hold at least 8 different characters (a long random string, such as the output of "
           "`head -c 24 /dev/urandom | base64`)";
  }
  return "";
}

std::vector<IniSection> ParseIni(const std::string& text, const std::string& file) {
  std::vector<IniSection> out;
  std::set<std::string> seen_sections;
  std::istringstream in(text);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (raw.find('\0') != std::string::npos) throw ConfigError(Where(file, line) + "NUL byte");
    std::string s = Trim(raw);
    if (s.empty() || s[0] == ';' || s[0] == '#') continue;
    if (s[0] == '[') {
      if (s.back() != ']') throw ConfigError(Where(file, line) + "a section header is [NAME]");
      std::string name = Trim(s.substr(1, s.size() - 2));
      // "feed   yads" and "feed yads" are the same section.
      auto w = Words(name);
      name.clear();
      for (const auto& x : w) name += (name.empty() ? "" : " ") + x;
      if (name.empty()) throw ConfigError(Where(file, line) + "empty section name");
      if (!seen_sections.insert(name).second) {
        throw ConfigError(Where(file, line) + "section [" + name + "] appears twice");
      }
      out.push_back({name, line, {}});
      continue;
    }
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(Where(file, line) + "expected 'key = value', '[section]' or a comment");
    }
    if (out.empty()) throw ConfigError(Where(file, line) + "key before any [section]");
    std::string key = Trim(s.substr(0, eq));
    std::string value = Trim(s.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    for (const auto& [k, v] : out.back().entries) {
      if (k == key)
        throw ConfigError(Where(file, line) + "key '" + key + "' repeats (first at line " + std::to_string(v.line) +
                          ")");
    }
    out.back().entries.push_back({key, {value, line}});
  }
  return out;
}

Config ParseConfig(const std::string& text, const std::string& file, const std::string& base_dir) {
  Config c;
  c.file = file;
  std::set<std::string> paths;
  std::vector<int> feed_lines, set_lines;
  std::vector<const IniSection*> replica_sections;  // read once [database] is known
  int status_line = 0;
  const char* env_secret = std::getenv("FEED_SECRET");
  if (env_secret) {
    if (std::string why = SecretUnfit(env_secret); !why.empty()) throw ConfigError(file + ": FEED_SECRET " + why);
  }
  const std::vector<IniSection> sections = ParseIni(text, file);
  // [server] secret keys every feed that has none of its own, wherever the
  // section stands in the file.
  for (const IniSection& sec : sections) {
    if (sec.name == "server") LoadServer(sec, file, base_dir, &c.server);
  }
  for (const IniSection& sec : sections) {
    if (sec.name == "database") {
      LoadDatabase(sec, file, base_dir, &c.database, false);
      CheckSsl(sec, file, c.database);
    } else if (sec.name.rfind("database replica ", 0) == 0) {
      if (!IsName(sec.name.substr(17))) {
        throw ConfigError(Where(file, sec.line) + "a replica name is letters, digits, '_' and '-'");
      }
      replica_sections.push_back(&sec);
    } else if (sec.name == "server") {
      // Read above.
    } else if (sec.name == "site") {
      for (const auto& [key, v] : sec.entries) {
        if (key == "time_zone") {
          auto zone = TimeZone::Load(v.value, TimeZone::DefaultSource(std::getenv("TZDIR")));
          if (!zone) throw ConfigError(Where(file, v.line) + "unknown time zone '" + v.value + "'");
          c.time_zone = v.value;
          c.zone = *zone;
        } else if (!IsName(key)) {
          throw ConfigError(Where(file, v.line) + "a [site] key is letters, digits, '_' and '-'");
        } else if (key == "url" && !IsAbsoluteHttpUrl(v.value)) {
          // The base of every link the feeds write.
          throw ConfigError(Where(file, v.line) + "[site] url is not an absolute http:// or https:// URL: '" +
                            v.value + "'");
        }
        c.site[key] = v.value;
      }
    } else if (sec.name == "status") {
      LoadStatus(sec, file, &c.status);
      status_line = sec.line;
    } else if (sec.name.rfind("feed ", 0) == 0) {
      c.feeds.push_back(LoadFeed(sec, file, base_dir, env_secret, c.server.secret));
      feed_lines.push_back(sec.line);
    } else if (sec.name.rfind("set ", 0) == 0) {
      c.sets.push_back(LoadSet(sec, file, base_dir));
      set_lines.push_back(sec.line);
    } else {
      throw ConfigError(Where(file, sec.line) + "unknown section [" + sec.name +
                        "]; expected [database], [database replica NAME], [server], [site], [status], "
                        "[feed NAME] or [set NAME]");
    }
  }
  if (c.feeds.empty()) throw ConfigError(file + ": no [feed NAME] section");
  // A set's sections are served as its parts, not at a path of their own,
  // and take the set's format and the sitemaps.org limits.
  for (size_t i = 0; i < c.sets.size(); ++i) {
    SetConfig& s = c.sets[i];
    const std::string where = Where(file, set_lines[i]) + "[set " + s.name + "] ";
    for (const std::string& name : s.sections) {
      auto it = std::find_if(c.feeds.begin(), c.feeds.end(), [&](const FeedConfig& f) { return f.name == name; });
      if (it == c.feeds.end()) throw ConfigError(where + "names no [feed " + name + "]");
      if (it->path.empty()) throw ConfigError(where + "shares [feed " + name + "] with another set");
      if (it->format != s.format) {
        throw ConfigError(where + "and [feed " + name + "] differ in format (a .txt set takes format = text feeds)");
      }
      if (!it->continue_param.empty() || it->since != SinceSource::kNone || it->order != Direction::kAscending ||
          it->lifecycle != Lifecycle::kNone) {
        throw ConfigError(where + "takes feeds of every current item in keyset order: [feed " + name +
                          "] has since, continue or order");
      }
      const int64_t byte_cap = s.format == Format::kXml ? kMaxXmlPartBytes : kMaxTextPartBytes;
      if (it->max_items == 0) it->max_items = kMaxPartItems;
      if (it->max_bytes == 0) it->max_bytes = byte_cap;
      it->path.clear();
    }
  }
  for (size_t i = 0; i < c.feeds.size(); ++i) {
    const FeedConfig& f = c.feeds[i];
    if (!f.path.empty() && !paths.insert(f.path).second) {
      throw ConfigError(Where(file, feed_lines[i]) + "two feeds have path " + f.path);
    }
  }
  for (size_t i = 0; i < c.sets.size(); ++i) {
    if (!paths.insert(c.sets[i].path).second) {
      throw ConfigError(Where(file, set_lines[i]) + "two feeds have path " + c.sets[i].path);
    }
  }
  if (c.status.enabled && paths.count(c.status.path)) {
    throw ConfigError(Where(file, status_line) + "[status] path " + c.status.path + " is a feed's path");
  }
  Override("FEED_DB_HOST", &c.database.host);
  Override("FEED_DB_SOCKET", &c.database.socket);
  Override("FEED_DB_USER", &c.database.user);
  Override("FEED_DB_PASSWORD", &c.database.password);
  Override("FEED_DB_NAME", &c.database.name);
  if (const char* p = std::getenv("FEED_DB_PORT")) {
    c.database.port = ParseInt({p, 0}, "FEED_DB_PORT", "FEED_DB_PORT", 1, 65535);
  }
  if (c.database.name.empty()) throw ConfigError(file + ": [database] needs name (or FEED_DB_NAME)");
  for (const IniSection* sec : replica_sections) {
    ReplicaConfig r;
    r.name = sec->name.substr(17);
    r.database = c.database;
    r.database.host.clear();
    r.database.socket.clear();
    r.database.port = 3306;
    LoadDatabase(*sec, file, base_dir, &r.database, true);
    CheckSsl(*sec, file, r.database);
    std::string env = "FEED_DB_REPLICA_";
    for (char ch : r.name) env += ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    Override((env + "_HOST").c_str(), &r.database.host);
    Override((env + "_SOCKET").c_str(), &r.database.socket);
    Override((env + "_USER").c_str(), &r.database.user);
    Override((env + "_PASSWORD").c_str(), &r.database.password);
    if (const char* p = std::getenv((env + "_PORT").c_str())) {
      r.database.port = ParseInt({p, 0}, env + "_PORT", env + "_PORT", 1, 65535);
    }
    if (r.database.host.empty() && r.database.socket.empty()) {
      throw ConfigError(Where(file, sec->line) + "[" + sec->name + "] needs host or socket (or " + env + "_HOST)");
    }
    // MASTER_GTID_WAIT holds the connection replica_wait seconds.
    if (r.database.read_timeout <= c.database.replica_wait) {
      throw ConfigError(Where(file, sec->line) + "[" + sec->name + "] read_timeout (" +
                        std::to_string(r.database.read_timeout) + ") must be longer than [database] replica_wait (" +
                        std::to_string(c.database.replica_wait) + ")");
    }
    c.replicas.push_back(std::move(r));
  }
  return c;
}

std::string ReadSiteFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> TemplateValues(const Config& site, const FeedConfig* feed) {
  std::map<std::string, std::string> fixed;
  for (const auto& [k, v] : site.site) fixed["site." + k] = v;
  if (feed) {
    for (const auto& [k, v] : feed->values) fixed["value." + k] = v;
  }
  return fixed;
}

std::string SetConfig::PartPattern() const {
  const size_t dot = path.rfind('.');
  const std::string stem = path.substr(0, dot), ext = path.substr(dot);
  if (format == Format::kText && sections.size() == 1) return stem + "-{n}" + ext;
  return stem + "-{section}-{n}" + ext;
}

// Relative paths resolve against the config's folder, made absolute: the
// same files whatever the working folder of whoever started the program
// (cron starts it in the owner's home), and absolute paths for the web
// server (X-Sendfile names spool files by them).
Config LoadConfig(const std::string& file) {
  std::string base = DirOf(file);
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(base, ec);
  if (!ec) base = absolute.lexically_normal().string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return ParseConfig(ReadSiteFile(file), file, base);
}

int RequestLockWait(const DatabaseConfig& db) { return std::max(1, std::min(kRequestLockWait, db.read_timeout - 2)); }

int RequestWaitBound(const Config& c) {
  // A statement waits for a reply (read) or to be sent (write).
  auto statement = [](const DatabaseConfig& d) { return d.connect_timeout + std::max(d.read_timeout, d.write_timeout); };
  int bound = 2 * statement(c.database) + RequestLockWait(c.database);
  for (const ReplicaConfig& r : c.replicas) bound += 2 * statement(r.database);
  return bound;
}

FeedConfig FullWalkOf(const FeedConfig& f) {
  FeedConfig w = f;
  w.query_file = f.query_full_file;
  w.state_query_file = f.state_query_full_file;
  w.keyset = f.keyset_full;
  w.order = Direction::kAscending;
  w.since = SinceSource::kNone;
  w.query_full_file.clear();
  w.state_query_full_file.clear();
  w.keyset_full.clear();
  w.full_walk = true;
  return w;
}

}  // namespace feed
