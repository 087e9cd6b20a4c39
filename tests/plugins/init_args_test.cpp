// What every plugin's init is given besides its options: execution.intra_op_threads in
// hx_plugin_init_args, the same in the probe process as in the host, and part of what a
// cached probe verdict holds for. The fixture init_args appends what each init got to the
// file $HXRT_FIXTURE_INIT_ARGS_LOG names.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "hxrt/plugin_api.h"
#include "loader_support.hpp"
#include "temp_dir.hpp"

using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::report_for;
using loader_test::ScopedEnv;

namespace {

// The fixture's record of its inits, in a scratch folder that also holds the probe verdicts.
class InitArgsLog {
 public:
  InitArgsLog()
      : dir_("hxrt_init_args_test"),
        log_env_("HXRT_FIXTURE_INIT_ARGS_LOG", (dir_.path() / "inits.txt").string()),
        cache_env_("XDG_CACHE_HOME", (dir_.path() / "cache").string()) {}

  // Every line written so far.
  std::vector<std::string> lines() const {
    std::ifstream in(dir_.path() / "inits.txt");
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

 private:
  hxrt_test::TempDir dir_;
  ScopedEnv log_env_;
  ScopedEnv cache_env_;
};

// The line of one init that got `threads`.
std::string init_line(uint32_t threads) {
  return "struct_size=" + std::to_string(HX_PLUGIN_INIT_ARGS_STRUCT_SIZE) +
         " intra_op_threads=" + std::to_string(threads);
}

hxrt::Runtime start(std::optional<int> intra_op_threads, bool probe = false) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {fixture_path("init_args")};
  options.intra_op_threads = intra_op_threads;
  options.probe_plugins = probe;
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  const hxrt::PluginReport report = report_for(runtime, fixture_file("init_args"));
  INFO(report.reason);
  CHECK(report.loaded);
  return runtime;
}

}  // namespace

TEST_CASE("a plugin's init gets execution.intra_op_threads, 0 when nothing sets it") {
  InitArgsLog log;
  start(std::nullopt);
  CHECK(log.lines() == std::vector<std::string>{init_line(0)});
  start(3);
  CHECK(log.lines() == std::vector<std::string>{init_line(0), init_line(3)});
  {
    ScopedEnv threads("HXRT_INTRA_OP_THREADS", "5");
    start(std::nullopt);
  }
  CHECK(log.lines() == std::vector<std::string>{init_line(0), init_line(3), init_line(5)});
}

TEST_CASE("a probed plugin gets the same intra_op_threads in the probe and in the host") {
  InitArgsLog log;
  start(3, /*probe=*/true);
  CHECK(log.lines() == std::vector<std::string>{init_line(3), init_line(3)});
  // The verdict holds for these arguments: the same start probes nothing...
  start(3, /*probe=*/true);
  CHECK(log.lines().size() == 3);
  // ...and another count is probed again.
  start(4, /*probe=*/true);
  CHECK(log.lines() == std::vector<std::string>{init_line(3), init_line(3), init_line(3),
                                                init_line(4), init_line(4)});
}

TEST_CASE("hxrt-probe refuses an intra-op thread count that is not one") {
  const std::string program = HXRT_TEST_PROBE_PROGRAM;
  for (const char* count : {"abc", "-1", "4294967296", "3x", "''"}) {
    INFO(count);
    // Its report goes to descriptor 3 (probe_protocol.hpp), here the pipe popen reads.
    const std::string command =
        program + " " + cpu_plugin_path() + " '{}' " + count + " 3>&1 1>/dev/null 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[256];
    while (size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    const int status = pclose(pipe);
    CHECK(output ==
          "error usage: hxrt-probe <plugin file> <options JSON> <intra-op threads>\n");
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
  }
}
