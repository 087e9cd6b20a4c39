// The CPU plugin's GEMM, C = op(A) x op(B) on row-major host memory, by one of two paths:
// OpenBLAS, or hand-written loops (small_gemm.cpp) for products so small that the BLAS call's
// own fixed cost (argument checks, its buffer taken under a mutex, packing) would outweigh the
// arithmetic, as libxsmm does. gemm() picks the path by size; the two paths are exposed so that
// tests and bench/ can run each on any shape.
#pragma once

#include <cstdint>

namespace hxcpu {

struct GemmShape {
  int64_t m, n, k;         // C is m x n; the inner extent is k
  int64_t lda, ldb, ldc;   // row strides in elements of A and B as stored (before the
                           // transposes) and of C; each at least its row's length
  bool transpose_a;        // A is stored k x m
  bool transpose_b;        // B is stored n x k
};

// The small path takes a product when every extent is at most kSmallGemmMaxExtent and
// m * n * k is at most kSmallGemmMaxWork. The work bound is where OpenBLAS's fixed cost stops
// dominating (measured with bench/hxrt_gemm_bench: GemmPath/); the extent
// bound keeps the small path's scratch for a transposed B on the stack and keeps long, thin
// products (a dot product of 10,000 elements) on BLAS.
constexpr int64_t kSmallGemmMaxExtent = 32;
constexpr int64_t kSmallGemmMaxWork = 512;

inline bool takes_small_path(const GemmShape& shape) {
  return shape.m <= kSmallGemmMaxExtent && shape.n <= kSmallGemmMaxExtent &&
         shape.k <= kSmallGemmMaxExtent && shape.m * shape.n * shape.k <= kSmallGemmMaxWork;
}

// The hand-written path. Any shape whose extents are at most kSmallGemmMaxExtent, k >= 1.
void small_gemm(const GemmShape& shape, const float* a, const float* b, float* c);
void small_gemm(const GemmShape& shape, const double* a, const double* b, double* c);

// cblas_sgemm / cblas_dgemm. Every extent and stride must fit in an int, k >= 1.
void blas_gemm(const GemmShape& shape, const float* a, const float* b, float* c);
void blas_gemm(const GemmShape& shape, const double* a, const double* b, double* c);

// The path takes_small_path chooses.
template <class T>
void gemm(const GemmShape& shape, const T* a, const T* b, T* c) {
  if (takes_small_path(shape)) {
    small_gemm(shape, a, b, c);
  } else {
    blas_gemm(shape, a, b, c);
  }
}

}  // namespace hxcpu
