// The CUDA plugin driven through its function table by the fake core of the direct-plugin
// tests (tests/support/direct_plugin.hpp), for what the public API never does on purpose
// (handles that were never created, foreign devices, odd alignments) and for copies, streams
// and events called one by one.
#pragma once

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstddef>

#include "direct_plugin.hpp"

namespace cuda_direct {

using hxrt_test::Attributes;
using hxrt_test::Outcome;
using hxrt_test::RegisteredKernel;
using hxrt_test::require_ok;

inline constexpr char kLibrary[] = "libhx_cuda.so";
using DirectPlugin = hxrt_test::DirectPluginOf<kLibrary>;

// A buffer of `size` bytes (at least one) on `device`, 256-byte aligned; fails the test when
// refused.
inline hx_buffer* device_buffer(const DirectPlugin& plugin, hx_device* device, size_t size) {
  hx_buffer* buffer = nullptr;
  const size_t bytes = std::max<size_t>(size, 1);
  require_ok(DirectPlugin::outcome(plugin.api().allocate(device, bytes, 256, &buffer)));
  return buffer;
}

}  // namespace cuda_direct

// Makes the calling test case return early, with a warning CTest reports as a skip, when the
// plugin has no device.
#define CUDA_DIRECT_REQUIRE_GPU(plugin)                                  \
  do {                                                                   \
    ::cuda_direct::Outcome count_outcome;                                \
    if ((plugin).device_count(&count_outcome) == 0) {                    \
      WARN("skipped: no CUDA device (" << count_outcome.message << ")"); \
      return;                                                            \
    }                                                                    \
  } while (false)
