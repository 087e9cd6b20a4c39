// Shared pieces of the CUDA plugin's own tests (devices, memory, copies, streams, events; the
// kernels have theirs in kernel_test_support.hpp): runtimes that load the freshly built
// plugins by path, the CUDA plugin's load report, and the skip for tests that need a GPU.
#pragma once

#include <hxrt/hxrt.hpp>

#include <catch2/catch.hpp>
#include <string>

namespace cuda_plugin_test {

std::string cpu_plugin_path();
std::string cuda_plugin_path();
std::string sim_plugin_path();

// A runtime with exactly the CPU and CUDA plugins (and the sim plugin, with these options,
// when `sim_options` is not empty). Fails the test unless the CPU and CUDA plugins loaded.
hxrt::Runtime make_runtime(const std::string& sim_options = {});

// The CUDA plugin's load report entry; fails the test when there is none.
const hxrt::PluginReport& cuda_report(const hxrt::Runtime& runtime);

// True when the CUDA plugin has at least one device; otherwise false, and *why is the
// plugin's reason ("no CUDA driver: ...").
bool has_gpu(const hxrt::Runtime& runtime, std::string* why);

// Whether the CUDA driver library (libcuda.so.1) can be loaded on this machine.
bool driver_installed();

}  // namespace cuda_plugin_test

// Makes the calling test case return early, with a warning CTest reports as a skip (see
// tests/cuda/CMakeLists.txt), when `runtime` has no GPU.
#define CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime)                      \
  do {                                                             \
    std::string no_gpu_reason;                                     \
    if (!::cuda_plugin_test::has_gpu((runtime), &no_gpu_reason)) { \
      WARN("skipped: no CUDA device (" << no_gpu_reason << ")");   \
      return;                                                      \
    }                                                              \
  } while (false)
