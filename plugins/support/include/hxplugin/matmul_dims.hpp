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

// Reads the dimensions from the call's rank-2 inputs a, b and output c (ranks are the caller's
// to check first). INVALID_ARGUMENT "MatMul: shapes [..] x [..] -> [..] do not agree" when the
// inner extents differ or c is not m x n.
hx_status* matmul_dims(const KernelCall& call, bool transpose_a, bool transpose_b,
                       MatMulDims* out);

}  // namespace hxplugin
