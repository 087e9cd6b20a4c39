// The CPU plugin's two GEMM paths (plugins/cpu/blas/gemm.hpp) on the same tiny products,
// to place the size threshold between them, and MatMul through Runtime::execute from 2x2 to
// 64x64 beside a direct cblas_sgemm of each size.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// GemmPath/<small|blas>/<f32|f64>/<nn|nt>/<m>x<n>x<k>: one path called directly, output
// allocated once.
void register_gemm_path_benchmarks();

// MatMulSizes/<runtime_execute|direct_cblas_sgemm>/<n>: an n x n f32 product; `runtime` must
// outlive the benchmark run.
void register_matmul_size_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
