// The site owner's configuration: one INI file (named by FEED_CONFIG) with a
// [database] section, a [site] section and one [feed NAME] section per feed.
// Loading checks every key and value and reports the first problem as a
// FeedError(kConfig) whose message starts "FILE:LINE: "; the program then
// exits without serving anything.
//
//   [database]              host, port, socket, user, password, name,
//                           charset (connection character set, utf8mb4),
//                           connect_timeout, read_timeout, write_timeout;
//                           ssl_mode, ssl_ca, ssl_cert, ssl_key (TLS),
//                           plugin_dir (authentication plugins);
//                           replica_wait, replica_check (with replicas)
//   [database replica NAME] a read replica of [database] (the primary):
//                           the same keys but replica_*, each one not given
//                           taken from [database] except host, port and
//                           socket, of which host or socket is required;
//                           used in the order the file lists them
//   [server]                hand_off, spool_dir, spool_memory, secret
//                           (ServerConfig)
//   [site]                  time_zone (IANA), and any other key, readable by
//                           templates as {site.KEY} (url, host, title...)
//   [feed yads]             see FeedConfig below; value.KEY lines give the
//                           template {value.KEY} (empty when not set)
//   [set sitemap]           a document set (see SetConfig): an index and
//                           numbered parts of one or more section feeds
//   [status]                the owner's status page (StatusConfig), off
//                           unless enabled = 1
//
// Each section's keys are declared in one table (config_keys.h), from
// which the loader, `feed.fcgi keys` and docs/config-keys.md all come.
//
// FEED_DB_HOST, FEED_DB_PORT, FEED_DB_SOCKET, FEED_DB_USER, FEED_DB_PASSWORD
// and FEED_DB_NAME in the environment (a ConfigEnvironment) override the [database] keys (and so
// the keys a replica takes from it), FEED_DB_REPLICA_<NAME>_HOST, _PORT,
// _SOCKET, _USER and _PASSWORD those of [database replica NAME] (NAME in
// capitals, '-' as '_'), and FEED_SECRET every feed's secret: the shipped configs carry no secret, so
// that no installed file holds one (see SecretUnfit).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "encoder.h"
#include "time_zone.h"
#include "xml_text.h"

