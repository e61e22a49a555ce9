// Where a process finds its config file, and what `check` says of the
// file's permissions. On a shared host the owner can set no environment
// variable for the program (mod_fcgid's FcgidInitialEnv is server config,
// .htaccess's SetEnv reaches requests, not the process), so the file is
// also looked for beside the program.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace feed {

// The file names looked for beside the program, in this order, relative to
// the program's folder: feed.ini next to it, then one and two folders up
// (from public_html/cgi-bin/, ~/feed.ini lies outside the document root).
inline const std::vector<std::string> kConfigBesideProgram = {"feed.ini", "../feed.ini", "../../feed.ini"};

// The folder the program was started from: `feed_home` when set and not
// empty (the release's launcher sets FEED_HOME to its own folder), else the
// folder of /proc/self/exe, else that of `argv0` (made absolute against the
// working folder: mod_cgi passes the script's base name and starts it in
// its folder). "" when none can be told.
std::string ProgramFolder(const char* argv0, const char* feed_home);

// The config file: `flag` (--config) when given, else `env` (FEED_CONFIG)
// when set and not empty, else the first of kConfigBesideProgram under
// `program_folder` that is a regular file. nullopt when there is none;
// `tried`, when not null, receives the paths looked at (for the message).
std::optional<std::string> FindConfigFile(const std::optional<std::string>& flag, const char* env,
                                          const std::string& program_folder, std::vector<std::string>* tried);

// When `file` can be read by every user of the host (mode o+r), a warning
// that names its mode and the command that closes it; "" otherwise (and
// when the file cannot be examined).
std::string ConfigModeWarning(const std::string& file);

// Where database servers keep their Unix socket on the hosts the release
// meets (Debian/Ubuntu, RHEL-family and CloudLinux, FreeBSD-style, a
// source build), first the place libmariadb looks for `host = localhost`.
inline const std::vector<std::string> kMysqlSockets = {
    "/run/mysqld/mysqld.sock", "/var/run/mysqld/mysqld.sock", "/var/lib/mysql/mysql.sock",
    "/tmp/mysql.sock",         "/var/mysql/mysql.sock",       "/usr/local/mysql/mysql.sock"};

// The first of `candidates` that is a Unix socket, or "".
std::string FindMysqlSocket(const std::vector<std::string>& candidates);

}  // namespace feed
