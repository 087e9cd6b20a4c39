// The ops whose output is a strided view of their input, copied out dense: Transpose (the
// input's strides permuted), Slice (strides times the steps, from each axis's start) and Expand
// (the input arrives broadcast, stride 0 where it repeats). Any dtype; strided.cu copies.
#include <algorithm>

#include "kernels/kernels.hpp"
#include "kernels/strided_layout.hpp"

namespace hxcuda::kernels {
namespace {

// A list attribute into `values` (at most HX_MAX_RANK entries: one per axis at most).
hx_status* read_axis_list(const hxplugin::KernelCreate& create, const char* name,
                          int64_t* values, size_t* count, bool* given) {
  const int64_t* list = nullptr;
  if (hx_status* status = create.attr_ints(name, &list, count, given)) return status;
  if (!*given) *count = 0;  // absent: an empty list, whatever the core left in *count
  if (*count > HX_MAX_RANK) {
    return create.error(HX_INVALID_ARGUMENT, "%s: %s has %zu entries; a tensor has at most %d axes",
                        op_name(create.args().user_data), name, *count, HX_MAX_RANK);
  }
  std::copy(list, list + *count, values);
  return nullptr;
}

}  // namespace

hx_status* transpose_create(const hxplugin::KernelCreate& create, TransposeState* out) {
  return read_axis_list(create, "perm", out->perm, &out->rank, &out->perm_given);
}

// Output axis `axis` walks input axis perm[axis]; no perm: the axes reversed. The core's shape
// inference checked a given perm against the input's rank.
hx_status* transpose_kernel(const GpuKernelCall& call, const TransposeState& state) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.rank != out.rank || (state.perm_given && state.rank != static_cast<size_t>(in.rank))) {
    return call.error(HX_INVALID_ARGUMENT, "Transpose: perm of %zu axes for ranks %d -> %d",
                      state.rank, static_cast<int>(in.rank), static_cast<int>(out.rank));
  }
  StridedLayout layout = layout_of_shape(out);
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    const int64_t from = state.perm_given ? state.perm[axis] : out.rank - 1 - axis;
    if (from < 0 || from >= in.rank) {
      return call.error(HX_INVALID_ARGUMENT, "Transpose: perm names axis %lld of rank %d",
                        static_cast<long long>(from), static_cast<int>(in.rank));
    }
    layout.stride[axis] = in.strides[from];
  }
  return gather_view(call, layout);
}

// `ends` is not read: the output's extents, which the core worked out from it, say where each
// axis ends.
hx_status* slice_create(const hxplugin::KernelCreate& create, SliceState* out) {
  size_t axes_count = 0;
  size_t steps_count = 0;
  bool given = false;
  if (hx_status* status = read_axis_list(create, "starts", out->starts, &out->count, &given)) {
    return status;
  }
  if (hx_status* status = read_axis_list(create, "axes", out->axes, &axes_count, &given)) {
    return status;
  }
  if (!given) {
    axes_count = out->count;
    for (size_t i = 0; i < out->count; ++i) out->axes[i] = static_cast<int64_t>(i);
  }
  if (hx_status* status = read_axis_list(create, "steps", out->steps, &steps_count, &given)) {
    return status;
  }
  if (!given) {
    steps_count = out->count;
    std::fill(out->steps, out->steps + out->count, int64_t{1});
  }
  if (axes_count != out->count || steps_count != out->count) {
    return create.error(HX_INVALID_ARGUMENT, "Slice: %zu starts, %zu axes and %zu steps differ",
                        out->count, axes_count, steps_count);
  }
  return nullptr;
}

// Each sliced axis starts where ONNX clamps its start (negative counts from the end; stepping
// forward clamps to [0, extent], backward to [0, extent-1]) and steps `step` elements; the
// output's extents (the core's) say how far it goes. Axes not listed are whole.
hx_status* slice_kernel(const GpuKernelCall& call, const SliceState& state) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.rank != out.rank) {
    return call.error(HX_INVALID_ARGUMENT, "Slice: input of rank %d, output of rank %d",
                      static_cast<int>(in.rank), static_cast<int>(out.rank));
  }
  StridedLayout layout = layout_of_shape(out);
  for (int32_t axis = 0; axis < in.rank; ++axis) layout.stride[axis] = in.strides[axis];
  for (size_t i = 0; i < state.count; ++i) {
    const int64_t axis = state.axes[i] < 0 ? state.axes[i] + in.rank : state.axes[i];
    if (axis < 0 || axis >= in.rank || state.steps[i] == 0) {
      return call.error(HX_INVALID_ARGUMENT, "Slice: axis %lld with step %lld for rank %d",
                        static_cast<long long>(state.axes[i]),
                        static_cast<long long>(state.steps[i]), static_cast<int>(in.rank));
    }
    const int64_t step = state.steps[i];
    const int64_t extent = in.shape[axis];
    const int64_t start = state.starts[i] < 0 ? state.starts[i] + extent : state.starts[i];
    const int64_t last = step > 0 ? extent : extent - 1;
    layout.start += std::clamp<int64_t>(start, 0, std::max<int64_t>(last, 0)) * in.strides[axis];
    layout.stride[axis] = in.strides[axis] * step;
  }
  return gather_view(call, layout);
}

// The input arrives broadcast to the output's shape, stride 0 where it repeats: its own view.
hx_status* expand_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.rank != out.rank) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Expand: the input of rank %d does not arrive broadcast to the output's "
                      "rank %d",
                      static_cast<int>(in.rank), static_cast<int>(out.rank));
  }
  StridedLayout layout = layout_of_shape(out);
  for (int32_t axis = 0; axis < out.rank; ++axis) layout.stride[axis] = in.strides[axis];
  return gather_view(call, layout);
}

}  // namespace hxcuda::kernels
