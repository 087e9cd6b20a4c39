// Cast between the float types f32, f64, f16 and bf16 (cast.cu).
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* cast_kernel(const GpuKernelCall& call) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (element_count(in) != count) {
    return call.error(HX_INVALID_ARGUMENT, "Cast: input has %lld elements, output %lld",
                      static_cast<long long>(element_count(in)), static_cast<long long>(count));
  }
  if (!is_float_dtype(in.dtype) || !is_float_dtype(out.dtype)) {
    return call.error(HX_UNIMPLEMENTED, "Cast: the GPU kernel has no %s to %s variant",
                      dtype_name(in.dtype), dtype_name(out.dtype));
  }
  return call.cuda_status(launch_cast(in.dtype, out.dtype, in.data, out.data, count, call.stream()),
                          "Cast");
}

}  // namespace hxcuda::kernels
