// The GEMM calls of MatMul and Gemm: products over a MatMulBatches plan on either path, and
// the conversions of f16/bf16 matrices to and from the float they are multiplied in.
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include "blas/gemm.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/matmul_batches.hpp"

namespace hxcpu {

// True when BLAS's int arguments can carry every extent and stride of `shape`.
inline bool fits_blas(const GemmShape& shape) {
  return shape.m <= INT_MAX && shape.n <= INT_MAX && shape.k <= INT_MAX &&
         shape.lda <= INT_MAX && shape.ldb <= INT_MAX && shape.ldc <= INT_MAX;
}

// The check of MatMul and Gemm: declines (HX_UNIMPLEMENTED, so that the call runs elsewhere)
// operands a and b with an extent BLAS's int arguments cannot carry.
inline hx_status* blas_extents_check(const KernelCall& call, const char* op) {
  for (size_t i = 0; i < 2; ++i) {
    const hx_tensor_view& operand = call.input(i);
    for (int32_t axis = 0; axis < operand.rank; ++axis) {
      if (operand.shape[axis] > INT_MAX) {
        return call.error(HX_UNIMPLEMENTED,
                          "%s on CPU: extent %lld of input %zu exceeds the BLAS interface's "
                          "limit of %d",
                          op, static_cast<long long>(operand.shape[axis]), i, INT_MAX);
      }
    }
  }
  return nullptr;
}

// gemm(), with takes_small_path's answer known already (the kernel asked it to choose its
// checks).
template <class T>
void run_gemm(const GemmShape& shape, bool small, const T* a, const T* b, T* c) {
  if (small) {
    small_gemm(shape, a, b, c);
  } else {
    blas_gemm(shape, a, b, c);
  }
}

// A `rows` x `columns` matrix at row stride `from_stride` to one at `to_stride`, converting
// each element (f16 and bf16 to and from float).
template <class To, class From>
void copy_matrix(const From* from, int64_t from_stride, To* to, int64_t to_stride, int64_t rows,
                 int64_t columns) {
  for (int64_t row = 0; row < rows; ++row) {
    const From* in = from + row * from_stride;
    To* out = to + row * to_stride;
    for (int64_t column = 0; column < columns; ++column) {
      out[column] = convert_element<To>(in[column]);
    }
  }
}

// Every product of the plan, into c.
template <class T>
void products(const MatMulBatches& plan, const T* a, const T* b, T* c) {
  const bool small = takes_small_path(plan.gemm);
  plan.for_each([&](int64_t a_offset, int64_t b_offset, int64_t c_offset) {
    run_gemm(plan.gemm, small, a + a_offset, b + b_offset, c + c_offset);
  });
}

// f16 and bf16: each product's operands widened to dense float matrices and multiplied in
// float; finish(c_offset, product) then takes the product, a dense m x n float matrix.
template <class Narrow, class Finish>
void wide_products(const MatMulBatches& plan, const Narrow* a, const Narrow* b, Finish&& finish) {
  const GemmShape& shape = plan.gemm;
  const int64_t a_rows = shape.transpose_a ? shape.k : shape.m;
  const int64_t a_columns = shape.transpose_a ? shape.m : shape.k;
  const int64_t b_rows = shape.transpose_b ? shape.n : shape.k;
  const int64_t b_columns = shape.transpose_b ? shape.k : shape.n;
  GemmShape dense = shape;
  dense.lda = a_columns;
  dense.ldb = b_columns;
  dense.ldc = shape.n;
  std::vector<float> wide_a(static_cast<size_t>(a_rows * a_columns));
  std::vector<float> wide_b(static_cast<size_t>(b_rows * b_columns));
  std::vector<float> product(static_cast<size_t>(shape.m * shape.n));
  const bool small = takes_small_path(dense);
  plan.for_each([&](int64_t a_offset, int64_t b_offset, int64_t c_offset) {
    if (shape.k > 0) {
      copy_matrix(a + a_offset, shape.lda, wide_a.data(), a_columns, a_rows, a_columns);
      copy_matrix(b + b_offset, shape.ldb, wide_b.data(), b_columns, b_rows, b_columns);
      run_gemm(dense, small, wide_a.data(), wide_b.data(), product.data());
    }
    finish(c_offset, static_cast<const float*>(product.data()));
  });
}

}  // namespace hxcpu
