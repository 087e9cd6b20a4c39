// The host app whose start-up hxrt_startup measures, run in a fresh process: Runtime::create
// with the plugins asked for, then one tiny op (a 2x2 float32 MatMul on the default device,
// its result read back), each timed. It prints one line, "<create_ns> <op_ns>", with op_ns -1
// and the op's error after it when the op failed (a plugin alone may have no device for it).
#pragma once

#include <string>

namespace hxrt_bench {

// `plugins`: "all" for the plugin folder installed beside the core (a default runtime), or
// the path of one plugin file to load alone. Returns the exit code: 0, or 1 when
// Runtime::create failed (its error on stdout).
int run_startup_child(const std::string& plugins);

}  // namespace hxrt_bench
