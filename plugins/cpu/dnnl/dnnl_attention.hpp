// MultiHeadAttention of f32 on three oneDNN primitives: the scores of every head at once
// (a batched matmul reading Q and K where the projections lie, at the heads' strides, scaled as
// it writes), the softmax over the keys in place, and the weighted sum of V written straight
// into Y's [batch, queries, heads x value size]. Measured against the chain it replaces
// (bench/RESULTS.md): the transposes of Q, K, V and Y are gone, not moved.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>

#include "dnnl/dnnl_primitives.hpp"
#include "kernels/attention_scores.hpp"
#include "kernels/kernel_call.hpp"

namespace hxcpu {

// The primitives for one combination of shapes and strides.
struct AttentionPlan {
  dnnl::matmul scores;
  dnnl::softmax_forward softmax;
  dnnl::matmul mix;
  dnnl::memory::desc q, k_transposed, v, y, dense_scores;
  size_t scratchpad_bytes = 0;  // the larger of the three primitives'
};

// The plan for the call, or one without primitives where oneDNN offers only its reference
// loops (slower than the caller's own). Throws dnnl::error for other failures.
AttentionPlan prepare_dnnl_attention(const KernelCall& call, const AttentionExtents& extents,
                                     double scale, uint32_t threads);

// Runs `plan` on the call: the scores into a buffer of the thread's, the mask (input 3, if
// the call has one) added to them, the softmax, the weighted sum into the call's output.
hx_status* run_dnnl_attention(const KernelCall& call, const AttentionPlan& plan,
                              const AttentionExtents& extents, uint32_t threads);

}  // namespace hxcpu
