// A disk quota on one folder, for the tests (issue #22, point 3): an
// LD_PRELOAD library that makes the program see what a host's disk or
// inode quota does, EDQUOT, where no kernel quota can be had (tmpfs,
// ext4 and XFS without quota support in a container).
//
//   LD_PRELOAD=build/quota_shim.so QUOTA_SHIM_DIR=/abs/folder
//       QUOTA_SHIM_LIMIT=/abs/limit-file feed.fcgi ...
//
// The limit file holds the folder's budget in bytes (read at every call,
// so a test raises or lowers it while a process runs); no file, or no
// number in it: no limit. The folder's use is the size of the files under
// it, as they stand (a removed file gives its room back, as with a real
// quota). Under the folder, once the use has reached the budget, creating
// a file or folder (open/openat/creat/fopen with creation, mkdir) and
// renaming into it fail with EDQUOT; a write (write, pwrite, writev,
// fwrite) of a file opened under it gets what room is left and then
// EDQUOT. Nothing outside the folder is touched.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 4096

static char tracked[MAX_FDS];  // fds of files opened under the folder

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static const char* Folder(void) {
  const char* d = getenv("QUOTA_SHIM_DIR");
  return d && *d == '/' ? d : NULL;
}

// Whether `path` (relative to `dirfd`, AT_FDCWD: the working folder) is
// the folder or under it. Only absolute paths and those relative to the
// working folder are judged; the program uses no others there.
static int Under(int dirfd, const char* path) {
  const char* dir = Folder();
  if (!dir || !path) return 0;
  char full[2 * PATH_MAX + 2];
  if (path[0] == '/') {
    snprintf(full, sizeof full, "%s", path);
  } else if (dirfd == AT_FDCWD) {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return 0;
    snprintf(full, sizeof full, "%s/%s", cwd, path);
  } else {
    return 0;
  }
  const size_t n = strlen(dir);
  return strncmp(full, dir, n) == 0 && (full[n] == '\0' || full[n] == '/');
}

// The budget in bytes, or -1: none.
static long long Limit(void) {
  const char* file = getenv("QUOTA_SHIM_LIMIT");
  if (!file) return -1;
  int (*real_open)(const char*, int, ...) = REAL(open);
  ssize_t (*real_read)(int, void*, size_t) = REAL(read);
  const int fd = real_open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[32] = {0};
  const ssize_t n = real_read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  char* end = NULL;
  const long long v = strtoll(buf, &end, 10);
  return end == buf ? -1 : v;
}

static long long Use(const char* dir) {
  DIR* d = opendir(dir);
  if (!d) return 0;
  long long total = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char p[2 * PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(p, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) total += Use(p);
    else total += st.st_size;
  }
  closedir(d);
  return total;
}

// The bytes a write may still add (LLONG_MAX: no limit).
static long long Room(void) {
  const long long limit = Limit();
  if (limit < 0 || !Folder()) return LLONG_MAX;
  const long long used = Use(Folder());
  return used >= limit ? 0 : limit - used;
}

static int Refuse(void) {
  errno = EDQUOT;
  return -1;
}

static void Track(int fd, int under) {
  if (fd >= 0 && fd < MAX_FDS) tracked[fd] = (char)under;
}

static int IsTracked(int fd) { return fd >= 0 && fd < MAX_FDS && tracked[fd]; }

// A creation under the folder with no room left: refused (a new file
// needs an inode and a block of the quota; an existing one does not).
static int CreateRefused(int dirfd, const char* path, int flags) {
  if (!(flags & O_CREAT) || !Under(dirfd, path)) return 0;
  struct stat st;
  if (fstatat(dirfd, path, &st, 0) == 0 && !(flags & O_EXCL)) return 0;
  return Room() == 0;
}

static int OpenAt(int dirfd, const char* path, int flags, mode_t mode) {
  if (CreateRefused(dirfd, path, flags)) return Refuse();
  int (*real)(int, const char*, int, ...) = REAL(openat);
  const int fd = real(dirfd, path, flags, mode);
  Track(fd, Under(dirfd, path) && (flags & (O_WRONLY | O_RDWR)));
  return fd;
}

