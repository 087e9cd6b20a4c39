// Runs a program through the shell and captures what it printed, for tests of whole programs.
#pragma once

#include <string>

namespace hxrt_test {

struct ProgramResult {
  int exit_code = -1;  // -1 when the program did not exit normally (killed by a signal)
  std::string output;  // its standard output; add " 2>&1" to the command to include stderr
};

ProgramResult run_program(const std::string& command);

// `text` as one shell word: 'text', with embedded quotes escaped.
std::string shell_quote(const std::string& text);

// A program the build put in build/bin, quoted for the shell.
std::string built_program(const std::string& name);

// Put before a command so that the program sees no hxrt setting of the environment the tests
// run in, only those the test adds: "env -u HXRT_CONFIG ... ".
extern const char* const kCleanEnvironment;

// A file of the source tree by its path from the repository root ("config/examples/x.json").
std::string source_file(const std::string& path);

}  // namespace hxrt_test
