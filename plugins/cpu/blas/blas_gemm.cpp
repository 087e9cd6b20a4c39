// The BLAS path of gemm.hpp: OpenBLAS's cblas_sgemm and cblas_dgemm, and its matrix-vector
// products for a product with one row or one column. OpenBLAS's GEMM packs both operands on
// every call: for a layer's weights at batch 1 (1 x 784 by 784 x 512) the packing is two thirds
// of the call (sgemm_incopy), where GEMV reads the matrix once.
#include <cblas.h>

#include <algorithm>

#include "blas/gemm.hpp"

namespace hxcpu {
namespace {

CBLAS_TRANSPOSE transpose_flag(bool transpose) { return transpose ? CblasTrans : CblasNoTrans; }

// Overloads, so that one template serves both element types.
void gemv(CBLAS_TRANSPOSE transpose, int rows, int columns, const float* matrix, int ld,
          const float* x, int x_step, float* y, int y_step) {
  cblas_sgemv(CblasRowMajor, transpose, rows, columns, 1.0f, matrix, ld, x, x_step, 0.0f, y,
              y_step);
}
void gemv(CBLAS_TRANSPOSE transpose, int rows, int columns, const double* matrix, int ld,
          const double* x, int x_step, double* y, int y_step) {
  cblas_dgemv(CblasRowMajor, transpose, rows, columns, 1.0, matrix, ld, x, x_step, 0.0, y,
              y_step);
}

// C = A B as one matrix-vector product when C is one row (a row of A times B) or one column (A
// times a column of B); false for any other shape. C is zeroed first: GEMV's beta of 0 need
// not overwrite a NaN left in C's memory.
template <class T>
bool vector_product(const GemmShape& shape, const T* a, const T* b, T* c) {
  const auto extent = [](int64_t value) { return static_cast<int>(value); };
  if (shape.m == 1) {
    // c = op(B)^T a: B stored n x k (transposed) is the matrix as it is, k x n its transpose.
    const int a_step = shape.transpose_a ? extent(shape.lda) : 1;
    std::fill(c, c + shape.n, T(0));
    if (shape.transpose_b) {
      gemv(CblasNoTrans, extent(shape.n), extent(shape.k), b, extent(shape.ldb), a, a_step, c, 1);
    } else {
      gemv(CblasTrans, extent(shape.k), extent(shape.n), b, extent(shape.ldb), a, a_step, c, 1);
    }
    return true;
  }
  if (shape.n == 1) {
    // c = op(A) b, down C's column.
    const int b_step = shape.transpose_b ? 1 : extent(shape.ldb);
    for (int64_t row = 0; row < shape.m; ++row) c[row * shape.ldc] = T(0);
    if (shape.transpose_a) {
      gemv(CblasTrans, extent(shape.k), extent(shape.m), a, extent(shape.lda), b, b_step, c,
           extent(shape.ldc));
    } else {
      gemv(CblasNoTrans, extent(shape.m), extent(shape.k), a, extent(shape.lda), b, b_step, c,
           extent(shape.ldc));
    }
    return true;
  }
  return false;
}

}  // namespace

void blas_gemm(const GemmShape& shape, const float* a, const float* b, float* c) {
  if (vector_product(shape, a, b, c)) return;
  cblas_sgemm(CblasRowMajor, transpose_flag(shape.transpose_a), transpose_flag(shape.transpose_b),
              static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k),
              1.0f, a, static_cast<int>(shape.lda), b, static_cast<int>(shape.ldb), 0.0f, c,
              static_cast<int>(shape.ldc));
}

void blas_gemm(const GemmShape& shape, const double* a, const double* b, double* c) {
  if (vector_product(shape, a, b, c)) return;
  cblas_dgemm(CblasRowMajor, transpose_flag(shape.transpose_a), transpose_flag(shape.transpose_b),
              static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k),
              1.0, a, static_cast<int>(shape.lda), b, static_cast<int>(shape.ldb), 0.0, c,
              static_cast<int>(shape.ldc));
}

}  // namespace hxcpu
