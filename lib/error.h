// The project's one error vocabulary. Every module edge reports failure as a
// FeedError whose kind decides the HTTP answer; foreign exceptions
// (sql::SQLException, tinyxml2 errors, std::bad_alloc from parsing) are caught
// inside the module that calls the foreign code and turned into a FeedError
// with the context a log reader needs.
#pragma once

#include <stdexcept>
#include <string>

namespace feed {

enum class ErrorKind {
  kBadRequest,        // 400: a parameter the client sent is malformed
  kNotFound,          // 404: no feed at that path
  kMethodNotAllowed,  // 405: not GET or HEAD
  kUnavailable,       // 503: the database cannot be reached now
  kConfig,            // start-up: config, template or SQL mapping is wrong
  kClientGone,        // writing to the client failed: it went away
  kBusy,              // another run holds the job's lock (a static write's
                      // folder, a feed's sync): nothing was done; 503
  kFull,              // no room to write: a folder is full, over its disk or
                      // inode quota, or read-only, or the database's
                      // tablespace is full; passes when space returns: 503
  kInternal,          // anything else; a bug or a server-side fault
};

class FeedError : public std::runtime_error {
 public:
  // `reason`: what the client is told, one line, when the message is for
  // the log only (a 503's default says no more than "unavailable").
  FeedError(ErrorKind kind, const std::string& message, std::string reason = "")
      : std::runtime_error(message), kind_(kind), reason_(std::move(reason)) {}
  ErrorKind kind() const { return kind_; }
  const std::string& reason() const { return reason_; }

 private:
  ErrorKind kind_;
  std::string reason_;
};

// Shorthands, so that call sites read as what went wrong.
inline FeedError BadRequest(const std::string& m) { return {ErrorKind::kBadRequest, m}; }
inline FeedError NotFound(const std::string& m) { return {ErrorKind::kNotFound, m}; }
inline FeedError Unavailable(const std::string& m, const std::string& reason = "") {
  return {ErrorKind::kUnavailable, m, reason};
}
inline FeedError ConfigError(const std::string& m) { return {ErrorKind::kConfig, m}; }
inline FeedError Busy(const std::string& m) { return {ErrorKind::kBusy, m}; }
inline FeedError InternalError(const std::string& m) { return {ErrorKind::kInternal, m}; }

// A failed call on a file: `message` followed by strerror(err). kFull when
// `err` says there is no room (ENOSPC, EDQUOT: disk or inode quota; EROFS:
// the folder turned read-only), its reason then "`what` is full" (or "is
// over its quota", "is read-only"), `what` naming the place for a client
// ("the spool folder"); kInternal for any other err.
FeedError FileError(const std::string& message, int err, const std::string& what);

// The HTTP status code and reason phrase for an error kind (kConfig and
// kInternal both map to 500).
int HttpStatus(ErrorKind kind);
const char* HttpReason(int status);

}  // namespace feed
