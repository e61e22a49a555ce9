// The commands of feed.fcgi (render, write, sync, install, check, keys),
// dispatched through one table: each entry is the command's name, its usage
// line, the paragraph --help prints for it and the function that runs it.
// Adding a command is one entry; --help is made from the table.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clock.h"

namespace feed {

// What every command gets from how the program was started.
struct CommandContext {
  std::string config_file;       // found by FindConfigFile ("" for a command that needs none)
  const Clock* clock = nullptr;  // --now, or nullptr for the system clock
};

struct Command {
  const char* name;   // "render"
  const char* usage;  // "render PATH [NAME=VALUE ...] [-o FILE]"
  const char* help;   // what it does, lines of at most 70 characters
  bool needs_config;  // false: runs without a config file (keys)
  // The exit status: 0 success, 1 failure, 2 a usage mistake. Prints what
  // it did on stdout, failures on stderr.
  int (*run)(const CommandContext& context, const std::vector<std::string>& args);
};

// Every command, in the order --help lists them.
std::span<const Command> Commands();

// The entry named `name`, or nullptr.
const Command* FindCommand(std::string_view name);

// The whole of --help: the program's usage line, the commands from the
// table, --now, and where the config file comes from.
std::string Usage();

}  // namespace feed
