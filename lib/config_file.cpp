#include "config_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace feed {
namespace {

std::string FolderOf(const std::filesystem::path& p) { return p.parent_path().lexically_normal().string(); }

}  // namespace

std::string ProgramFolder(const char* argv0, const char* feed_home) {
  if (feed_home && *feed_home) return std::filesystem::path(feed_home).lexically_normal().string();
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.is_absolute()) return FolderOf(exe);
  if (!argv0 || !*argv0) return "";
  const std::filesystem::path given(argv0);
  if (given.is_absolute()) return FolderOf(given);
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (ec) return "";
  return FolderOf(cwd / given);
}

std::optional<std::string> FindConfigFile(const std::optional<std::string>& flag, const char* env,
                                          const std::string& program_folder, std::vector<std::string>* tried) {
  if (flag) return flag;
  if (env && *env) return std::string(env);
  if (program_folder.empty()) return std::nullopt;
  for (const std::string& name : kConfigBesideProgram) {
    const std::string path = (std::filesystem::path(program_folder) / name).lexically_normal().string();
    if (tried) {
      // From "/", "../feed.ini" is "/feed.ini" again.
      if (std::find(tried->begin(), tried->end(), path) != tried->end()) continue;
      tried->push_back(path);
    }
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path;
  }
  return std::nullopt;
}

std::string ConfigModeWarning(const std::string& file) {
  struct stat st;
  if (::stat(file.c_str(), &st) != 0 || !(st.st_mode & S_IROTH)) return "";
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return "every user of the host can read it (mode " + std::string(mode) +
         "), and it holds the database password and the secret; run: chmod 600 " + file +
         " (or chmod 640 with the web server's group, where the host runs scripts as the web server)";
}

std::string FindMysqlSocket(const std::vector<std::string>& candidates) {
  for (const std::string& c : candidates) {
    struct stat st;
    if (::stat(c.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) return c;
  }
  return "";
}

}  // namespace feed
