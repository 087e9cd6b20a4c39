// Per-op host overhead: a small element-wise op (Add of 256 floats) on GPU:0 through
// Runtime::execute against a raw launch of the very same CUDA kernel.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kSmallAddRuntime[] = "CudaAdd_256/runtime_execute";
inline constexpr char kSmallAddDirect[] = "CudaAdd_256/direct_launch";

// Registers the two benchmarks; `runtime` (with a GPU:0) must outlive the benchmark run.
void register_cuda_launch_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
