// A write that finds no room is one condition whatever the kernel calls it:
// a full disk (ENOSPC), a disk or inode quota (EDQUOT), a folder turned
// read-only (EROFS) all pass when space returns, so each is answered 503
// with Retry-After (kFull) and a reason naming the place; any other failure
// stays an internal error.
#include <gtest/gtest.h>

#include <cerrno>

#include "error.h"

namespace feed {
namespace {

TEST(DiskError, NoRoomOfEveryKindIsKFullWithAReasonNamingThePlace) {
  struct Case {
    int err;
    const char* reason;
  };
  for (const Case& c : {Case{ENOSPC, "the spool folder is full"}, Case{EDQUOT, "the spool folder is over its disk quota"},
                        Case{EROFS, "the spool folder is read-only"}}) {
    const FeedError e = FileError("spool /s/feed-1-1: cannot write", c.err, "the spool folder");
    EXPECT_EQ(e.kind(), ErrorKind::kFull) << c.err;
    EXPECT_EQ(HttpStatus(e.kind()), 503) << c.err;
    EXPECT_EQ(e.reason(), c.reason);
    EXPECT_EQ(std::string(e.what()).rfind("spool /s/feed-1-1: cannot write: ", 0), 0u) << e.what();
  }
}

TEST(DiskError, AnyOtherFailureIsInternal) {
  for (int err : {EIO, EBADF, EACCES, ENOENT}) {
    const FeedError e = FileError("cannot write x", err, "the set's folder");
    EXPECT_EQ(e.kind(), ErrorKind::kInternal) << err;
    EXPECT_EQ(HttpStatus(e.kind()), 500);
  }
}

}  // namespace
}  // namespace feed
