#include "spool.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "error.h"
#include "stop_point.h"

namespace feed {
namespace {

constexpr size_t kFileBuffer = 64 * 1024;
constexpr time_t kOrphanAge = 60;  // seconds before a dead process's file goes

// kFull when there is no room (the request is answered 503 and may be
// asked again), else kInternal.
[[noreturn]] void Fail(const std::string& what, const std::string& path) {
  throw FileError("spool " + path + ": " + what, errno, "the spool folder");
}

// The pid in "feed-PID-N", or 0.
pid_t OwnerOf(const char* name) {
  if (std::strncmp(name, "feed-", 5) != 0) return 0;
  char* end = nullptr;
  long pid = std::strtol(name + 5, &end, 10);
  if (end == name + 5 || *end != '-' || pid <= 0) return 0;
  return static_cast<pid_t>(pid);
}

}  // namespace

void WriteAll(int fd, const char* p, size_t n, const std::string& path) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      Fail("cannot write", path);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

SpoolDir::SpoolDir(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = tmp && *tmp ? tmp : "/tmp";
  }
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

void SpoolDir::Check() {
  Spool probe(*this, 0);
  try {
    probe.Write("x");
  } catch (const FeedError& e) {
    // No room is not a mistake to fix in the config: it passes (the host
    // frees space, a quota is raised) and the caller goes on without it.
    if (e.kind() == ErrorKind::kFull) throw;
    throw ConfigError(std::string(e.what()) +
                      " (the spool folder, [server] spool_dir: make it writable by the web server's user)");
  }
}

std::string SpoolDir::NewName() { return dir_ + "/feed-" + std::to_string(::getpid()) + "-" + std::to_string(++next_); }

void SpoolDir::Release(int64_t now) {
  size_t n = 0;
  while (n < published_.size() && now - published_[n].second >= kReleaseSeconds)
    ::unlink(published_[n++].first.c_str());
  published_.erase(published_.begin(), published_.begin() + static_cast<std::ptrdiff_t>(n));
}

size_t SpoolDir::Sweep() {
  DIR* d = ::opendir(dir_.c_str());
  if (!d) return 0;
  size_t removed = 0;
  const time_t now = std::time(nullptr);
  while (dirent* e = ::readdir(d)) {
    pid_t pid = OwnerOf(e->d_name);
    if (pid == 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::string path = dir_ + "/" + e->d_name;
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && now - st.st_mtime > kOrphanAge && ::unlink(path.c_str()) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

Spool::Spool(SpoolDir& dir, size_t memory_limit)
    : dir_(dir), memory_limit_(memory_limit), memory_(dir.TakeBuffer()) {}

Spool::~Spool() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(name_.c_str());
  }
  dir_.GiveBack(std::move(memory_));
}

void Spool::Spill() {
  name_ = dir_.NewName();
  auto open = [&] { return ::open(name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644); };
  fd_ = open();
  if (fd_ < 0 && errno == ENOENT && ::mkdir(dir_.path().c_str(), 0755) == 0) fd_ = open();  // made on first use
  // The name is taken: another SpoolDir of this process (two configs over
  // one folder) or a dead process of the same pid left it. The next one.
  for (int tries = 0; fd_ < 0 && errno == EEXIST && tries < 1000; ++tries) {
    name_ = dir_.NewName();
    fd_ = open();
  }
  if (fd_ < 0) Fail("cannot create a file", name_);
  ::fchmod(fd_, 0644);  // the web server reads it, whatever the umask
}

void Spool::Write(std::string_view bytes) {
  memory_.append(bytes);
  size_ += bytes.size();
  if (fd_ < 0 && memory_.size() <= memory_limit_) return;
  if (fd_ < 0) Spill();
  if (memory_.size() >= kFileBuffer) {
    FlushToFile();
    StopPoint("spool.file");
  }
}

void Spool::Flush() {
  if (fd_ >= 0) FlushToFile();
}

void Spool::FlushToFile() {
  WriteAll(fd_, memory_.data(), memory_.size(), name_);
  memory_.clear();
}

void Spool::CopyTo(Sink& out) {
  if (fd_ < 0) {
    out.Write(memory_);
    return;
  }
  FlushToFile();
  std::string buf(kFileBuffer, '\0');
  for (off_t at = 0;;) {
    ssize_t n = ::pread(fd_, buf.data(), buf.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("cannot read back", name_);
    if (n == 0) break;
    out.Write(std::string_view(buf.data(), static_cast<size_t>(n)));
    StopPoint("send.body");
    at += n;
  }
}

std::string Spool::Keep() {
  if (fd_ < 0) Spill();
  FlushToFile();
  if (::close(fd_) != 0) Fail("cannot close", name_);
  fd_ = -1;
  return name_;
}

std::unique_ptr<Spool> Spool::Adopt(SpoolDir& dir, const std::string& path, uint64_t size) {
  auto s = std::make_unique<Spool>(dir, 0);
  s->name_ = path;
  s->fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (s->fd_ < 0) Fail("cannot open", path);
  s->size_ = size;
  return s;
}

RedirectDir::RedirectDir(std::string dir, std::string url, int64_t lifetime)
    : dir_(std::move(dir)), url_(std::move(url)), lifetime_(lifetime) {
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  while (!url_.empty() && url_.back() == '/') url_.pop_back();
}

void RedirectDir::Check() {
  const std::string probe = dir_ + "/.feed-probe-" + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw ConfigError("redirect_dir " + dir_ + ": cannot create a file: " + std::strerror(errno) +
                      " (make it writable by the user the program runs as)");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

// 32 hexadecimal digits from the kernel's random source.
std::string UnguessableName() {
  unsigned char bytes[16];
  size_t got = 0;
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    while (got < sizeof bytes) {
      const ssize_t n = ::read(fd, bytes + got, sizeof bytes - got);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    ::close(fd);
  }
  if (got != sizeof bytes) throw InternalError("cannot read /dev/urandom for a redirect name");
  static const char kHex[] = "0123456789abcdef";
  std::string name;
  for (unsigned char b : bytes) {
    name += kHex[b >> 4];
    name += kHex[b & 15];
  }
  return name;
}

bool IsPublishedName(const char* name) {
  size_t n = 0;
  while (std::isxdigit(static_cast<unsigned char>(name[n]))) ++n;
  return n == 32 && name[n] == '.';
}

}  // namespace

namespace {

struct MediaType {
  std::string type, charset;
};

MediaType ParseContentType(const std::string& content_type) {
  MediaType m;
  m.type = content_type.substr(0, content_type.find(';'));
  while (!m.type.empty() && m.type.back() == ' ') m.type.pop_back();
  const size_t at = content_type.find("charset=");
  if (at != std::string::npos) m.charset = content_type.substr(at + 8, content_type.find(';', at) - at - 8);
  return m;
}

std::string NamePart(const std::string& s) {
  std::string out = ".";
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return out;
}

bool ReadFile(const std::string& path, std::string* out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out->append(buf, static_cast<size_t>(n));
  ::close(fd);
  return n == 0;
}

// What a folder holds when feed.fcgi makes its .htaccess itself (the
// release ships the same rules as feed-out/.htaccess).
constexpr const char* kRedirectHtaccess =
    "# feed.fcgi's published bodies (hand_off = redirect): readable, never listed, never run.\n"
    "Options -Indexes -ExecCGI\n"
    "SetHandler None\n";

}  // namespace

std::string PublishedExtension(const std::string& content_type) {
  const MediaType m = ParseContentType(content_type);
  return NamePart(m.type) + (m.charset.empty() ? "" : NamePart(m.charset));
}

std::string MimeLines(const std::string& content_type) {
  const MediaType m = ParseContentType(content_type);
  std::string lines = "<IfModule mod_mime.c>\nAddType " + m.type + " " + NamePart(m.type) + "\n";
  if (!m.charset.empty()) lines += "AddCharset " + m.charset + " " + NamePart(m.charset) + "\n";
  return lines + "</IfModule>\n";
}

// Appends `lines` to the folder's .htaccess unless it holds them: a new
// file beside it, renamed over it, so that Apache never reads half of one.
// Processes doing so at once may each lose the other's lines: each looks
// again after its rename, at most three times.
void RedirectDir::Declare(const std::string& lines) {
  const std::string path = dir_ + "/.htaccess";
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::string text;
    if (!ReadFile(path, &text)) text = kRedirectHtaccess;
    if (text.find(lines) != std::string::npos) return;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += lines;
    const std::string tmp = path + ".new-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw FileError("cannot write " + tmp, errno, "the redirect folder");
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      throw FileError("cannot write " + path, err, "the redirect folder");
    }
  }
}

std::string RedirectDir::Publish(Spool& body, const std::string& content_type, int64_t now,
                                 const std::string& script_name) {
  Sweep(now);
  Declare(MimeLines(content_type));
  const std::string from = body.Keep();
  const std::string name = UnguessableName() + PublishedExtension(content_type);
  const std::string to = dir_ + "/" + name;
  if (::chmod(from.c_str(), 0644) != 0) {
    const int saved = errno;
    ::unlink(from.c_str());
    errno = saved;
    Fail("cannot open to the web server", from);
  }
  if (::rename(from.c_str(), to.c_str()) != 0) {
    const int saved = errno;
    ::unlink(from.c_str());
    errno = saved;
    if (errno == EXDEV) Fail("cannot move into redirect_dir " + dir_ + " (spool_dir must be on the same file system)", from);
    throw FileError("cannot move " + from + " into redirect_dir " + dir_, errno, "the redirect folder");
  }
  if (!url_.empty()) return url_ + "/" + name;
  const std::string folder = script_name.substr(0, script_name.rfind('/') == std::string::npos ? 0 : script_name.rfind('/'));
  return folder + "/" + dir_.substr(dir_.rfind('/') + 1) + "/" + name;
}

size_t RedirectDir::Sweep(int64_t now) {
  DIR* d = ::opendir(dir_.c_str());
  if (!d) return 0;
  size_t removed = 0;
  while (const dirent* e = ::readdir(d)) {
    if (!IsPublishedName(e->d_name)) continue;
    const std::string path = dir_ + "/" + e->d_name;
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && now - st.st_mtime >= lifetime_ && ::unlink(path.c_str()) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

std::string Spool::Publish(int64_t now) {
  FlushToFile();
  if (::close(fd_) != 0) Fail("cannot close", name_);
  fd_ = -1;
  dir_.Published(name_, now);
  return name_;
}

}  // namespace feed
