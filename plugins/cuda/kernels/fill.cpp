// Fill: the output (whose shape the core derived from the `shape` attribute) set to the
// required attribute `value`, rounded to the output dtype as Cast would round it.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* fill_kernel(const GpuKernelCall& call) {
  double value = 0;
  if (hx_status* status = call.required_attr_float("Fill", "value", &value)) return status;
  const hx_tensor_view& out = call.output(0);
  if (!is_float_dtype(out.dtype)) return call.no_variant("Fill", out.dtype);
  return call.cuda_status(
      launch_fill(out.dtype, value, out.data, element_count(out), call.stream()), "Fill");
}

}  // namespace hxcuda::kernels
