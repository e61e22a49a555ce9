// Pages made ahead (page_ahead, issue #12): the next page of a paged run,
// made while the web server still sends the page before it.
//
// A robot asks for page N+1 of a paged feed only once it has all of page
// N. When page N is handed over, its process knows page N+1's continue
// token, so it makes that page at once into the spool folder while the web
// server sends page N. The robot's request for it, whichever process of
// the folder it reaches, waits until the making ends and takes the page
// made: the sending of one page and the reading and rendering of the next
// overlap instead of adding up.
//
// A page made ahead is the page a request would have read a moment
// earlier, so a keyset walk's guarantees hold: no row twice, none lost. It
// is taken at most once, only for the same identity (the caller's: feed,
// since-moment, token, encoding of the body), and only within kKeepSeconds
// of being made; a page nobody took is removed by Sweep.
//
// Files in the spool folder, for a page whose identity hashes to KEY:
//   ahead-KEY.lock  exists while the page is made; its maker holds
//                   flock(LOCK_EX) on it, a taker waits with LOCK_SH
//   ahead-KEY.body  the body as the response sends it
//   ahead-KEY.head  written last, whole: the identity, the head, the report
// A taker renames ahead-KEY.head to a name of its own first, so two
// takers never both have one page.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "http.h"
#include "run_report.h"
#include "spool.h"

namespace feed {

// A page made ahead, taken.
struct PageMade {
  ResponseHead head;  // as the response would have sent it, less Content-Length and X-Sendfile
  std::string body;   // the body's file: the taker's to send and remove
  uint64_t size = 0;
  FeedReport report;  // what the making wrote (rows, bytes, rows left out, the next token)
};

class PagesAhead {
 public:
  // How long a page made ahead may wait for its request.
  static constexpr int64_t kKeepSeconds = 60;

  // The dir must outlive this.
  explicit PagesAhead(SpoolDir& dir) : dir_(dir) {}

  // One page being made: holds its lock until Done or destruction (which,
  // without Done, leaves nothing behind).
  class Making {
   public:
    ~Making();
    Making(const Making&) = delete;
    Making& operator=(const Making&) = delete;
    // The page is whole: `body` (a file in the spool folder, given over)
    // becomes the page's body, and the head is written. Throws
    // FeedError(kInternal) when the files cannot be written.
    void Done(const ResponseHead& head, const std::string& body, uint64_t size, const FeedReport& report,
              int64_t now);

   private:
    friend class PagesAhead;
    Making(std::string base, std::string identity, int fd) : base_(std::move(base)), identity_(std::move(identity)), fd_(fd) {}
    std::string base_;  // DIR/ahead-KEY
    std::string identity_;
    int fd_;            // the lock file, flocked
  };

  // Starts making the page of `identity`; nullptr when it is being made or
  // waits already (or no lock file can be made: then it is not made ahead).
  std::unique_ptr<Making> Begin(const std::string& identity);

  // The page made ahead for `identity`, after waiting for a making under
  // way; nullopt when there is none, it was made for another identity
  // under the same hash, or it is older than kKeepSeconds at `now`.
  std::optional<PageMade> Take(const std::string& identity, int64_t now);

  // The continue token of the page made ahead for `identity` (the page
  // after it), without taking it; nullopt when none is made (or being
  // made), or it is the run's last page.
  std::optional<std::string> NextToken(const std::string& identity);

  // Removes the files of pages older than kKeepSeconds (by the files'
  // times) and of makings whose process ended; returns how many.
  size_t Sweep();

  // Called when Take finds a making under way and begins to wait (tests).
  void SetWaitHook(std::function<void()> hook) { wait_hook_ = std::move(hook); }

 private:
  std::string Base(const std::string& identity) const;
  SpoolDir& dir_;
  std::function<void()> wait_hook_;
};

}  // namespace feed
