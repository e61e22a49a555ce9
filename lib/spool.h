// Where a response body waits until it is whole. A live response is
// rendered into a Spool at full speed and only then sent, so that
//  - a failure while rendering (the database gone, a timeout) is answered
//    with a clean 503 instead of a document cut mid-way that the web server
//    would end like a whole one;
//  - the body goes out with its Content-Length, so a client that is cut
//    off sees it is short;
//  - with `hand_off = x-sendfile`, a large body is not sent by the program
//    at all: the file is named to the web server (X-Sendfile), which sends
//    it to the client at whatever speed the client reads, while the
//    process takes the next request. Slow readers then hold web server
//    threads, not the handful of feed processes.
// A body stays in memory up to `memory_limit` bytes and moves to a file in
// `dir` beyond that, so memory stays flat whatever the body's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "output.h"

namespace feed {

// Writes all `n` bytes at `p` to `fd` (retrying short writes); throws
// FeedError naming `path` when it cannot: kFull when the folder has no room
// (full, over quota, read-only; reason "the spool folder is full"), else
// kInternal.
void WriteAll(int fd, const char* p, size_t n, const std::string& path);

// The files a process named to the web server, removed once the web server
// has surely opened them: at a request of the process at least
// kReleaseSeconds after it named the file. (Not at the next request:
// mod_fcgid may give the process its next request before the handler of
// the last one has opened the file.) The last files of a process that ends
// (mod_fcgid stops idle ones; a CGI process ends after its request) are
// removed by the next process that looks (Sweep).
class SpoolDir {
 public:
  // `dir` empty: the system's temporary folder (TMPDIR or /tmp).
  explicit SpoolDir(std::string dir);
  SpoolDir(const SpoolDir&) = delete;
  SpoolDir& operator=(const SpoolDir&) = delete;

  // Throws FeedError(kConfig) when no file can be made in the folder (made
  // when missing), so that the mistake shows at start, not on the first
  // large response; kFull (FileError) when it is for want of room (full,
  // over a quota, read-only), which is no mistake: the program starts and
  // answers 503 for what needs the folder until the room returns.
  void Check();

  const std::string& path() const { return dir_; }
  // A new file name in the folder for this process: DIR/feed-PID-N.
  std::string NewName();
  // Ample for the web server to open the file, and short enough that a
  // file is mostly gone before the kernel writes it to disk.
  static constexpr int64_t kReleaseSeconds = 5;

  // Remembers a file published at `now` (UnixTime), to remove it at Release.
  void Published(std::string path, int64_t now) { published_.emplace_back(std::move(path), now); }
  // Removes the files published kReleaseSeconds or more before `now` (call
  // between requests).
  void Release(int64_t now);
  // Removes files of processes that no longer exist, older than a minute;
  // returns how many. Cheap: one read of the folder.
  size_t Sweep();

  // A buffer for a Spool's bytes in memory, with the capacity the last
  // one had: a process's responses reuse one allocation instead of growing
  // a new one each time (fresh pages of a large allocation cost a fault
  // each). Give it back empty or not; it is cleared.
  std::string TakeBuffer() { return std::move(buffer_); }
  void GiveBack(std::string buffer) {
    buffer.clear();
    if (buffer.capacity() > buffer_.capacity()) buffer_ = std::move(buffer);
  }

