// MatMul of bf16 on oneDNN's matmul, which multiplies bf16 with AMX or AVX-512 BF16 and
// accumulates in f32: measured 3 to 7 times faster here than widening to f32 for OpenBLAS
// (Sapphire Rapids, 256^3 to 1024^3, one thread). MatMul and Gemm (with its bias) of f32 on
// it too where it beats OpenBLAS's SGEMM (onednn_sgemm_wins), as for networks' layers. The
// operands are read in place at the views' strides: a transpose swaps the last two, a vector
// is a row (a) or a column (b), a missing or extent-1 batch axis broadcasts.
#pragma once

#include "blas/gemm.hpp"
#include "dnnl/dnnl_primitives.hpp"
#include "kernels/fused_activation.hpp"

namespace hxcpu {

// The fewest columns for which oneDNN's SGEMM beats OpenBLAS's here: at 64 x 512 by 512 x N
// (one thread, bench/RESULTS.md) OpenBLAS takes N = 10 in 0.030 ms against 0.084 ms, and
// oneDNN N = 16 in 0.030 ms against 0.094 ms.
constexpr int64_t kOneDnnLeastColumns = 16;

// Whether a product of f32 runs faster on oneDNN's matmul than on OpenBLAS: more than one row
// and kOneDnnLeastColumns columns, past the small path's sizes. GEMV (one row) stays on
// OpenBLAS, which has no packing to pay for there.
inline bool onednn_sgemm_wins(const GemmShape& shape) {
  return shape.m > 1 && shape.n >= kOneDnnLeastColumns && shape.k > 0 &&
         !takes_small_path(shape);
}

// The call's a, b and c must have passed plan_matmul. `with_bias`: the call's input 2 (Gemm's
// C, of rank 2 at most, broadcasting one way to c) is added to the product, as oneDNN's bias.
// `activation` is applied as the result is written (an eltwise post-op).
Prepared prepare_dnnl_matmul(const KernelCall& call, bool transpose_a, bool transpose_b,
                             uint32_t threads, bool with_bias = false,
                             const FusedActivation& activation = {});

// prepare_dnnl_matmul's primitive for the call's shapes, from `cache` or made and kept there;
// one with no primitive where oneDNN declines them (no kernel, or only its reference loops),
// which the caller then computes without oneDNN. Throws dnnl::error for other failures.
// The cache belongs to one kernel instance, whose activation is always the same.
std::shared_ptr<const Prepared> cached_dnnl_matmul(PrimitiveCache& cache, const KernelCall& call,
                                                   bool transpose_a, bool transpose_b,
                                                   uint32_t threads, bool with_bias = false,
                                                   const FusedActivation& activation = {});

}  // namespace hxcpu
