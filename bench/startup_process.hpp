// One run of a program in a fresh process, as start-up is measured: the wall time from spawn
// to exit, the CPU time and the peak resident memory the kernel counted for that process alone
// (wait4's rusage), and what it wrote to stdout.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hxrt_bench {

struct ProcessRun {
  std::chrono::steady_clock::time_point started, ended;  // spawn, and wait's return
  double wall_ms = 0;
  double cpu_ms = 0;       // user + system
  double max_rss_mb = 0;   // ru_maxrss: the process's peak resident set
  int exit_code = -1;      // -1 when it did not exit normally (a signal)
  std::string output;      // stdout; stderr goes to /dev/null
};

// Runs `argv` (argv[0] is a path) with `environment` ("NAME=value" entries) and waits for it.
// Throws std::runtime_error when it cannot be started.
ProcessRun run_process(const std::vector<std::string>& argv,
                       const std::vector<std::string>& environment);

// This process's environment without the variables named in `removed`, then `added`.
std::vector<std::string> environment_with(const std::vector<std::string>& removed,
                                          const std::vector<std::string>& added);

}  // namespace hxrt_bench
