#include "stop_point.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace feed {

void StopPoint(const char* name, long n) {
  const char* at = std::getenv("FEED_STOP_AT");
  if (!at || !*at) return;
  const size_t len = std::strlen(name);
  if (std::strncmp(at, name, len) != 0) return;
  const char* rest = at + len;
  if (*rest == ':') {
    char* end = nullptr;
    const long want = std::strtol(rest + 1, &end, 10);
    if (end == rest + 1 || want != n) return;
    rest = end;
  }
  if (*rest == '@') {
    // Armed by the file: the process that removes it is the one killed.
    if (::unlink(rest + 1) != 0) return;
  } else if (*rest != '\0') {
    return;  // another point whose name begins with this one's
  }
  ::kill(::getpid(), SIGKILL);
  ::pause();
}

}  // namespace feed
