#include "kernels/attention_scores.hpp"

#include <array>

#include "kernels/parallel_rows.hpp"

namespace hxcpu {
namespace {

// The mask's strides as [batch, heads, queries, keys]: 0 along an axis it repeats on.
std::array<int64_t, 4> mask_strides(const hx_tensor_view& mask) {
  std::array<int64_t, 4> strides = {0, 0, 0, 0};
  for (int32_t axis = 0; axis < mask.rank; ++axis) {
    strides[static_cast<size_t>(4 - mask.rank + axis)] =
        mask.shape[axis] == 1 ? 0 : mask.strides[axis];
  }
  return strides;
}

void add_row(const hx_tensor_view& mask, const std::array<int64_t, 4>& strides, int64_t keys,
             int64_t b, int64_t h, int64_t s, float* row) {
  const float* from = input_data<float>(mask) + b * strides[0] + h * strides[1] + s * strides[2];
  if (strides[3] == 0) {
    for (int64_t l = 0; l < keys; ++l) row[l] += from[0];
  } else if (strides[3] == 1) {
    for (int64_t l = 0; l < keys; ++l) row[l] += from[l];
  } else {
    for (int64_t l = 0; l < keys; ++l) row[l] += from[l * strides[3]];
  }
}

}  // namespace

void add_attention_mask(const KernelCall& call, const AttentionExtents& extents,
                        float* scores) {
  if (call.num_inputs() < 4) return;
  const hx_tensor_view& mask = call.input(3);
  const std::array<int64_t, 4> strides = mask_strides(mask);
  const int64_t rows = extents.batch * extents.heads * extents.queries;
  for_row_ranges(call, rows, extents.scores(), [&](int64_t first, int64_t end) {
    for (int64_t row = first; row < end; ++row) {
      add_row(mask, strides, extents.keys, row / extents.queries / extents.heads,
              row / extents.queries % extents.heads, row % extents.queries,
              scores + row * extents.keys);
    }
  });
}

void add_attention_mask_row(const KernelCall& call, const AttentionExtents& extents, int64_t b,
                            int64_t h, int64_t s, float* row) {
  if (call.num_inputs() < 4) return;
  add_row(call.input(3), mask_strides(call.input(3)), extents.keys, b, h, s, row);
}

}  // namespace hxcpu
