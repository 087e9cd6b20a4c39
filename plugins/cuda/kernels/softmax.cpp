// Softmax and LogSoftmax along one axis (opset 13's semantics: that axis alone, not the axes
// from it on). The axis is read once, at create, and resolved against each call's rank; the
// input is seen as [outer, extent, inner] around it (softmax.cu).
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* softmax_create(const hxplugin::KernelCreate& create, bool log, SoftmaxState* out) {
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)",
                        op_name(create.args().user_data), hx_dtype_name(dtype));
  }
  out->log = log;
  return create.attr_int("axis", &out->axis);
}

hx_status* softmax_kernel(const GpuKernelCall& call, const SoftmaxState& state) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(call.op(), count, out.dtype)) return status;
  const int64_t axis = state.axis < 0 ? state.axis + in.rank : state.axis;
  if (axis < 0 || axis >= in.rank) {
    return call.error(HX_INVALID_ARGUMENT, "%s: axis %lld is out of range for an input of rank %d",
                      call.op(), static_cast<long long>(state.axis), static_cast<int>(in.rank));
  }
  int64_t inner = 1;
  for (int32_t d = static_cast<int32_t>(axis) + 1; d < in.rank; ++d) inner *= in.shape[d];
  return call.cuda_status(launch_softmax(state.log, in.dtype, hxplugin::element_address(in),
                                         hxplugin::element_address(out), count, in.shape[axis],
                                         inner, call.stream()),
                          call.op());
}

}  // namespace hxcuda::kernels
