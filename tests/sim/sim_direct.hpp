// What the direct tests of the sim plugin (sim_direct_test) share: the plugin's library, the
// options and dtype lists they make devices and kernels with, its exported transfer counters,
// a wall clock.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxrt/sim_counters.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <vector>

#include "direct_plugin.hpp"

namespace sim_direct {

inline constexpr const char* kSim = "libhx_sim.so";
// Two sim GPUs of 1 MiB each.
inline constexpr const char* kTwoGpus =
    R"({"device_type": "GPU", "device_count": 2, "memory_mb": 1})";
inline const std::vector<int32_t> kF32 = {HX_DTYPE_F32};
inline const std::vector<int32_t> kF32x2 = {HX_DTYPE_F32, HX_DTYPE_F32};

// The transfer counters of the plugin's device `ordinal`, through the symbol it exports.
inline hx_sim_transfer_counts_t transfer_counts(const hxrt_test::DirectPlugin& plugin,
                                                int32_t ordinal) {
  hx_sim_transfer_counts_t counts{};
  counts.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  const auto read =
      reinterpret_cast<hx_sim_transfer_counts_fn>(plugin.symbol(HX_SIM_TRANSFER_COUNTS_SYMBOL));
  REQUIRE(read(ordinal, &counts) == 0);
  return counts;
}

// Sets every device's transfer counters back to zero.
inline void reset_transfer_counts(const hxrt_test::DirectPlugin& plugin) {
  reinterpret_cast<hx_sim_reset_transfer_counts_fn>(
      plugin.symbol(HX_SIM_RESET_TRANSFER_COUNTS_SYMBOL))();
}

using Clock = std::chrono::steady_clock;

// Milliseconds of wall time since `since`.
inline double elapsed_ms(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

}  // namespace sim_direct