 private:
  std::string dir_;
  std::string buffer_;
  uint64_t next_ = 0;
  std::vector<std::pair<std::string, int64_t>> published_;  // oldest first
};

class Spool;

// hand_off = redirect: where large bodies are published for the web server
// to send as plain files, for a host without X-Sendfile (a shared host). A
// body is moved, whole, into the folder under a name no one can guess (32
// random hexadecimal digits), and the client is sent there (302): the web
// server then sends it at the client's pace, holding none of the few
// FastCGI processes a host allows. A name lives `lifetime` seconds (its
// file is removed by the first publication after that; a download under
// way keeps its open file); the folder lists nothing (the release's
// .htaccess for it says so).
// The name ending that says a Content-Type to Apache's mod_mime: the media
// type, then the charset when one is named, each a name part of its own with
// every character but letters, digits and '-' made '_':
// "text/xml; charset=windows-1251" -> ".text_xml.windows-1251",
// "application/gzip" -> ".application_gzip".
std::string PublishedExtension(const std::string& content_type);
// The .htaccess lines that map that ending back (AddType, AddCharset), each
// inside <IfModule mod_mime.c>.
std::string MimeLines(const std::string& content_type);

class RedirectDir {
 public:
  // `url`: where the web server serves `dir`, an absolute URL or a path;
  // "" when `dir` is a folder beside the program, served beside it.
  RedirectDir(std::string dir, std::string url, int64_t lifetime);
  RedirectDir(const RedirectDir&) = delete;
  RedirectDir& operator=(const RedirectDir&) = delete;

  // Throws FeedError(kConfig) when no file can be made in the folder.
  void Check();
  // Moves the whole body of `body` (its file made if it was in memory)
  // into the folder, readable by every user (the web server's), removes
  // the files that outlived `lifetime` at `now`, and returns the URL of the
  // new one: under `url`, or with `url` "" under the folder of
  // `script_name` (the request's SCRIPT_NAME, "/cgi-bin/feed.fcgi") and the
  // folder's own name ("/cgi-bin/feed-out"). The file's name is 32 random
  // hex digits and PublishedExtension(content_type); the folder's
  // .htaccess is given the mod_mime lines that make Apache send it with
  // that Content-Type (MimeLines), appended once, in one rename, to what
  // the file holds. The Spool no longer owns the body. Throws
  // FeedError when the file cannot be placed (kFull when for want of
  // room, as Spool::Write).
  std::string Publish(Spool& body, const std::string& content_type, int64_t now, const std::string& script_name);
  // Removes the folder's published files older than `lifetime` at `now`
  // (by their modification time); returns how many.
  size_t Sweep(int64_t now);

 private:
  void Declare(const std::string& lines);

  std::string dir_, url_;
  int64_t lifetime_;
};

class Spool : public Sink {
 public:
  Spool(SpoolDir& dir, size_t memory_limit);
  ~Spool() override;
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Throws FeedError(kFull) when the file cannot be written for want of
  // room (a full disk, a quota, a read-only folder; kInternal for anything
  // else): the response then fails before anything was sent, a 503 with
  // Retry-After, and the file made so far is removed.
  void Write(std::string_view bytes) override;
  // Writes the bytes held in memory to the file, when the body has one:
  // call before the head goes out, so that a write that fails (no room)
  // still fails before anything was sent. Throws as Write.
  void Flush() override;
  uint64_t size() const { return size_; }
  bool in_memory() const { return fd_ < 0; }

  // Copies the body to `out` (kClientGone when it went away).
  void CopyTo(Sink& out);
  // Gives the file a name the web server can open and returns it; the
  // Spool no longer owns the file (SpoolDir::Published does, from `now`).
  // REQUIRES: !in_memory().
  std::string Publish(int64_t now);
  // Closes the body's file (made now if the body was in memory) and gives
  // it over: the Spool no longer owns it (a page made ahead keeps it for
  // its request, page_ahead.h). Returns its name.
  std::string Keep();
  // A Spool that owns the whole body already in file `path` (`size`
  // bytes), to send it or name it as any other. Throws FeedError(kInternal)
  // when it cannot be opened.
  static std::unique_ptr<Spool> Adopt(SpoolDir& dir, const std::string& path, uint64_t size);

 private:
  void Spill();
  void FlushToFile();  // the bytes held in memory_, appended to the file

  SpoolDir& dir_;
  size_t memory_limit_;
  std::string memory_;
  int fd_ = -1;
  std::string name_;  // the file's name while it is being written
  uint64_t size_ = 0;
};

}  // namespace feed
