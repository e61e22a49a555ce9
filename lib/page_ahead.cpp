#include "page_ahead.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sstream>

#include "error.h"

namespace feed {
namespace {

constexpr char kMagic[] = "feed-page-ahead 1";

// FNV-1a, 64 bits: names a page's files. The identity itself is kept in
// the head and compared, so a collision only costs a page made in vain.
std::string Hash(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// One line of the head file: no line breaks inside.
std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

void WriteItems(std::ostringstream& o, const char* name, size_t count, const std::vector<std::string>& items) {
  o << name << ' ' << count << '\n';
  for (const std::string& s : items) o << name << "_item " << OneLine(s) << '\n';
}

std::string Serialize(const std::string& identity, const ResponseHead& head, uint64_t size, const FeedReport& r,
                      int64_t now) {
  std::ostringstream o;
  o << kMagic << '\n' << "identity " << OneLine(identity) << '\n' << "made " << now << '\n' << "size " << size << '\n'
    << "status " << head.status << '\n';
  for (const auto& [n, v] : head.headers) o << "header " << OneLine(n) << ": " << OneLine(v) << '\n';
  o << "rows " << r.rows << '\n' << "bytes " << r.bytes << '\n' << "more " << r.more << '\n'
    << "token " << r.continue_token << '\n' << "read_from " << OneLine(r.read_from) << '\n';
  if (r.has_last) {
    o << "last";
    for (int64_t v : r.last) o << ' ' << v;
    o << '\n';
  }
  WriteItems(o, "skipped", r.skipped, r.skipped_items);
  WriteItems(o, "dropped", r.dropped, r.dropped_items);
  WriteItems(o, "noted", r.noted, r.noted_items);
  return o.str();
}

// The head file read back; nullopt when it is not one of ours, not whole,
// or not for `identity`.
std::optional<PageMade> Parse(const std::string& text, const std::string& identity, int64_t* made) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kMagic) return std::nullopt;
  PageMade p;
  bool has_identity = false, has_size = false;
  auto number = [](const std::string& v) { return static_cast<uint64_t>(std::strtoull(v.c_str(), nullptr, 10)); };
  while (std::getline(in, line)) {
    const size_t sp = line.find(' ');
    const std::string k = line.substr(0, sp), v = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (k == "identity") {
      if (v != OneLine(identity)) return std::nullopt;
      has_identity = true;
    } else if (k == "made") {
      *made = std::strtoll(v.c_str(), nullptr, 10);
    } else if (k == "size") {
      p.size = number(v);
      has_size = true;
    } else if (k == "status") {
      p.head.status = static_cast<int>(number(v));
    } else if (k == "header") {
      const size_t colon = v.find(": ");
      if (colon == std::string::npos) return std::nullopt;
      p.head.Add(v.substr(0, colon), v.substr(colon + 2));
    } else if (k == "rows") {
      p.report.rows = number(v);
    } else if (k == "bytes") {
      p.report.bytes = number(v);
    } else if (k == "more") {
      p.report.more = v == "1";
    } else if (k == "token") {
      p.report.continue_token = v;
    } else if (k == "last") {
      p.report.has_last = true;
      std::istringstream values(v);
      for (int64_t x; values >> x;) p.report.last.push_back(x);
    } else if (k == "read_from") {
      p.report.read_from = v;
    } else if (k == "skipped") {
      p.report.skipped = number(v);
    } else if (k == "skipped_item") {
      p.report.skipped_items.push_back(v);
    } else if (k == "dropped") {
      p.report.dropped = number(v);
    } else if (k == "dropped_item") {
      p.report.dropped_items.push_back(v);
    } else if (k == "noted") {
      p.report.noted = number(v);
    } else if (k == "noted_item") {
      p.report.noted_items.push_back(v);
    }
  }
  if (!has_identity || !has_size) return std::nullopt;
  p.report.complete = true;
  return p;
}

// Moves `from` to a new name of `dir` (never over a file there): the
// name, or "" when `from` is not there.
std::string Claim(SpoolDir& dir, const std::string& from, const char* suffix) {
  for (int tries = 0; tries < 1000; ++tries) {
    const std::string to = dir.NewName() + suffix;
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return to;
    if (errno != EEXIST) return "";
  }
  return "";
}

bool ReadFile(const std::string& path, std::string* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[8192];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) out->append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return n == 0;
}

void WriteFile(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InternalError("page made ahead: cannot create " + path + ": " + std::strerror(errno));
  try {
    WriteAll(fd, text.data(), text.size(), path);
  } catch (const FeedError&) {
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  ::close(fd);
}

}  // namespace

