// MatMul's attributes and dimension check, the same for every plugin's kernel whatever computes
// the product.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>

#include "hxplugin/kernel_call.hpp"
#include "hxplugin/kernel_create.hpp"

namespace hxplugin {

// The product of (m x k) and (k x n) after the transposes.
struct MatMulDims {
  int64_t m, n, k;
};

// Reads the attributes transpose_a and transpose_b (absent: false), at create.
hx_status* matmul_transposes(const KernelCreate& create, bool* transpose_a, bool* transpose_b);

// For the kernels that multiply matrices only (MatMul also takes vectors and stacks of matrices):
// HX_UNIMPLEMENTED unless a, b and c are all rank 2, so that the placer falls back to a device
// that runs the call. `kernel` starts the message: "MatMul on GPU: only matrices (rank 2) are
// supported, got ranks 3, 2 -> 3". Called from check, which sees every call's ranks.
hx_status* matmul_matrices_only(const KernelCall& call, const char* kernel);

// The errors of matmul_dims, out of line: the check is on every MatMul call's path.
hx_status* matmul_operands_error(const KernelCall& call);
hx_status* matmul_dims_error(const KernelCall& call, bool transpose_a, bool transpose_b);

// Checks the call's inputs a, b and output c and reads the product's dimensions from them.
// INVALID_ARGUMENT "MatMul: expected three rank-2 tensors of one dtype, ..." unless all three
// are rank 2 of one dtype, and "MatMul: shapes [..] x [..] -> [..] do not agree" when the
// inner extents differ or c is not m x n. The core never makes such a call; a plugin's kernel
// checks anyway, as it may be called directly (the conformance kit, a test).
inline hx_status* matmul_dims(const KernelCall& call, bool transpose_a, bool transpose_b,
                              MatMulDims* out) {
  const hx_tensor_view& a_view = call.input(0);
  const hx_tensor_view& b_view = call.input(1);
  const hx_tensor_view& c_view = call.output(0);
  if (a_view.rank != 2 || b_view.rank != 2 || c_view.rank != 2 ||
      a_view.dtype != b_view.dtype || a_view.dtype != c_view.dtype) {
    return matmul_operands_error(call);
  }
  const int64_t* a = a_view.shape;
  const int64_t* b = b_view.shape;
  const int64_t* c = c_view.shape;
  const int64_t m = a[transpose_a ? 1 : 0];
  const int64_t k = a[transpose_a ? 0 : 1];
  const int64_t n = b[transpose_b ? 0 : 1];
  if (b[transpose_b ? 1 : 0] != k || c[0] != m || c[1] != n) {
    return matmul_dims_error(call, transpose_a, transpose_b);
  }
  *out = {m, n, k};
  return nullptr;
}

}  // namespace hxplugin
