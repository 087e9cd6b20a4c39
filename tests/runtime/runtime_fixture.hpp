// A runtime with exactly the CPU plugin, as the runtime tests use it.
#pragma once

#include <optional>
#include <string>

#include "error_from.hpp"
#include "hxrt/runtime.hpp"

namespace runtime_test {

inline hxrt::RuntimeOptions cpu_only_options() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  return options;
}

inline hxrt::Runtime cpu_runtime() { return hxrt::Runtime::create(cpu_only_options()); }

using hxrt_test::error_from;

}  // namespace runtime_test
