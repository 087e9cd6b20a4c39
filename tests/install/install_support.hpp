// What the install tests share: a temporary folder, `cmake --install` of this build into it,
// and builds of the out-of-tree samples against the installed prefix.
#pragma once

#include <filesystem>
#include <string>

#include "run_program.hpp"
#include "temp_dir.hpp"

namespace install_test {

namespace fs = std::filesystem;

// `cmake --install` of this build tree into `<temp>/prefix`, done by the constructor.
class InstalledTree {
 public:
  InstalledTree();
  // The install's exit status and output, for REQUIRE and INFO.
  const hxrt_test::ProgramResult& install() const { return install_; }
  // The prefix, canonical (no symbolic links), as the core prints paths under it.
  const fs::path& prefix() const { return prefix_; }
  // A folder under the temporary folder, for builds and configs.
  fs::path scratch(const std::string& name) const { return temp_.path() / name; }

  // Configures the installed sample <name> (share/hxrt/samples/<name>) with
  // CMAKE_PREFIX_PATH=prefix() into scratch("build-<name>") and builds it; returns the output
  // of both steps, and the first failing exit status.
  hxrt_test::ProgramResult build_sample(const std::string& name) const;
  fs::path sample_build_dir(const std::string& name) const {
    return scratch("build-" + name);
  }

 private:
  hxrt_test::TempDir temp_{"hxrt_install_test"};
  fs::path prefix_;
  hxrt_test::ProgramResult install_;
};

// The compiler flags the out-of-tree builds need to load the installed (possibly sanitized)
// libhxrt: "" unless this build has HXRT_SANITIZE on.
std::string sanitizer_flags();

// `text` with every run of "/./", "/../" resolved and symbolic links followed, when it names
// an existing path; else unchanged.
std::string canonical_or_same(const std::string& text);

}  // namespace install_test
