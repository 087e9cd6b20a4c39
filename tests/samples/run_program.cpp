#include "run_program.hpp"

#include <sys/wait.h>

#include <cstdio>

namespace hxrt_test {

ProgramResult run_program(const std::string& command) {
  ProgramResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t read = 0;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, read);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string built_program(const std::string& name) {
  return shell_quote(std::string(HXRT_TEST_BIN_DIR) + "/" + name);
}

const char* const kCleanEnvironment =
    "env -u HXRT_CONFIG -u HXRT_PLUGIN_PATH -u HXRT_VISIBLE_DEVICES -u HXRT_LOG_DEVICE_PLACEMENT "
    "-u HXRT_FORCE_MEMORY_GROWTH -u HXRT_LOG_LEVEL ";

std::string source_file(const std::string& path) {
  return std::string(HXRT_TEST_SOURCE_DIR) + "/" + path;
}

}  // namespace hxrt_test
