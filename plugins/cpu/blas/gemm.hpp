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

// The small path takes a product when m * n * k is at most kSmallGemmMaxWork and every extent
// is at most kSmallGemmMaxExtent. Measured with bench/hxrt_gemm_bench (GemmPath/) against
// OpenBLAS 0.3.21's Cooperlake core, whose own small-matrix kernels make it the stiffest
// rival: the loops won every shape of work up to 128 (squares to 5x5x5, thin shapes to
// 16x8x1, both dtypes, B transposed or not) and lost from 6x6x6 (216) on when B is not
// transposed. The extent bound keeps long, thin products (a dot product of 10,000 elements)
// on BLAS; every thin shape measured within it won.
constexpr int64_t kSmallGemmMaxWork = 128;
constexpr int64_t kSmallGemmMaxExtent = 16;

inline bool takes_small_path(const GemmShape& shape) {
  return shape.m <= kSmallGemmMaxExtent && shape.n <= kSmallGemmMaxExtent &&
         shape.k <= kSmallGemmMaxExtent && shape.m * shape.n * shape.k <= kSmallGemmMaxWork;
}

// The hand-written path: any shape with k >= 1 (gemm() sends it those takes_small_path
// accepts; tests and bench/ may send it any).
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
