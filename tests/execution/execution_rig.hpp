// Runtimes for the execution tests: the CPU plugin and the sim plugin with the options a test
// gives, and the sim's transfer counters (plugins/sim/include/hxrt/sim_counters.h).
#pragma once

#include <hxrt/sim_counters.h>

#include <cstdint>
#include <hxrt/hxrt.hpp>
#include <string>
#include <vector>

#include "error_from.hpp"

namespace execution_test {

using hxrt_test::error_from;

// A MatMul of n x n by n x n takes `seconds` on a sim device with this matmul_gflops.
double gflops_for(int64_t n, double seconds);

// A runtime with the CPU plugin and the sim plugin, whose options are `sim_options` (a JSON
// object's members without braces, e.g. "\"device_count\":2"), devices of type GPU.
hxrt::Runtime runtime_with_gpus(int count, const std::string& sim_options = "");

// The side of the square matrices the tests multiply.
inline constexpr int64_t kN = 64;

// n x n floats: value i at index i, plus `offset`.
std::vector<float> iota(int64_t n, float offset = 0);
// The n x n identity matrix.
std::vector<float> identity(int64_t n);

// The sim plugin's counters of one device (its ordinal), read from the library the runtime
// loaded.
hx_sim_transfer_counts_t sim_counts(int32_t ordinal);

}  // namespace execution_test
