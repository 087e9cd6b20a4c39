// The host app whose start-up hxrt_startup measures, run in a fresh process: Runtime::create
// with the plugins asked for, then one tiny op (a 2x2 float32 MatMul on the default device,
// its result read back), each timed. It prints one line, "<main_at> <create_ns> <op_ns>
// <done_at>": when main began and when the op was done, on the steady clock (CLOCK_MONOTONIC,
// which the parent shares, so that it can tell the time to main and the time to exit), and
// the two durations; op_ns is -1, with the op's error after the line's four numbers, when the
// op failed (a plugin alone may have no device for it; done_at is then when it failed).
#pragma once

#include <chrono>
#include <string>

namespace hxrt_bench {

// `plugins`: "all" for the plugin folder installed beside the core (a default runtime), or
// the path of one plugin file to load alone. `main_at` is when main began. Returns the exit
// code: 0, or 1 when Runtime::create failed (its error on stdout).
int run_startup_child(const std::string& plugins, std::chrono::steady_clock::time_point main_at);

}  // namespace hxrt_bench
