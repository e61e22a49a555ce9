#include "error.h"

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
      return 503;
    case ErrorKind::kConfig:
    case ErrorKind::kClientGone:
    case ErrorKind::kInternal:
      return 500;
  }
  return 500;
}

const char* HttpReason(int status) {
  switch (status) {
    case 200:
      return "OK";
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
