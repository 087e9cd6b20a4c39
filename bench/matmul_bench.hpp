// MatMul through the runtime against the same product computed by a direct cblas_sgemm call.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kTinyRuntime[] = "MatMul_2x2/runtime_execute";
inline constexpr char kTinyRuntimeOp[] = "MatMul_2x2/runtime_execute_op";  // hxrt::Op handle
inline constexpr char kAddRuntimeOp[] = "Add_16/runtime_execute_op";
inline constexpr char kAddDirect[] = "Add_16/direct_loop";
inline constexpr char kTinyDirect[] = "MatMul_2x2/direct_cblas_sgemm";
inline constexpr char kLargeRuntime[] = "MatMul_2048/runtime_execute";
inline constexpr char kLargeDirect[] = "MatMul_2048/direct_cblas_sgemm";

// Registers the benchmarks; `runtime` must outlive the benchmark run.
void register_matmul_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
