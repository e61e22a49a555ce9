// A small file system of a test's own, made full or read-only by the test:
// how the disk tests inject "no room" (ENOSPC, EROFS) without waiting on
// anything. Mounting needs root (CI runs as root); a test that is not root
// skips (see ok() and why()).
#pragma once

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace feed::testing {

class ScratchFs {
 public:
  // A tmpfs of `bytes` mounted at `dir` (made when missing), open to every
  // user (the web server's too).
  ScratchFs(std::string dir, size_t bytes) : dir_(std::move(dir)), options_("size=" + std::to_string(bytes)) {
    if (::geteuid() != 0) {
      why_ = "mounting a tmpfs needs root";
      return;
    }
    ::mkdir(dir_.c_str(), 0755);
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, (options_ + ",mode=1777").c_str()) != 0) {
      why_ = "mount -t tmpfs " + dir_ + ": " + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  // Unmounts, whatever the test did (a failed assertion included).
  ~ScratchFs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  ScratchFs(const ScratchFs&) = delete;
  ScratchFs& operator=(const ScratchFs&) = delete;

  bool ok() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::string& path() const { return dir_; }

  // Fills the file system with DIR/.filler until at most `leave` bytes are
  // free (0: until a write gets ENOSPC). Returns false when it could not.
  bool Fill(size_t leave = 0) {
    const std::string filler = dir_ + "/.filler";
    const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    static const std::string block(4096, 'f');
    bool full = false;
    for (;;) {
      struct statvfs s;
      if (::fstatvfs(fd, &s) != 0) break;
      const size_t free = static_cast<size_t>(s.f_bavail) * s.f_frsize;
      if (leave > 0 && free <= leave) {
        full = true;
        break;
      }
      const size_t n = leave > 0 ? std::min(block.size(), free - leave) : block.size();
      if (::write(fd, block.data(), n) < 0) {
        full = errno == ENOSPC;
        break;
      }
    }
    ::close(fd);
    return full;
  }
  // Removes what Fill wrote: the space returns.
  void Free() { ::unlink((dir_ + "/.filler").c_str()); }
  // Remounts read-only (true) or writable again (false).
  bool ReadOnly(bool ro) {
    return ::mount(nullptr, dir_.c_str(), nullptr, MS_REMOUNT | (ro ? MS_RDONLY : 0), options_.c_str()) == 0;
  }

 private:
  std::string dir_, options_, why_;
  bool mounted_ = false;
};

}  // namespace feed::testing