static mode_t ModeOf(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; }

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = ModeOf(flags, ap);
  va_end(ap);
  return OpenAt(AT_FDCWD, path, flags, mode);
}
int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = ModeOf(flags, ap);
  va_end(ap);
  return OpenAt(AT_FDCWD, path, flags, mode);
}
int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = ModeOf(flags, ap);
  va_end(ap);
  return OpenAt(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = ModeOf(flags, ap);
  va_end(ap);
  return OpenAt(dirfd, path, flags, mode);
}
int creat(const char* path, mode_t mode) { return OpenAt(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char* path, mode_t mode) { return OpenAt(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

int close(int fd) {
  Track(fd, 0);
  int (*real)(int) = REAL(close);
  return real(fd);
}

// A copy of a tracked fd is tracked.
int dup(int fd) {
  int (*real)(int) = REAL(dup);
  const int to = real(fd);
  Track(to, IsTracked(fd));
  return to;
}
int dup2(int fd, int to) {
  int (*real)(int, int) = REAL(dup2);
  const int r = real(fd, to);
  if (r >= 0) Track(r, IsTracked(fd));
  return r;
}
int dup3(int fd, int to, int flags) {
  int (*real)(int, int, int) = REAL(dup3);
  const int r = real(fd, to, flags);
  if (r >= 0) Track(r, IsTracked(fd));
  return r;
}

// How much of `n` bytes a write to `fd` may write: n outside the folder.
static size_t Allowed(int fd, size_t n) {
  if (!IsTracked(fd)) return n;
  const long long room = Room();
  return (long long)n > room ? (size_t)room : n;
}

ssize_t write(int fd, const void* buf, size_t n) {
  ssize_t (*real)(int, const void*, size_t) = REAL(write);
  const size_t ok = Allowed(fd, n);
  if (n > 0 && ok == 0) return Refuse();
  return real(fd, buf, ok);
}
ssize_t pwrite(int fd, const void* buf, size_t n, off_t at) {
  ssize_t (*real)(int, const void*, size_t, off_t) = REAL(pwrite);
  const size_t ok = Allowed(fd, n);
  if (n > 0 && ok == 0) return Refuse();
  return real(fd, buf, ok, at);
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off_t at) { return pwrite(fd, buf, n, at); }
ssize_t writev(int fd, const struct iovec* iov, int count) {
  ssize_t (*real)(int, const struct iovec*, int) = REAL(writev);
  if (!IsTracked(fd)) return real(fd, iov, count);
  size_t n = 0;
  for (int i = 0; i < count; ++i) n += iov[i].iov_len;
  const size_t ok = Allowed(fd, n);
  if (n > 0 && ok == 0) return Refuse();
  if (ok == n) return real(fd, iov, count);
  // The part that fits: the first buffers, the last one cut.
  size_t left = ok;
  int used = 0;
  struct iovec cut[64];
  for (; used < count && used < 64 && left > 0; ++used) {
    cut[used] = iov[used];
    if (cut[used].iov_len > left) cut[used].iov_len = left;
    left -= cut[used].iov_len;
  }
  return real(fd, cut, used);
}

// stdio writes inside the C library, out of the reach of the write above:
// fopen and fwrite are judged themselves.
static int WritesMode(const char* mode) { return mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')); }

static FILE* Fopen(FILE* (*real)(const char*, const char*), const char* path, const char* mode) {
  if (WritesMode(mode) && !strchr(mode, 'r') && Under(AT_FDCWD, path)) {
    struct stat st;
    if ((strchr(mode, 'x') || stat(path, &st) != 0) && Room() == 0) {
      errno = EDQUOT;
      return NULL;
    }
  }
  FILE* f = real(path, mode);
  if (f) Track(fileno(f), WritesMode(mode) && Under(AT_FDCWD, path));
  return f;
}
FILE* fopen(const char* path, const char* mode) { return Fopen(REAL(fopen), path, mode); }
FILE* fopen64(const char* path, const char* mode) { return Fopen(REAL(fopen64), path, mode); }

int fclose(FILE* f) {
  if (f) Track(fileno(f), 0);
  int (*real)(FILE*) = REAL(fclose);
  return real(f);
}

size_t fwrite(const void* buf, size_t size, size_t count, FILE* f) {
  size_t (*real)(const void*, size_t, size_t, FILE*) = REAL(fwrite);
  if (size == 0 || !IsTracked(fileno(f))) return real(buf, size, count, f);
  // What the stream holds unwritten counts too.
  const long long room = Room() - (long long)__fpending(f);
  const size_t fit = room <= 0 ? 0 : (size_t)room / size;
  if (fit >= count) return real(buf, size, count, f);
  const size_t done = fit > 0 ? real(buf, size, fit, f) : 0;
  errno = EDQUOT;
  return done;
}

int mkdir(const char* path, mode_t mode) {
  if (Under(AT_FDCWD, path) && Room() == 0) return Refuse();
  int (*real)(const char*, mode_t) = REAL(mkdir);
  return real(path, mode);
}
int mkdirat(int dirfd, const char* path, mode_t mode) {
  if (Under(dirfd, path) && Room() == 0) return Refuse();
  int (*real)(int, const char*, mode_t) = REAL(mkdirat);
  return real(dirfd, path, mode);
}

int rename(const char* from, const char* to) {
  if (Under(AT_FDCWD, to) && !Under(AT_FDCWD, from) && Room() == 0) return Refuse();
  int (*real)(const char*, const char*) = REAL(rename);
  return real(from, to);
}
int renameat(int fromfd, const char* from, int tofd, const char* to) {
  if (Under(tofd, to) && !Under(fromfd, from) && Room() == 0) return Refuse();
  int (*real)(int, const char*, int, const char*) = REAL(renameat);
  return real(fromfd, from, tofd, to);
}
