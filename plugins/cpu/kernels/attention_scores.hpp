// What both of the CPU's ways of running MultiHeadAttention share (kernels/attention.cpp, its
// loops; dnnl/dnnl_attention.cpp, oneDNN's): a call's extents, and the mask added to the
// scores.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>

#include "kernels/kernel_call.hpp"

namespace hxcpu {

// A call's extents, read from its views: Q [batch, queries, heads x size], K [batch, keys,
// heads x size], V [batch, keys, heads x value_size].
struct AttentionExtents {
  int64_t batch, queries, keys, heads, size, value_size;
  int64_t scores() const { return batch * heads * queries * keys; }
};

AttentionExtents attention_extents(const KernelCall& call, int64_t heads);

// Adds input 3 of the call, the mask (f32 of rank 4 at most, broadcast to [batch, heads,
// queries, keys] as NumPy's rules do), to the dense scores of those extents; nothing when the
// call has no mask.
void add_attention_mask(const KernelCall& call, const AttentionExtents& extents,
                        float* scores);
// The same for the keys' scores of query `s` of head `h` of batch `b` alone.
void add_attention_mask_row(const KernelCall& call, const AttentionExtents& extents, int64_t b,
                            int64_t h, int64_t s, float* row);

}  // namespace hxcpu
