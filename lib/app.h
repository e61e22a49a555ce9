// The whole program behind the entry point: the config's feeds in a table
// by path, one database connection, and the answer to every request. It
// never throws out of Handle: client mistakes get a one-line 4xx, a database
// outage 503 with Retry-After, and a failure after the body began leaves
// the body cut (no closing tags), logged.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "database.h"
#include "feed.h"
#include "http.h"
#include "output.h"

namespace feed {

class App {
 public:
  // Loads every feed's template and SQL; throws FeedError(kConfig).
  explicit App(Config config);

  // Checks every feed's mapping against the database. Throws kConfig on a
  // mapping error; kUnavailable when the database cannot be reached.
  void CheckDatabase();

  // Answers one request on `out` (CGI-style head first when `with_head`).
  // Returns the status sent. `report` (optional) receives what was written.
  int Handle(const Request& req, Sink& out, bool with_head, FeedReport* report = nullptr);

  // Where log lines go (stderr by default: Apache's error log under
  // mod_fcgid).
  void SetLog(std::function<void(const std::string&)> log) { log_ = std::move(log); }

  Database& database() { return db_; }
  const Config& config() const { return config_; }

 private:
  Feed* Find(const std::string& path);

  Config config_;
  Database db_;
  std::vector<std::unique_ptr<Feed>> feeds_;
  std::function<void(const std::string&)> log_;
};

}  // namespace feed
