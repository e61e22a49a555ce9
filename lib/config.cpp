#include "config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "ascii.h"
#include "config_keys.h"
#include "continue_token.h"
#include "datetime.h"
#include "error.h"
#include "url.h"

namespace feed {
namespace {

std::string Trim(std::string_view s) { return std::string(TrimSpace(s)); }

std::string DirOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
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
    if (raw.find('\0') != std::string::npos) throw ConfigError(ConfigWhere(file, line) + "NUL byte");
    std::string s = Trim(raw);
    if (s.empty() || s[0] == ';' || s[0] == '#') continue;
    if (s[0] == '[') {
      if (s.back() != ']') throw ConfigError(ConfigWhere(file, line) + "a section header is [NAME]");
      std::string name = Trim(s.substr(1, s.size() - 2));
      // "feed   yads" and "feed yads" are the same section.
      auto w = ConfigWords(name);
      name.clear();
      for (const auto& x : w) name += (name.empty() ? "" : " ") + x;
      if (name.empty()) throw ConfigError(ConfigWhere(file, line) + "empty section name");
      if (!seen_sections.insert(name).second) {
        throw ConfigError(ConfigWhere(file, line) + "section [" + name + "] appears twice");
      }
      out.push_back({name, line, {}});
      continue;
    }
    size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw ConfigError(ConfigWhere(file, line) + "expected 'key = value', '[section]' or a comment");
    }
    if (out.empty()) throw ConfigError(ConfigWhere(file, line) + "key before any [section]");
    std::string key = Trim(s.substr(0, eq));
    std::string value = Trim(s.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    for (const auto& [k, v] : out.back().entries) {
      if (k == key)
        throw ConfigError(ConfigWhere(file, line) + "key '" + key + "' repeats (first at line " +
                          std::to_string(v.line) + ")");
    }
    out.back().entries.push_back({key, {value, line}});
  }
  return out;
}

