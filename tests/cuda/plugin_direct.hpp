// The CUDA plugin driven through its function table by the fake core of the direct-plugin
// tests (tests/support/direct_plugin.hpp), for what the public API never does on purpose
// (handles that were never created, foreign devices, odd alignments) and for copies, streams
// and events called one by one.
#pragma once

#include <catch2/catch.hpp>

#include "direct_plugin.hpp"

namespace cuda_direct {

using hxrt_test::Attributes;
using hxrt_test::Outcome;
using hxrt_test::RegisteredKernel;
using hxrt_test::require_ok;

inline constexpr char kLibrary[] = "libhx_cuda.so";
using DirectPlugin = hxrt_test::DirectPluginOf<kLibrary>;

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
