// A scratch folder for a test: unique to the process (CTest runs tests in parallel) and
// removed with everything in it when the object goes.
#pragma once

#include <catch2/catch.hpp>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace hxrt_test {

class TempDir {
 public:
  // `prefix` names the folder, so that one left behind by a killed test says whose it was.
  explicit TempDir(const std::string& prefix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    // Canonical, as the core prints paths under it (the temporary folder may be a link).
    path_ = std::filesystem::canonical(pattern);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace hxrt_test
