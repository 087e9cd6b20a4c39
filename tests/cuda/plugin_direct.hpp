// The CUDA plugin driven through its function table by the fake core of the direct-plugin
// tests (tests/support/direct_plugin.hpp), for what the public API never does on purpose
// (handles that were never created, foreign devices, odd alignments) and for copies, streams
// and events called one by one.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "direct_plugin.hpp"

namespace cuda_direct {

using hxrt_test::Attributes;
using hxrt_test::Outcome;
using hxrt_test::RegisteredKernel;
using hxrt_test::require_ok;

// libhx_cuda.so from the build's plugin folder.
class DirectPlugin : public hxrt_test::DirectPlugin {
 public:
  explicit DirectPlugin(const std::string& options = "{}",
                        uint32_t core_major = HX_ABI_VERSION_MAJOR)
      : hxrt_test::DirectPlugin("libhx_cuda.so", options, core_major) {}
};

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
