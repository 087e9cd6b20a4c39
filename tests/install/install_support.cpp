#include "install_support.hpp"

#include <catch2/catch.hpp>

namespace install_test {

using hxrt_test::ProgramResult;
using hxrt_test::run_program;
using hxrt_test::shell_quote;

InstalledTree::InstalledTree() : prefix_(temp_.path() / "prefix") {
  install_ = run_program(shell_quote(HXRT_TEST_CMAKE) + " --install " +
                         shell_quote(HXRT_TEST_BUILD_DIR) + " --prefix " +
                         shell_quote(prefix_.string()) + " 2>&1");
}

std::string sanitizer_flags() { return HXRT_TEST_SANITIZER_FLAGS; }

ProgramResult InstalledTree::build_sample(const std::string& name) const {
  const std::string build = sample_build_dir(name).string();
  // The same toolchain as this build; --no-warn-unused-cli because a C project has no use for
  // the C++ compiler, nor a C++ project for the C one.
  std::string configure =
      shell_quote(HXRT_TEST_CMAKE) + " --no-warn-unused-cli -S " +
      shell_quote((prefix_ / "share/hxrt/samples" / name).string()) + " -B " + shell_quote(build) +
      " -G " + shell_quote(HXRT_TEST_GENERATOR) +
      " -DCMAKE_MAKE_PROGRAM=" + shell_quote(HXRT_TEST_MAKE_PROGRAM) +
      " -DCMAKE_BUILD_TYPE=" + shell_quote(HXRT_TEST_BUILD_TYPE) +
      " -DCMAKE_C_COMPILER=" + shell_quote(HXRT_TEST_C_COMPILER) +
      " -DCMAKE_CXX_COMPILER=" + shell_quote(HXRT_TEST_CXX_COMPILER) +
      " -DCMAKE_PREFIX_PATH=" + shell_quote(prefix_.string());
  if (!sanitizer_flags().empty()) {
    const std::string flags = shell_quote(sanitizer_flags());
    const std::string link = shell_quote("-fsanitize=address,undefined");
    configure += " -DCMAKE_C_FLAGS=" + flags + " -DCMAKE_CXX_FLAGS=" + flags +
                 " -DCMAKE_EXE_LINKER_FLAGS=" + link + " -DCMAKE_MODULE_LINKER_FLAGS=" + link;
  }
  ProgramResult result = run_program(configure + " 2>&1");
  if (result.exit_code != 0) return result;
  // Two jobs at most: the CI machine has two cores, and other tests run beside this one.
  ProgramResult built =
      run_program(shell_quote(HXRT_TEST_CMAKE) + " --build " + shell_quote(build) + " -j2 2>&1");
  built.output = result.output + built.output;
  return built;
}

std::string canonical_or_same(const std::string& text) {
  std::error_code error;
  const fs::path canonical = fs::canonical(text, error);
  return error ? text : canonical.string();
}

}  // namespace install_test