namespace {

// Where each section of the file is read, and the checks across sections.
struct SectionLines {
  std::vector<int> feeds, sets;
  std::vector<const IniSection*> replicas;  // read once [database] is known
  int status = 0;
};

void LoadSection(const IniSection& sec, const ConfigSource& source, Config* c, SectionLines* lines) {
  const std::string& file = source.file;
  if (sec.name == "database") {
    LoadDatabaseSection(sec, source, &c->database, false);
  } else if (sec.name.rfind("database replica ", 0) == 0) {
    if (!IsConfigName(sec.name.substr(17))) {
      throw ConfigError(ConfigWhere(file, sec.line) + "a replica name is letters, digits, '_' and '-'");
    }
    lines->replicas.push_back(&sec);
  } else if (sec.name == "server") {
    // Read first: see ParseConfig.
  } else if (sec.name == "site") {
    LoadSiteSection(sec, source, c);
  } else if (sec.name == "status") {
    LoadStatusSection(sec, source, &c->status);
    lines->status = sec.line;
  } else if (sec.name.rfind("feed ", 0) == 0) {
    c->feeds.push_back(LoadFeedSection(sec, source, c->server.secret));
    lines->feeds.push_back(sec.line);
  } else if (sec.name.rfind("set ", 0) == 0) {
    c->sets.push_back(LoadSetSection(sec, source));
    lines->sets.push_back(sec.line);
  } else {
    throw ConfigError(ConfigWhere(file, sec.line) + "unknown section [" + sec.name +
                      "]; expected [database], [database replica NAME], [server], [site], [status], "
                      "[feed NAME] or [set NAME]");
  }
}

// A set's sections are served as its parts, not at a path of their own,
// and take the set's format and the sitemaps.org limits.
void JoinSets(const std::string& file, const SectionLines& lines, Config* c) {
  for (size_t i = 0; i < c->sets.size(); ++i) {
    SetConfig& s = c->sets[i];
    const std::string where = ConfigWhere(file, lines.sets[i]) + "[set " + s.name + "] ";
    for (const std::string& name : s.sections) {
      auto it = std::find_if(c->feeds.begin(), c->feeds.end(), [&](const FeedConfig& f) { return f.name == name; });
      if (it == c->feeds.end()) throw ConfigError(where + "names no [feed " + name + "]");
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
}

// No two feeds, sets or the status page at one path.
void CheckPaths(const std::string& file, const SectionLines& lines, const Config& c) {
  std::set<std::string> paths;
  for (size_t i = 0; i < c.feeds.size(); ++i) {
    const FeedConfig& f = c.feeds[i];
    if (!f.path.empty() && !paths.insert(f.path).second) {
      throw ConfigError(ConfigWhere(file, lines.feeds[i]) + "two feeds have path " + f.path);
    }
  }
  for (size_t i = 0; i < c.sets.size(); ++i) {
    if (!paths.insert(c.sets[i].path).second) {
      throw ConfigError(ConfigWhere(file, lines.sets[i]) + "two feeds have path " + c.sets[i].path);
    }
  }
  if (c.status.enabled && paths.count(c.status.path)) {
    throw ConfigError(ConfigWhere(file, lines.status) + "[status] path " + c.status.path + " is a feed's path");
  }
}

// Each replica: [database] with its own keys and the environment's on top.
void LoadReplicas(const ConfigSource& source, const SectionLines& lines, Config* c) {
  for (const IniSection* sec : lines.replicas) {
    ReplicaConfig r;
    r.name = sec->name.substr(17);
    r.database = c->database;
    r.database.host.clear();
    r.database.socket.clear();
    r.database.port = 3306;
    LoadDatabaseSection(*sec, source, &r.database, true);
    ApplyReplicaEnvironment(*source.env, r.name, &r.database);
    const std::string where = ConfigWhere(source.file, sec->line) + "[" + sec->name + "] ";
    if (r.database.host.empty() && r.database.socket.empty()) {
      throw ConfigError(where + "needs host or socket (or " + ReplicaEnvironmentPrefix(r.name) + "_HOST)");
    }
    // MASTER_GTID_WAIT holds the connection replica_wait seconds.
    if (r.database.read_timeout <= c->database.replica_wait) {
      throw ConfigError(where + "read_timeout (" + std::to_string(r.database.read_timeout) +
                        ") must be longer than [database] replica_wait (" +
                        std::to_string(c->database.replica_wait) + ")");
    }
    c->replicas.push_back(std::move(r));
  }
}

}  // namespace

Config ParseConfig(const std::string& text, const std::string& file, const std::string& base_dir,
                   const ConfigEnvironment& env) {
  Config c;
  c.file = file;
  if (const std::optional<std::string> secret = env.Get("FEED_SECRET")) {
    if (std::string why = SecretUnfit(*secret); !why.empty()) throw ConfigError(file + ": FEED_SECRET " + why);
  }
  const ConfigSource source{file, base_dir, &env};
  const std::vector<IniSection> sections = ParseIni(text, file);
  // [server] secret keys every feed that has none of its own, wherever the
  // section stands in the file.
  for (const IniSection& sec : sections) {
    if (sec.name == "server") LoadServerSection(sec, source, &c.server);
  }
  SectionLines lines;
  for (const IniSection& sec : sections) LoadSection(sec, source, &c, &lines);
  if (c.feeds.empty()) throw ConfigError(file + ": no [feed NAME] section");
  JoinSets(file, lines, &c);
  CheckPaths(file, lines, c);
  ApplyDatabaseEnvironment(env, &c.database);
  if (c.database.name.empty()) throw ConfigError(file + ": [database] needs name (or FEED_DB_NAME)");
  LoadReplicas(source, lines, &c);
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
Config LoadConfig(const std::string& file, const ConfigEnvironment& env) {
  std::string base = DirOf(file);
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(base, ec);
  if (!ec) base = absolute.lexically_normal().string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return ParseConfig(ReadSiteFile(file), file, base, env);
}

Config LoadConfig(const std::string& file) { return LoadConfig(file, ConfigEnvironment::FromProcess()); }

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
