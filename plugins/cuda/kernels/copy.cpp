// Identity and the reshapes (Reshape, Flatten, Squeeze, Unsqueeze): the input's elements in the
// same row-major order, so a device-to-device copy of its bytes, any dtype, ordered on the
// call's stream.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"

namespace hxcuda::kernels {

hx_status* copy_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(call.op(), count, out.dtype)) return status;
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(out.dtype);
  if (bytes == 0) return nullptr;
  return call.cuda_status(
      cudaMemcpyAsync(hxplugin::element_address(out), hxplugin::element_address(call.input(0)),
                      bytes, cudaMemcpyDeviceToDevice, call.stream()),
      "cudaMemcpyAsync");
}

}  // namespace hxcuda::kernels
