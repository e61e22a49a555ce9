#include "config_file.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>

#include <filesystem>
#include <fstream>

#include "temp_folder.h"

namespace feed {
namespace {

using testing::TempFolder;

void Touch(const std::string& path) { std::ofstream(path) << "[database]\n"; }

TEST(FindConfigFile, TheFlagThenTheEnvironmentThenBesideTheProgram) {
  TempFolder home("config-file-");
  const std::string bin = home.path() + "/public_html/cgi-bin";
  std::filesystem::create_directories(bin);
  std::vector<std::string> tried;
  EXPECT_EQ(FindConfigFile(std::string("/x/given.ini"), "/y/env.ini", bin, &tried), "/x/given.ini");
  EXPECT_EQ(FindConfigFile(std::nullopt, "/y/env.ini", bin, &tried), "/y/env.ini");
  EXPECT_TRUE(tried.empty());
  // Nothing beside it: nullopt, and the three places looked at, in order.
  EXPECT_EQ(FindConfigFile(std::nullopt, "", bin, &tried), std::nullopt);
  EXPECT_EQ(tried, (std::vector<std::string>{bin + "/feed.ini", home.path() + "/public_html/feed.ini",
                                             home.path() + "/feed.ini"}));
  // Two folders up (the home, outside public_html), then one, then beside:
  // the nearest wins.
  Touch(home.path() + "/feed.ini");
  EXPECT_EQ(FindConfigFile(std::nullopt, nullptr, bin, nullptr), home.path() + "/feed.ini");
  Touch(home.path() + "/public_html/feed.ini");
  EXPECT_EQ(FindConfigFile(std::nullopt, nullptr, bin, nullptr), home.path() + "/public_html/feed.ini");
  Touch(bin + "/feed.ini");
  EXPECT_EQ(FindConfigFile(std::nullopt, nullptr, bin, nullptr), bin + "/feed.ini");
  // A folder of that name is not a config.
  std::filesystem::remove(bin + "/feed.ini");
  std::filesystem::create_directory(bin + "/feed.ini");
  EXPECT_EQ(FindConfigFile(std::nullopt, nullptr, bin, nullptr), home.path() + "/public_html/feed.ini");
  // No folder known: nothing to look beside.
  EXPECT_EQ(FindConfigFile(std::nullopt, nullptr, "", nullptr), std::nullopt);
}

TEST(FindConfigFile, FromTheRootEachPlaceIsNamedOnce) {
  std::vector<std::string> tried;
  FindConfigFile(std::nullopt, nullptr, "/nonexistent-folder-for-feed-test", &tried);
  EXPECT_EQ(tried, (std::vector<std::string>{"/nonexistent-folder-for-feed-test/feed.ini", "/feed.ini"}));
}

TEST(ProgramFolder, TheLaunchersFolderThenTheExecutablesThenArgv0) {
  EXPECT_EQ(ProgramFolder("/ignored/feed.fcgi", "/home/u/public_html/cgi-bin/"), "/home/u/public_html/cgi-bin/");
  EXPECT_EQ(ProgramFolder(nullptr, "/home/u/cgi-bin"), "/home/u/cgi-bin");
  // This test binary's own folder, from /proc/self/exe.
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
  EXPECT_EQ(ProgramFolder("whatever", nullptr), self);
  EXPECT_EQ(ProgramFolder("whatever", ""), self);
}

TEST(ConfigModeWarning, OnlyWhenEveryUserCanReadIt) {
  TempFolder dir("config-mode-");
  const std::string f = dir.path() + "/feed.ini";
  Touch(f);
  for (mode_t mode : {0600, 0640, 0660, 0400}) {
    ASSERT_EQ(chmod(f.c_str(), mode), 0);
    EXPECT_EQ(ConfigModeWarning(f), "") << std::oct << mode;
  }
  ASSERT_EQ(chmod(f.c_str(), 0644), 0);
  const std::string w = ConfigModeWarning(f);
  EXPECT_NE(w.find("every user of the host can read it (mode 0644)"), std::string::npos) << w;
  EXPECT_NE(w.find("run: chmod 600 " + f), std::string::npos) << w;
  ASSERT_EQ(chmod(f.c_str(), 0604), 0);
  EXPECT_NE(ConfigModeWarning(f).find("(mode 0604)"), std::string::npos);
  EXPECT_EQ(ConfigModeWarning(dir.path() + "/missing.ini"), "");
}

}  // namespace
}  // namespace feed

namespace feed {
namespace {

TEST(FindMysqlSocket, TheFirstCandidateThatIsASocket) {
  testing::TempFolder dir("mysql-socket-");
  const std::string file = dir.path() + "/mysqld.sock", sock = dir.path() + "/mysql.sock";
  Touch(file);  // a regular file of that name is not a socket
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(FindMysqlSocket({dir.path() + "/none.sock", file, sock}), sock);
  EXPECT_EQ(FindMysqlSocket({dir.path() + "/none.sock", file}), "");
  EXPECT_EQ(FindMysqlSocket({}), "");
  close(fd);
}

}  // namespace
}  // namespace feed
