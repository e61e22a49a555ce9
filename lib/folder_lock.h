// The lock of a folder a static write fills (`feed.fcgi write PATH DIR`):
// one run at a time per folder, whoever started it (cron, a person, two
// configs naming the same folder).
//
// It is flock(2) on the file DIR.lock beside DIR (not in it: DIR is swapped
// whole). The kernel releases it when the process ends, however it ends
// (SIGKILL included), so a lock never outlives its run; the file itself
// stays, unlocked, and blocks nobody. While held, the file holds the
// holder's pid (for the message of a run that finds it taken); it is
// emptied again before the lock is released.
#pragma once

#include <sys/types.h>

#include <string>

namespace feed {

class FolderLock {
 public:
  // Tries once, without waiting, to lock `dir` (a path without a trailing
  // '/'; its parent folder must exist and be writable). Throws
  // FeedError(kInternal) when the lock file cannot be made, locked (for
  // another reason than a holder) or written; kFull instead where
  // FileError says so (no room, over quota, read-only).
  explicit FolderLock(const std::string& dir);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

  bool acquired() const { return acquired_; }
  // When not acquired: the pid the holder wrote into the file, 0 when it
  // has not written it yet (it took the lock a moment ago).
  pid_t holder() const { return holder_; }
  const std::string& path() const { return path_; }

  // The lock file's name for `dir`.
  static std::string PathFor(const std::string& dir) { return dir + ".lock"; }

 private:
  std::string path_;
  int fd_ = -1;
  bool acquired_ = false;
  pid_t holder_ = 0;
};

}  // namespace feed
