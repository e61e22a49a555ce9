// The command table: --help is made from it and names every command with
// its usage line; a name finds its entry; only `keys` runs without a config.
#include "commands.h"

#include <gtest/gtest.h>

#include <string>

namespace feed {
namespace {

TEST(Commands, HelpListsEveryCommandWithItsUsage) {
  const std::string usage = Usage();
  for (const char* line : {"  render PATH [NAME=VALUE ...] [-o FILE]\n", "  write [--robots] PATH DIR\n",
                           "  sync PATH\n", "  install\n", "  check [--deep] [--json]\n", "  keys [--markdown]\n"}) {
    EXPECT_NE(usage.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(usage.rfind("usage: feed.fcgi [--config FILE]", 0), 0u);
  EXPECT_NE(usage.find("        write the feed at PATH (such as /yads) to FILE or stdout, with\n"), std::string::npos);
  EXPECT_NE(usage.find("FEED_DB_PASSWORD\nand FEED_DB_NAME override its [database] keys"), std::string::npos);
  // Lines a terminal shows whole.
  size_t start = 0;
  for (size_t nl; (nl = usage.find('\n', start)) != std::string::npos; start = nl + 1) {
    EXPECT_LE(nl - start, 80u) << usage.substr(start, nl - start);
  }
}

TEST(Commands, FoundByName) {
  const char* names[] = {"render", "write", "sync", "install", "check", "keys"};
  ASSERT_EQ(Commands().size(), std::size(names));
  for (const char* n : names) {
    const Command* c = FindCommand(n);
    ASSERT_NE(c, nullptr) << n;
    EXPECT_STREQ(c->name, n);
    EXPECT_EQ(c->needs_config, std::string(n) != "keys") << n;
  }
  EXPECT_EQ(FindCommand("serve"), nullptr);
  EXPECT_EQ(FindCommand(""), nullptr);
  EXPECT_EQ(FindCommand("Render"), nullptr);
}

TEST(Commands, AUsageMistakeIsExitStatus2) {
  const CommandContext none;
  EXPECT_EQ(FindCommand("keys")->run(none, {"--json"}), 2);
  EXPECT_EQ(FindCommand("sync")->run(none, {}), 2);
  EXPECT_EQ(FindCommand("write")->run(none, {"/sitemap.xml"}), 2);
  EXPECT_EQ(FindCommand("install")->run(none, {"now"}), 2);
  EXPECT_EQ(FindCommand("check")->run(none, {"--fast"}), 2);
  EXPECT_EQ(FindCommand("render")->run(none, {"/yads", "date"}), 2);
}

}  // namespace
}  // namespace feed
