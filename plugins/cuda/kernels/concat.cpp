// Concat: each input, dense, scattered into its part of the output (the output's strides, from
// the element where the input's part starts along the axis), one launch per input. Any dtype;
// strided.cu copies.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/strided_layout.hpp"

namespace hxcuda::kernels {

hx_status* concat_create(const hxplugin::KernelCreate& create, AxisState* out) {
  return create.attr_int("axis", &out->axis);
}

hx_status* concat_kernel(const GpuKernelCall& call, const AxisState& state) {
  const hx_tensor_view& out = call.output(0);
  const int64_t axis = state.axis < 0 ? state.axis + out.rank : state.axis;
  if (axis < 0 || axis >= out.rank) {
    return call.error(HX_INVALID_ARGUMENT, "Concat: axis %lld is out of range for rank %d",
                      static_cast<long long>(state.axis), static_cast<int>(out.rank));
  }
  int64_t at = 0;  // where the next input's part starts along the axis
  for (size_t i = 0; i < call.num_inputs(); ++i) {
    const hx_tensor_view& in = call.input(i);
    if (in.dtype != out.dtype || in.rank != out.rank) {
      return call.error(HX_INVALID_ARGUMENT,
                        "Concat: input %zu is %s of rank %d, the output %s of rank %d", i,
                        hx_dtype_name(in.dtype), static_cast<int>(in.rank),
                        hx_dtype_name(out.dtype), static_cast<int>(out.rank));
    }
    StridedLayout layout = layout_of_shape(in);
    for (int32_t d = 0; d < out.rank; ++d) layout.stride[d] = out.strides[d];
    layout.start = at * out.strides[axis];
    if (hx_status* status = call.cuda_status(
            launch_scatter_strided(hx_dtype_size(out.dtype), merge_axes(layout),
                                   hxplugin::element_address(in), hxplugin::element_address(out),
                                   element_count(in), call.stream()),
            "Concat")) {
      return status;
    }
    at += in.shape[axis];
  }
  return nullptr;
}

}  // namespace hxcuda::kernels
