// The config's keys, declared once: for each section a table of the keys
// it takes, each with its name, the form of its value, its default, the
// one-line help text and the function that checks and stores it (as kcgi
// declares its kvalid fields). The loaders of config.cpp read sections
// through these tables; `feed.fcgi keys` and docs/config-keys.md print
// them; --help names the environment variables from the same place.
//
// Loading is pure: the environment's overrides (FEED_DB_*, FEED_SECRET,
// TZDIR) come in as a ConfigEnvironment, which only the program's edge
// reads from the process (ConfigEnvironment::FromProcess).
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace feed {

// Where a section's values resolve: the config's name (for messages), its
// folder (relative paths) and the environment.
struct ConfigSource {
  std::string file;
  std::string base_dir;
  const ConfigEnvironment* env;
};

// One "key = value" line of a section, and the table entry that reads it.
struct KeyInput {
  const std::string& key;
  const IniValue& value;
  const ConfigSource& source;
  int lo = 0, hi = 0;  // the entry's bounds, for Int()
  // "FILE:LINE: ", the start of every message about the line.
  std::string Where() const;
  [[noreturn]] void Refuse(const std::string& what) const;
  // A whole number from lo to hi, or refused with that range.
  int Int() const;
  // 0 or 1.
  bool Flag() const;
  // The value as a path: absolute as it is, else under the config's folder.
  std::string Path() const;
};

template <class T>
struct ConfigKey {
  const char* name;      // "port"
  const char* form;      // the value's form: "asc | desc", "FILE"; "" for a whole number lo-hi
  int lo, hi;            // a whole number's bounds
  const char* fallback;  // the default, as text ("" when there is none)
  const char* help;      // one line: what it does
  void (*load)(const KeyInput& in, T* out);
};

// The sections' loaders. Each refuses an unknown key, a bad value, or a
// section whose keys do not go together, with FeedError(kConfig)
// "FILE:LINE: ...".
// [database] (replica false) or [database replica NAME] (replica true).
void LoadDatabaseSection(const IniSection& sec, const ConfigSource& source, DatabaseConfig* db, bool replica);
void LoadServerSection(const IniSection& sec, const ConfigSource& source, ServerConfig* server);
void LoadStatusSection(const IniSection& sec, const ConfigSource& source, StatusConfig* status);
// [site]: time_zone and the template's {site.KEY} values.
void LoadSiteSection(const IniSection& sec, const ConfigSource& source, Config* c);
// `server_secret`: [server] secret, already checked, or "".
FeedConfig LoadFeedSection(const IniSection& sec, const ConfigSource& source, const std::string& server_secret);
SetConfig LoadSetSection(const IniSection& sec, const ConfigSource& source);

// The environment's overrides of [database] and of each replica (after
// the file's keys), and FEED_SECRET, checked (SecretUnfit). Refuses a
// FEED_*_PORT that is not a port.
void ApplyDatabaseEnvironment(const ConfigEnvironment& env, DatabaseConfig* db);
void ApplyReplicaEnvironment(const ConfigEnvironment& env, const std::string& replica, DatabaseConfig* db);
// FEED_DB_REPLICA_<NAME> (capitals, '-' as '_'): the start of a replica's variables.
std::string ReplicaEnvironmentPrefix(const std::string& replica);

// Shared by the loaders: "FILE:LINE: "; letters, digits, '_' and '-', 1 to
// 64 of them; the words of a list (spaces, a trailing comma dropped).
std::string ConfigWhere(const std::string& file, int line);
bool IsConfigName(const std::string& s);
std::vector<std::string> ConfigWords(const std::string& s);

// The key reference: plain text (`feed.fcgi keys`) and Markdown (the body
// of docs/config-keys.md, as committed).
std::string ConfigKeysText();
std::string ConfigKeysMarkdown();
// The sentence of --help on the environment's overrides.
std::string ConfigEnvironmentHelp();

}  // namespace feed
