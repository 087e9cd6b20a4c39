// The BLAS path of gemm.hpp: OpenBLAS's cblas_sgemm and cblas_dgemm.
#include <cblas.h>

#include "blas/gemm.hpp"

namespace hxcpu {
namespace {

CBLAS_TRANSPOSE transpose_flag(bool transpose) { return transpose ? CblasTrans : CblasNoTrans; }

}  // namespace

void blas_gemm(const GemmShape& shape, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, transpose_flag(shape.transpose_a), transpose_flag(shape.transpose_b),
              static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k),
              1.0f, a, static_cast<int>(shape.lda), b, static_cast<int>(shape.ldb), 0.0f, c,
              static_cast<int>(shape.ldc));
}

void blas_gemm(const GemmShape& shape, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, transpose_flag(shape.transpose_a), transpose_flag(shape.transpose_b),
              static_cast<int>(shape.m), static_cast<int>(shape.n), static_cast<int>(shape.k),
              1.0, a, static_cast<int>(shape.lda), b, static_cast<int>(shape.ldb), 0.0, c,
              static_cast<int>(shape.ldc));
}

}  // namespace hxcpu
