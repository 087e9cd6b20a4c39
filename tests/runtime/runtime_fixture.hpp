// A runtime with exactly the CPU plugin, as the runtime tests use it.
#pragma once

#include <optional>
#include <string>

#include "hxrt/runtime.hpp"

namespace runtime_test {

inline hxrt::RuntimeOptions cpu_only_options() {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  return options;
}

inline hxrt::Runtime cpu_runtime() { return hxrt::Runtime::create(cpu_only_options()); }

// The hxrt::Error that `body` throws, or nothing.
template <class Body>
std::optional<hxrt::Error> error_from(Body body) {
  try {
    body();
  } catch (const hxrt::Error& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace runtime_test
