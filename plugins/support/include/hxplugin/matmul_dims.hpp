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

// The error of matmul_dims, out of line: the check is on every MatMul call's path.
hx_status* matmul_dims_error(const KernelCall& call, bool transpose_a, bool transpose_b);

// Reads the dimensions from the call's rank-2 inputs a, b and output c (ranks are the caller's
// to check first). INVALID_ARGUMENT "MatMul: shapes [..] x [..] -> [..] do not agree" when the
// inner extents differ or c is not m x n.
inline hx_status* matmul_dims(const KernelCall& call, bool transpose_a, bool transpose_b,
                              MatMulDims* out) {
  const int64_t* a = call.input(0).shape;
  const int64_t* b = call.input(1).shape;
  const int64_t* c = call.output(0).shape;
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