namespace feed {

// One parsed INI file: sections of key/value pairs, each remembering its
// line for error messages.
struct IniValue {
  std::string value;
  int line = 0;
};
struct IniSection {
  std::string name;  // "database", "feed yads"
  int line = 0;
  std::vector<std::pair<std::string, IniValue>> entries;  // in file order
};
// Parses INI text: "[section]" headers, "key = value" lines, whole-line
// comments starting with ';' or '#', blank lines; values trimmed, optionally
// double-quoted. A key outside a section, a duplicate key within a section,
// a duplicate section or a line of any other form throws
// FeedError(kConfig) "FILE:LINE: ...".
std::vector<IniSection> ParseIni(const std::string& text, const std::string& file);

// How the connection to the server is secured ([database] ssl_mode, named
// as MySQL's --ssl-mode).
enum class SslMode {
  kDisabled,        // no TLS (the default: what the program always did)
  kPreferred,       // TLS when the server offers it, unverified; else plain
  kRequired,        // TLS or no connection; the certificate is not verified
  kVerifyCa,        // TLS, the server's certificate signed by ssl_ca
  kVerifyIdentity,  // as kVerifyCa (ssl_ca, or the system's CAs), and for the host connected to
};
// "disabled", "preferred", "required", "verify_ca", "verify_identity".
const char* SslModeName(SslMode mode);

struct DatabaseConfig {
  std::string host = "localhost";
  int port = 3306;
  std::string socket;  // when set, used instead of host/port
  std::string user;
  std::string password;
  std::string name;
  std::string charset = "utf8mb4";
  // Seconds before the driver gives up (then 503 with Retry-After): to
  // connect, and for each read or write of the connection. A statement is
  // tried again once on a fresh connection, so one statement waits at most
  // 2 x (connect + read) for a database that stopped answering.
  //
  // The rule: a request's worst wait (RequestWaitBound: 2 x (connect +
  // the longer of read and write), plus RequestLockWait for another
  // process's lock, plus the same 2 x (...) for each replica) stays well
  // under the web server's timeout for a silent program, or the client
  // gets the web server's 500 instead of the program's 503. mod_fcgid's
  // FcgidIOTimeout is 40 s by default, and a shared host's owner cannot
  // raise it in .htaccess; the defaults give 2 x (3 + 10) + 5 = 31 s.
  // replica_wait counts within a replica's read (it must be shorter). The
  // spool adds no wait: a body is whole before anything is sent. `check`
  // warns when a config's bound reaches 40 s.
  int connect_timeout = 3;
  int read_timeout = 10;
  int write_timeout = 10;
  // TLS: ssl_ca is the CA file (PEM) verify_ca needs and verify_identity
  // may take; ssl_cert and ssl_key (both or neither) a client certificate
  // for a server that asks for one (any mode but disabled). Paths are
  // absolute after loading (relative ones from the config's folder).
  SslMode ssl_mode = SslMode::kDisabled;
  std::string ssl_ca;
  std::string ssl_cert;
  std::string ssl_key;
  // Where the client library finds authentication plugins (ed25519,
  // caching_sha2_password); "" for its own default, or the folder the
  // MARIADB_PLUGIN_DIR environment variable names.
  std::string plugin_dir;
  // With replicas ([database] only): seconds a page waits for a replica to
  // reach the replication position its run began at before the next
  // replica, then the primary, is tried; and how often, at most, a
  // replica's health (reachable, both replication threads running) is
  // asked again.
  int replica_wait = 5;
  int replica_check = 5;
};

// How long a request waits, at most, for a lock another process holds on
// the request path (a set's part plan being made, an MSN feed's sync):
// kRequestLockWait seconds, less when read_timeout is shorter (GET_LOCK
// holds the connection's read while it waits), at least 1.
constexpr int kRequestLockWait = 5;
int RequestLockWait(const DatabaseConfig& db);

// mod_fcgid's FcgidIOTimeout by default: a request silent this long is
// answered 500 by Apache.
constexpr int kWebServerTimeout = 40;

// [database replica NAME]: a replica of the primary that feeds read from.
struct ReplicaConfig {
  std::string name;
  DatabaseConfig database;
};

// How live responses reach the client ([server]; see spool.h).
enum class HandOff {
  kNone,       // the program sends every body itself, with Content-Length
  kXSendfile,  // bodies over spool_memory are named to the web server (X-Sendfile)
  kRedirect,   // bodies over spool_memory are published in redirect_dir, the client sent there
};
struct ServerConfig {
  HandOff hand_off = HandOff::kNone;
  std::string spool_dir;             // where whole bodies wait; "" the system's temporary folder
  int64_t spool_memory = 256 << 10;  // bytes of a body kept in memory, and sent by the program
  // secret = ...: keys the continue tokens of every feed that names no
  // secret of its own, so that an owner who can set no environment
  // variable (a shared host) keeps it in the file; FEED_SECRET still wins.
  std::string secret;
  // hand_off = redirect (a host without X-Sendfile): the folder large
  // bodies are published in, where the web server serves it (an absolute
  // URL or a path of the site; "" for a folder beside the program, served
  // beside it: /cgi-bin/feed-out for /cgi-bin/feed.fcgi), and how long a
  // published body stays.
  std::string redirect_dir;
  std::string redirect_url;
  int redirect_seconds = 600;
};

// The direction a feed's keyset walks its rows (see keyset.h).
enum class Direction { kAscending, kDescending };

// Where a feed's since-moment comes from.
enum class SinceSource {
  kNone,   // every current item, always
  kParam,  // a query parameter in "YYYY-MM-DD HH:MM:SS", site time (Yads)
  kRobot,  // If-Modified-Since, else the robot's last whole visit (Jooble)
};

// How a feed's items live (lifecycle = ...).
enum class Lifecycle {
  kNone,  // each response shows the rows as the query returns them
  kMsn,   // MSN's content ingestion: stable guids, a modified date that moves
          // only when an item's rendered content changes, and take-downs for
          // items that left the board (see msn_feed.h)
};

// The sitemaps.org limits, which no configured limit may pass.
constexpr int kMaxPartItems = 50000;
constexpr int64_t kMaxXmlPartBytes = 52428800;
constexpr int64_t kMaxTextPartBytes = 10485760;

// A child query of a feed (children.h): child.NAME = FILE, and
// child.NAME.max = N, the rows one parent carries at most (default 20).
struct ChildConfig {
  std::string name;
  std::string query_file;
  int max_per_parent = 20;
  int line = 0;
};

struct FeedConfig {
  std::string name;              // from the section header
  std::string path;              // PATH_INFO that selects it: "/yads"; "" for a set's section
  std::string template_file;     // absolute after loading
  std::string query_file;        // the rows: named parameters, see sql_query.h
  std::string state_query_file;  // optional: newest change, for Last-Modified/ETag
  Charset encoding = Charset::kUtf8;
  Format format = Format::kXml;             // format = xml | text
  std::string content_type = "text/xml";    // text/plain for format = text
  Direction order = Direction::kAscending;  // order = asc | desc (the newest first)
  int max_items = 0;                        // rows per document (0: all); see LoadFeed
  int64_t max_bytes = 0;                    // bytes per document before compression (0: any)
  bool gzip_files = false;                  // a static write adds .gz twins
  std::string lastmod;                      // the row field holding the row's last change
  SinceSource since = SinceSource::kNone;
  std::string since_param;                    // with kParam: "date"
  std::string robot;                          // with kRobot: "JoobleBot", found in User-Agent
  int overlap_visits = 1;                     // with kRobot: 1, since = the visit before the last; 0, the last
  std::string continue_param;                 // empty: one response holds every row
  int page_size = 0;                          // rows per response; 0: unpaged
  int fetch_rows = 1000;                      // rows per query (internal keyset paging)
  // page_ahead = N (0 to 8): a paged feed (not a robot's) makes the next N
  // pages of a run while the web server sends the page before them
  // (page_ahead.h). 2 by default for such feeds; more than 0 elsewhere is
  // refused.
  int page_ahead = 0;
  bool stream = false;                        // read = stream: plain statements whose rows stream
  std::string db_charset;                     // connection charset for this feed's rows ("" = [database])
  std::vector<std::string> keyset;            // result fields ordering the query, 1-3
  std::string secret;                         // keys the continue token (or FEED_SECRET)
  int settle_seconds = 10;                    // written date = run start - settle
  int max_run_seconds = 604800;               // a token whose run began longer ago gets 400
  std::map<std::string, std::string> values;  // value.KEY = ...: {value.KEY} in the template
  std::vector<ChildConfig> children;          // child.NAME = FILE: rows of other tables per row
  // lifecycle = msn (see msn_feed.h); max_items then defaults to 1000.
  Lifecycle lifecycle = Lifecycle::kNone;
  int window_days = 7;     // items created or modified this long ago are listed
  int retention_days = 7;  // a take-down stays listed this long
  std::string guid_prefix; // guid = prefix + the keyset id ("ad-" gives "ad-123"); default NAME-
  // A second walk for a request with no since-moment (a full dump), with a
  // since-source only: its own query in the order of keyset_full (the
  // primary key), which the server reads faster than the since-order
  // index. A continue token of one walk is never taken by the other.
  std::string query_full_file;           // query_full = FILE
  std::string state_query_full_file;     // state_query_full = FILE: required with state_query
  std::vector<std::string> keyset_full;  // keyset_full = FIELDS; default: the keyset's last field
  bool full_walk = false;                // this is FullWalkOf a feed's config
};

// The feed that walks `f`'s full dump: `f` with query_full, its state
// query and keyset_full in place of query, state_query and keyset, walked
// ascending, with no since-source. REQUIRES: !f.query_full_file.empty().
FeedConfig FullWalkOf(const FeedConfig& f);

// A document set: parts of its section feeds, each part a keyset range of
// one section, and (XML) an index listing them.
struct SetConfig {
  std::string name;                   // from the section header
  std::string path;                   // "/sitemap.xml": the index; "/urls.txt": the stem of text parts
  Format format = Format::kXml;       // from the path: .txt is a text set (no index)
  std::string template_file;          // the index's (XML sets)
  std::vector<std::string> sections;  // [feed NAME]s, in the order the index lists them
  std::string publish_url;            // where the set is published: parts' locs are under it
  int max_items = kMaxPartItems;      // the index's own limits
  int64_t max_bytes = kMaxXmlPartBytes;
  bool gzip_files = false;    // a static write adds .gz twins of the index
  int refresh_seconds = 300;  // live: how old a part plan may grow before it is refreshed
  int part_fill = 90;         // live: a new part closes at this percent of its limits
  // The path pattern of the parts: "/sitemap-{section}-{n}.xml", "/urls-{n}.txt".
  std::string PartPattern() const;
};

// The status page ([status]; see status.h). Off unless enabled; enabled, it
// needs a token, an address list or both (both: a request must pass both),
// so that it is never public by accident.
struct StatusConfig {
  bool enabled = false;
  std::string path = "/status";
  std::string token;               // at least 16 characters, as a secret (SecretUnfit)
  std::vector<std::string> allow;  // addresses and CIDR ranges: "127.0.0.1", "10.0.0.0/8", "::1"
  int reports = 20;                // run reports kept per feed (1-1000), the oldest pruned
};

struct Config {
  std::string file;
  DatabaseConfig database;             // the primary: every write, and reads no replica can serve
  std::vector<ReplicaConfig> replicas;  // in the file's order
  ServerConfig server;
  std::string time_zone = "UTC";
  TimeZone zone = TimeZone::Utc();          // [site] time_zone, loaded once
  std::map<std::string, std::string> site;  // [site] keys for templates
  std::vector<FeedConfig> feeds;
  std::vector<SetConfig> sets;
  StatusConfig status;
};

// The longest a request can wait on the database servers before it is
// answered (see DatabaseConfig's rule), in seconds.
int RequestWaitBound(const Config& c);

// The values a template fills in when it is compiled, by full name:
// "site.KEY" from [site] and, for a feed, "value.KEY" from its section.
std::map<std::string, std::string> TemplateValues(const Config& site, const FeedConfig* feed);

// The environment loading looks at (the FEED_DB_* and FEED_SECRET
// overrides, TZDIR), given to it rather than read by it, so that parsing is
// pure (see config_keys.h for the variables).
// The variables loading looks at, by name. FromProcess copies TZDIR and
// every FEED_* variable of the process; tests list theirs.
struct ConfigEnvironment {
  std::map<std::string, std::string> vars;
  static ConfigEnvironment FromProcess();
  // The value of `name`, or nullopt when it is not set.
  std::optional<std::string> Get(const std::string& name) const;
};

// Reads and checks the file; applies the overrides `env` holds.
Config LoadConfig(const std::string& file, const ConfigEnvironment& env);
// The same with the process's environment: the program's edge.
Config LoadConfig(const std::string& file);

// Why `secret` cannot key continue tokens, as the rest of a sentence that
// starts with its name ("must be at least 16 characters"), or "" when it
// can. Refused: fewer than 16 characters; fewer than 8 different characters
// (one repeated character, only spaces, "abababab..."); a placeholder, that
// is anything holding "change-me", "changeme" or "change_me" in any case.
std::string SecretUnfit(std::string_view secret);

// The whole of a file the site owner wrote (config, template, SQL); throws
// FeedError(kConfig) "PATH: cannot read the file".
std::string ReadSiteFile(const std::string& path);

// Same, from text (tests); relative paths resolve against `base_dir`. Pure:
// the environment is `env` alone (none by default).
Config ParseConfig(const std::string& text, const std::string& file, const std::string& base_dir,
                   const ConfigEnvironment& env = {});

}  // namespace feed
