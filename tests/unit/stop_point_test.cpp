// StopPoint (lib/stop_point.h): which FEED_STOP_AT values kill the process
// at which points. Each case runs in a child process (fork), which sets the
// variable and reaches the point; the parent sees whether it died of
// SIGKILL there.
#include "stop_point.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_folder.h"

namespace feed {
namespace {

// True when a process with FEED_STOP_AT=`value` ("" unset) that reaches
// point `name` with ordinal `n` is killed there.
bool Killed(const std::string& value, const char* name, long n = 1) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (value.empty()) {
      unsetenv("FEED_STOP_AT");
    } else {
      setenv("FEED_STOP_AT", value.c_str(), 1);
    }
    StopPoint(name, n);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(StopPoint, KillsOnlyAtThePointAndOrdinalNamed) {
  struct Case {
    const char* value;
    const char* name;
    long n;
    bool killed;
  } cases[] = {
      {"", "write.part", 1, false},
      {"write.part", "write.part", 1, true},
      {"write.part", "write.part", 7, true},  // no ordinal: any reach
      {"write.part:2", "write.part", 2, true},
      {"write.part:2", "write.part", 1, false},
      {"write.part:2", "write.part", 12, false},
      {"write.part:", "write.part", 1, false},
      {"write.part", "write.swap", 1, false},
      {"write.swap", "write.swapped", 1, false},  // a point whose name begins with another's
      {"write.swapped", "write.swap", 1, false},
      {"sync.batch:3", "sync.batch", 3, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Killed(c.value, c.name, c.n), c.killed) << "FEED_STOP_AT=" << c.value << " at " << c.name << ":" << c.n;
  }
}

TEST(StopPoint, AnArmFileKillsOneProcessOnce) {
  testing::TempFolder dir("stop-point-");
  const std::string arm = dir.path() + "/arm";
  EXPECT_FALSE(Killed("spool.file@" + arm, "spool.file")) << "not armed";
  std::ofstream(arm) << "x";
  EXPECT_FALSE(Killed("spool.file@" + arm, "send.body")) << "another point leaves it armed";
  EXPECT_TRUE(std::filesystem::exists(arm));
  EXPECT_FALSE(Killed("sync.batch:2@" + arm, "sync.batch", 1));
  EXPECT_TRUE(std::filesystem::exists(arm));
  EXPECT_TRUE(Killed("spool.file@" + arm, "spool.file"));
  EXPECT_FALSE(std::filesystem::exists(arm)) << "the killed process took it";
  EXPECT_FALSE(Killed("spool.file@" + arm, "spool.file")) << "once";
}

}  // namespace
}  // namespace feed
