// Runs a piece of the kit in a child process, so that a plugin that crashes, calls abort()
// or never returns ends one section with a failure instead of ending the kit.
#pragma once

#include <functional>
#include <string>

#include <hxcommon/fd_io.hpp>

namespace hxrt_conformance {

struct ChildOutcome {
  enum class End { kExited, kSignalled, kTimedOut };
  End end = End::kExited;
  int exit_code = 0;     // when kExited
  int signal = 0;        // when kSignalled
  std::string output;    // everything the child wrote to its channel
};

// Forks; the child runs `body` with a file descriptor to write its results to, then exits
// without running the parent's exit handlers. The child's stdout goes to stderr, so that
// what a plugin prints cannot mix with the kit's report. A child still running after
// `timeout_seconds` is killed. The caller must not hold threads that the child would need.
ChildOutcome run_in_child(const std::function<void(int channel)>& body, int timeout_seconds);

// Writes all of `text` to `fd`, retrying on short writes; false if the channel broke.
using hxcommon::write_all;

// "SIGSEGV (Segmentation fault)".
std::string signal_description(int signal);

}  // namespace hxrt_conformance
