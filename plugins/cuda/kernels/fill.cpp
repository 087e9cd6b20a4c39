// Fill: the output (whose shape the core derived from the `shape` attribute) set to the
// required attribute `value`, rounded to the output dtype as Cast would round it.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* fill_create(const hxplugin::KernelCreate& create, FillState* out) {
  const int32_t dtype = create.output_dtype(0);
  if (!is_float_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED, "Fill on GPU: no %s kernel (float types only)",
                        hx_dtype_name(dtype));
  }
  return create.required_attr_float("Fill", "value", &out->value);
}

hx_status* fill_kernel(const GpuKernelCall& call, const FillState& state) {
  const hx_tensor_view& out = call.output(0);
  return call.cuda_status(launch_fill(out.dtype, state.value, hxplugin::element_address(out),
                                      element_count(out), call.stream()),
                          "Fill");
}

}  // namespace hxcuda::kernels
