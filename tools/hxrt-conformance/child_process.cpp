#include "child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

namespace hxrt_conformance {
namespace {

// Exit code of a child whose body threw: the kit's own failure, not the plugin's.
constexpr int kBodyThrew = 70;

void read_until_end(int fd, pid_t child, int timeout_seconds, ChildOutcome& outcome) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(child, SIGKILL);
      outcome.end = ChildOutcome::End::kTimedOut;
      return;
    }
    pollfd channel{fd, POLLIN, 0};
    const int ready = poll(&channel, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline check above ends the wait
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;  // the child closed its end: it exited (or closed it and hangs on)
    outcome.output.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

std::string signal_description(int signal) {
  const char* name = sigabbrev_np(signal);
  const char* text = strsignal(signal);
  std::string description = name ? std::string("SIG") + name : "signal " + std::to_string(signal);
  if (text != nullptr) description += std::string(" (") + text + ")";
  return description;
}

ChildOutcome run_in_child(const std::function<void(int channel)>& body, int timeout_seconds) {
  ChildOutcome outcome;
  int channel[2];
  if (pipe(channel) != 0) {
    outcome.end = ChildOutcome::End::kExited;
    outcome.exit_code = -1;
    outcome.output.clear();
    return outcome;
  }
  // Whatever the parent buffered would otherwise be written twice, once by each process.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(channel[0]);
    close(channel[1]);
    outcome.exit_code = -1;
    return outcome;
  }
  if (child == 0) {
    close(channel[0]);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    int code = 0;
    try {
      body(channel[1]);
    } catch (const std::exception& error) {
      std::cerr << "hxrt-conformance: " << error.what() << '\n';
      code = kBodyThrew;
    } catch (...) {
      code = kBodyThrew;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    close(channel[1]);
    _exit(code);
  }
  close(channel[1]);
  read_until_end(channel[0], child, timeout_seconds, outcome);
  close(channel[0]);
  int status = 0;
  if (outcome.end == ChildOutcome::End::kTimedOut) {
    waitpid(child, &status, 0);
    return outcome;
  }
  // The channel closed: the child is exiting, or closed it and still runs; bound that too.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  for (;;) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      outcome.end = ChildOutcome::End::kTimedOut;
      return outcome;
    }
    usleep(1000);
  }
  if (WIFSIGNALED(status)) {
    outcome.end = ChildOutcome::End::kSignalled;
    outcome.signal = WTERMSIG(status);
  } else {
    outcome.end = ChildOutcome::End::kExited;
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return outcome;
}

}  // namespace hxrt_conformance
