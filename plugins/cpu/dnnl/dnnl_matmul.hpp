// MatMul of bf16 on oneDNN's matmul, which multiplies bf16 with AMX or AVX-512 BF16 and
// accumulates in f32: measured 3 to 7 times faster here than widening to f32 for OpenBLAS
// (Sapphire Rapids, 256^3 to 1024^3, one thread). Gemm of f32 with its bias on it too, which
// is faster than OpenBLAS's SGEMM for the shapes of networks' layers (bench/RESULTS.md). The operands are read in place at the views'
// strides: a transpose swaps the last two, a vector is a row (a) or a column (b), a missing or
// extent-1 batch axis broadcasts.
#pragma once

#include "dnnl/dnnl_primitives.hpp"

namespace hxcpu {

// The call's a, b and c must have passed plan_matmul. `with_bias`: the call's input 2 (Gemm's
// C, of rank 2 at most, broadcasting one way to c) is added to the product, as oneDNN's bias.
Prepared prepare_dnnl_matmul(const KernelCall& call, bool transpose_a, bool transpose_b,
                             uint32_t threads, bool with_bias = false);

}  // namespace hxcpu
