#include "startup_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace hxrt_bench {
namespace {

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> out;
  for (std::string& text : texts) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got > 0) {
      out.append(buffer, static_cast<size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      return out;
    }
  }
}

double milliseconds(const timeval& time) { return time.tv_sec * 1e3 + time.tv_usec / 1e3; }

}  // namespace

std::vector<std::string> environment_with(const std::vector<std::string>& removed,
                                          const std::vector<std::string>& added) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    bool drop = false;
    for (const std::string& each : removed) drop = drop || each == name;
    if (!drop) out.push_back(text);
  }
  out.insert(out.end(), added.begin(), added.end());
  return out;
}

ProcessRun run_process(const std::vector<std::string>& argv,
                       const std::vector<std::string>& environment) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> arguments = argv;
  std::vector<std::string> variables = environment;
  std::vector<char*> argument_pointers = pointers(arguments);
  std::vector<char*> variable_pointers = pointers(variables);

  ProcessRun run;
  run.started = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argument_pointers[0], &actions, nullptr,
                                argument_pointers.data(), variable_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (error != 0) {
    close(ends[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
  run.output = read_all(ends[0]);
  close(ends[0]);
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  run.ended = std::chrono::steady_clock::now();
  run.wall_ms = std::chrono::duration<double, std::milli>(run.ended - run.started).count();
  run.cpu_ms = milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime);
  run.max_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace hxrt_bench
