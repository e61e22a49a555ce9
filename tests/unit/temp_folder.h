// A folder of one test's own, under the test temporary directory and named
// after the test and the process: empty when the test starts, removed with
// everything in it when the TempFolder goes (declare it before what writes
// into it, so that those go first).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace feed::testing {

class TempFolder {
 public:
  // `make`: create the folder (else only its parent is there, for code
  // that makes its own folder on first use).
  explicit TempFolder(const std::string& prefix, bool make = true)
      : path_(::testing::TempDir() + prefix + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    if (make) std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace feed::testing
