#include "error.h"

#include <cerrno>
#include <cstring>

namespace feed {

int HttpStatus(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kBadRequest:
      return 400;
    case ErrorKind::kNotFound:
      return 404;
    case ErrorKind::kMethodNotAllowed:
      return 405;
    case ErrorKind::kUnavailable:
    case ErrorKind::kBusy:
    case ErrorKind::kFull:
      return 503;
    case ErrorKind::kConfig:
    case ErrorKind::kClientGone:
    case ErrorKind::kInternal:
      return 500;
  }
  return 500;
}

FeedError FileError(const std::string& message, int err, const std::string& what) {
  const std::string m = message + ": " + std::strerror(err);
  switch (err) {
    case ENOSPC:
      return {ErrorKind::kFull, m, what + " is full"};
    case EDQUOT:
      return {ErrorKind::kFull, m, what + " is over its disk quota"};
    case EROFS:
      return {ErrorKind::kFull, m, what + " is read-only"};
    default:
      return InternalError(m);
  }
}

const char* HttpReason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 503:
      return "Service Unavailable";
    default:
      return "Internal Server Error";
  }
}

}  // namespace feed
