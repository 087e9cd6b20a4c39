#include "kernels/strided_layout.hpp"

#include "kernels/dtypes.hpp"

namespace hxcuda::kernels {

StridedLayout layout_of_shape(const hx_tensor_view& view) {
  StridedLayout layout;
  layout.rank = view.rank;
  for (int32_t axis = 0; axis < view.rank; ++axis) layout.shape[axis] = view.shape[axis];
  return layout;
}

StridedLayout merge_axes(const StridedLayout& layout) {
  StridedLayout merged;
  merged.start = layout.start;
  for (int axis = 0; axis < layout.rank; ++axis) {
    const int64_t extent = layout.shape[axis];
    const int64_t stride = layout.stride[axis];
    if (extent == 1) continue;
    const int outer = merged.rank - 1;
    if (merged.rank > 0 && merged.stride[outer] == stride * extent) {
      merged.shape[outer] *= extent;
      merged.stride[outer] = stride;
      continue;
    }
    merged.shape[merged.rank] = extent;
    merged.stride[merged.rank] = stride;
    ++merged.rank;
  }
  return merged;
}

hx_status* gather_view(const GpuKernelCall& call, const StridedLayout& layout) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: input is %s but output is %s", call.op(),
                      hx_dtype_name(in.dtype), hx_dtype_name(out.dtype));
  }
  return call.cuda_status(
      launch_gather_strided(hx_dtype_size(out.dtype), merge_axes(layout),
                            hxplugin::element_address(in), hxplugin::element_address(out),
                            element_count(out), call.stream()),
      call.op());
}

}  // namespace hxcuda::kernels
