#include "folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "error.h"

namespace feed {

FolderLock::FolderLock(const std::string& dir) : path_(PathFor(dir)) {
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw FileError("cannot create the lock file " + path_, errno, "the set's folder");
  int rc;
  while ((rc = flock(fd_, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int err = errno;
    if (err != EWOULDBLOCK) {
      close(fd_);
      fd_ = -1;
      throw InternalError("cannot lock " + path_ + ": " + std::strerror(err));
    }
    char buf[24] = {};
    const ssize_t n = pread(fd_, buf, sizeof buf - 1, 0);
    if (n > 0) holder_ = static_cast<pid_t>(std::atol(buf));
    close(fd_);
    fd_ = -1;
    return;
  }
  acquired_ = true;
  // Whatever a killed run left in it is replaced by this run's pid.
  char buf[24];
  const int len = std::snprintf(buf, sizeof buf, "%ld\n", static_cast<long>(getpid()));
  if (ftruncate(fd_, 0) != 0 || pwrite(fd_, buf, static_cast<size_t>(len), 0) != len) {
    const int err = errno;
    close(fd_);  // releases the lock
    fd_ = -1;
    acquired_ = false;
    throw FileError("cannot write " + path_, err, "the set's folder");
  }
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  // Empty before unlocked: a pid in an unlocked file is only ever a killed
  // run's, which nobody reads (a run that finds the file unlocked takes it).
  if (ftruncate(fd_, 0) != 0) {
    // Nothing to do: the next holder replaces it.
  }
  close(fd_);
}

}  // namespace feed
