// A piece of a test run in a child process of its own (fork, no exec), for what can happen only
// once per process: OpenCL drivers set their devices up at the first call that asks for them,
// and a race there exists only in a process where that has not happened yet. The child's end
// (an exit code, a signal, or a hang that the time limit ends) is reported to the parent, so
// that a crash fails the test instead of ending the test program.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace opencl_test {

struct ChildEnd {
  bool exited = false;  // with `exit_code`; else killed by a signal, or hung
  int exit_code = -1;
  // "exit code 0", "killed by signal 11 (Segmentation fault)", "hung: killed after 60 s"
  std::string description;
};

// Runs `body` in a forked child, which ends with _exit(body's return value) (no atexit
// handlers: those are the parent's, Catch2's among them), or with 125 when body throws. Call
// it only while the calling process has no other thread: a forked child gets only the calling
// thread, and a lock another thread held stays held in it forever. A child still running after
// `limit` is killed.
ChildEnd run_in_child(const std::function<int()>& body, std::chrono::seconds limit);

}  // namespace opencl_test
