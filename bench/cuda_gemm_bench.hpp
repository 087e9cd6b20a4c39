// Large GEMM on GPU:0 through Runtime::execute against raw cublasGemmEx in the same process,
// in f32 and bf16.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kGemmF32Runtime[] = "CudaMatMul_f32_8192/runtime_execute";
inline constexpr char kGemmF32Direct[] = "CudaMatMul_f32_8192/direct_cublasGemmEx";
inline constexpr char kGemmBF16Runtime[] = "CudaMatMul_bf16_8192/runtime_execute";
inline constexpr char kGemmBF16Direct[] = "CudaMatMul_bf16_8192/direct_cublasGemmEx";
// The host time until the call returns (the work runs on after it).
inline constexpr char kGemmReturnRuntime[] = "CudaMatMulReturn_f32_8192/runtime_execute";
inline constexpr char kGemmReturnDirect[] = "CudaMatMulReturn_f32_8192/direct_cublasGemmEx";

// Registers the six benchmarks; `runtime` (with a GPU:0) must outlive the benchmark run.
void register_cuda_gemm_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