std::string PagesAhead::Base(const std::string& identity) const { return dir_.path() + "/ahead-" + Hash(identity); }

std::unique_ptr<PagesAhead::Making> PagesAhead::Begin(const std::string& identity) {
  const std::string base = Base(identity);
  struct stat st;
  if (::stat((base + ".head").c_str(), &st) == 0) return nullptr;  // made already, waiting
  int fd = ::open((base + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return nullptr;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {  // another process makes it
    ::close(fd);
    return nullptr;
  }
  // The lock may be on a file its last maker removed after we opened it:
  // only the file that is at the name now counts.
  struct stat held, named;
  if (::fstat(fd, &held) != 0 || ::stat((base + ".lock").c_str(), &named) != 0 || held.st_ino != named.st_ino ||
      ::stat((base + ".head").c_str(), &st) == 0) {
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<Making>(new Making(base, identity, fd));
}

PagesAhead::Making::~Making() {
  // Removed while still held: a taker waiting on it then finds the head,
  // or nothing (the making failed) and reads the page itself.
  ::unlink((base_ + ".lock").c_str());
  ::close(fd_);
}

void PagesAhead::Making::Done(const ResponseHead& head, const std::string& body, uint64_t size,
                              const FeedReport& report, int64_t now) {
  if (::rename(body.c_str(), (base_ + ".body").c_str()) != 0) {
    const int e = errno;
    ::unlink(body.c_str());
    throw InternalError("page made ahead: cannot name its body " + base_ + ".body: " + std::strerror(e));
  }
  // Written whole under another name, then named: a taker sees all of it
  // or nothing.
  const std::string tmp = base_ + ".head-" + std::to_string(::getpid());
  try {
    WriteFile(tmp, Serialize(identity_, head, size, report, now));
  } catch (const FeedError&) {
    ::unlink((base_ + ".body").c_str());
    throw;
  }
  if (::rename(tmp.c_str(), (base_ + ".head").c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    ::unlink((base_ + ".body").c_str());
    throw InternalError("page made ahead: cannot name its head " + base_ + ".head: " + std::strerror(e));
  }
}

std::optional<PageMade> PagesAhead::Take(const std::string& identity, int64_t now) {
  const std::string base = Base(identity);
  // A making under way: wait for its end (its lock goes with its process).
  int lock = ::open((base + ".lock").c_str(), O_RDONLY | O_CLOEXEC);
  if (lock >= 0) {
    if (wait_hook_) wait_hook_();
    while (::flock(lock, LOCK_SH) != 0 && errno == EINTR) {
    }
    ::close(lock);
  }
  // Ours alone once renamed.
  const std::string mine = Claim(dir_, base + ".head", ".head");
  if (mine.empty()) return std::nullopt;
  std::string text;
  const bool read = ReadFile(mine, &text);
  ::unlink(mine.c_str());
  int64_t made = 0;
  std::optional<PageMade> page = read ? Parse(text, identity, &made) : std::nullopt;
  const std::string body = Claim(dir_, base + ".body", "");
  if (body.empty()) return std::nullopt;
  if (!page || now - made >= kKeepSeconds || now < made) {
    ::unlink(body.c_str());
    return std::nullopt;
  }
  page->body = body;
  return page;
}

std::optional<std::string> PagesAhead::NextToken(const std::string& identity) {
  std::string text;
  if (!ReadFile(Base(identity) + ".head", &text)) return std::nullopt;
  int64_t made = 0;
  auto page = Parse(text, identity, &made);
  if (!page || page->report.continue_token.empty()) return std::nullopt;
  return page->report.continue_token;
}

size_t PagesAhead::Sweep() {
  DIR* d = ::opendir(dir_.path().c_str());
  if (!d) return 0;
  size_t removed = 0;
  const time_t now = std::time(nullptr);
  while (dirent* e = ::readdir(d)) {
    if (std::strncmp(e->d_name, "ahead-", 6) != 0) continue;
    const std::string path = dir_.path() + "/" + e->d_name;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || now - st.st_mtime < kKeepSeconds) continue;
    const size_t len = std::strlen(e->d_name);
    if (len > 5 && std::strcmp(e->d_name + len - 5, ".lock") == 0) {
      // A making that is still under way keeps its lock.
      int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (free && ::unlink(path.c_str()) == 0) ++removed;
      ::close(fd);
      continue;
    }
    if (::unlink(path.c_str()) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

}  // namespace feed
