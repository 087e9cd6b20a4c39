// Gather along one axis (attribute `axis`, read at create): data of 2-, 4- or 8-byte elements
// seen as [outer, extent, inner] around the axis, indices of int32 or int64. gather.cu picks,
// and gives 0 for an index out of range.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* gather_create(const hxplugin::KernelCreate& create, AxisState* out) {
  const int32_t data = create.input_dtype(0);
  const int32_t indices = create.input_dtype(1);
  const size_t size = hx_dtype_size(data);
  if ((size != 2 && size != 4 && size != 8) ||
      (indices != HX_DTYPE_I32 && indices != HX_DTYPE_I64)) {
    return create.error(HX_UNIMPLEMENTED,
                        "Gather on GPU: no kernel for %s data with %s indices (elements of 2, 4 "
                        "or 8 bytes, indices int32 or int64)",
                        hx_dtype_name(data), hx_dtype_name(indices));
  }
  return create.attr_int("axis", &out->axis);
}

hx_status* gather_kernel(const GpuKernelCall& call, const AxisState& state) {
  const hx_tensor_view& data = call.input(0);
  const hx_tensor_view& indices = call.input(1);
  const hx_tensor_view& out = call.output(0);
  const int64_t axis = state.axis < 0 ? state.axis + data.rank : state.axis;
  if (axis < 0 || axis >= data.rank || out.dtype != data.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "Gather: axis %lld of %s data of rank %d into %s",
                      static_cast<long long>(state.axis), hx_dtype_name(data.dtype),
                      static_cast<int>(data.rank), hx_dtype_name(out.dtype));
  }
  int64_t inner = 1;
  for (int32_t d = static_cast<int32_t>(axis) + 1; d < data.rank; ++d) inner *= data.shape[d];
  return call.cuda_status(
      launch_gather_axis(hx_dtype_size(data.dtype), indices.dtype, hxplugin::element_address(data),
                         hxplugin::element_address(indices), hxplugin::element_address(out),
                         element_count(out), element_count(indices), data.shape[axis], inner,
                         call.stream()),
      "Gather");
}

}  // namespace hxcuda::kernels
