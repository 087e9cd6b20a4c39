// How the reduction kernels (Sum and ONNX's Reduce ops) walk their input: once, in memory
// order, in runs along the innermost axes, each run reduced into the output element (or the
// run of output elements) its kept coordinates select.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxcpu {

// Marks the axes of a tensor of `rank` that `axes` name (negative ones count from the end)
// in `reduced`, which holds `rank` flags. False for an axis out of range or named twice.
inline bool mark_axes(const int64_t* axes, size_t count, int32_t rank, bool* reduced) {
  for (size_t i = 0; i < count; ++i) {
    const int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank || reduced[axis]) return false;
    reduced[axis] = true;
  }
  return true;
}

// The input's dimensions with extent-1 axes dropped and neighbours of the same kind (reduced
// or kept) merged, which leaves at most HX_MAX_RANK groups and usually one or two.
struct ReductionPlan {
  int groups = 0;
  int64_t extent[HX_MAX_RANK] = {};
  bool reduced[HX_MAX_RANK] = {};
  int64_t output_stride[HX_MAX_RANK] = {};  // 0 for reduced groups
};

inline ReductionPlan plan_reduction(const hx_tensor_view& in, const bool* reduced_axis) {
  ReductionPlan plan;
  for (int32_t axis = 0; axis < in.rank; ++axis) {
    if (in.shape[axis] == 1) continue;
    if (plan.groups > 0 && plan.reduced[plan.groups - 1] == reduced_axis[axis]) {
      plan.extent[plan.groups - 1] *= in.shape[axis];
    } else {
      plan.extent[plan.groups] = in.shape[axis];
      plan.reduced[plan.groups] = reduced_axis[axis];
      ++plan.groups;
    }
  }
  int64_t stride = 1;
  for (int group = plan.groups - 1; group >= 0; --group) {
    if (plan.reduced[group]) continue;
    plan.output_stride[group] = stride;
    stride *= plan.extent[group];
  }
  return plan;
}

// Calls visit(first, length, out_offset, reduced) for each run of `length` input elements
// from element `first`: all of them reduce into output element `out_offset` when `reduced`,
// else element i into output element out_offset + i.
template <class Visit>
void for_each_run(const ReductionPlan& plan, int64_t in_count, Visit&& visit) {
  if (plan.groups == 0) {  // one element, or only extent-1 axes
    if (in_count != 0) visit(int64_t{0}, int64_t{1}, int64_t{0}, true);
    return;
  }
  const int inner = plan.groups - 1;
  const int64_t length = plan.extent[inner];
  int64_t index[HX_MAX_RANK] = {};
  int64_t out_offset = 0;
  for (int64_t first = 0; first < in_count; first += length) {
    visit(first, length, out_offset, plan.reduced[inner]);
    for (int group = inner - 1; group >= 0; --group) {  // advance the outer coordinates
      out_offset += plan.output_stride[group];
      if (++index[group] < plan.extent[group]) break;
      out_offset -= plan.output_stride[group] * plan.extent[group];
      index[group] = 0;
    }
  }
}

}  // namespace hxcpu
