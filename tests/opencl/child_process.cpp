#include "child_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <thread>

namespace opencl_test {
namespace {

constexpr int kThrew = 125;

ChildEnd ended(int status) {
  ChildEnd end;
  if (WIFEXITED(status)) {
    end.exited = true;
    end.exit_code = WEXITSTATUS(status);
    end.description = "exit code " + std::to_string(end.exit_code);
    if (end.exit_code == kThrew) end.description += " (the child's code threw)";
  } else if (WIFSIGNALED(status)) {
    end.description = "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                      strsignal(WTERMSIG(status)) + ")";
  } else {
    end.description = "ended with wait status " + std::to_string(status);
  }
  return end;
}

}  // namespace

ChildEnd run_in_child(const std::function<int()>& body, std::chrono::seconds limit) {
  std::fflush(nullptr);  // or the child's copy of buffered output is written twice
  const pid_t child = fork();
  if (child < 0) return {false, -1, std::string("fork failed: ") + std::strerror(errno)};
  if (child == 0) {
    int code = kThrew;
    try {
      code = body();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "child: %s\n", error.what());
    } catch (...) {
    }
    std::fflush(nullptr);
    _exit(code);
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (true) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return ended(status);
    if (done < 0 && errno != EINTR) {
      return {false, -1, std::string("waitpid failed: ") + std::strerror(errno)};
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return {false, -1, "hung: killed after " + std::to_string(limit.count()) + " s"};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace opencl_test
