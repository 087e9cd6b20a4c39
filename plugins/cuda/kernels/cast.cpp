// Cast between the float types f32, f64, f16 and bf16 (cast.cu). The target type is the
// output's dtype, which the core derived from the `dtype` attribute.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {

hx_status* cast_create(const hxplugin::KernelCreate& create, CastState* out) {
  out->from = create.input_dtype(0);
  out->to = create.output_dtype(0);
  if (!is_float_dtype(out->from) || !is_float_dtype(out->to)) {
    return create.error(HX_UNIMPLEMENTED,
                        "Cast on GPU: no %s to %s kernel (it converts among float32, float64, "
                        "float16 and bfloat16)",
                        hx_dtype_name(out->from), hx_dtype_name(out->to));
  }
  return nullptr;
}

hx_status* cast_kernel(const GpuKernelCall& call, const CastState& state) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (element_count(in) != count || in.dtype != state.from || out.dtype != state.to) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Cast: %s input of %lld elements to %s output of %lld, for an instance "
                      "made for %s to %s",
                      hx_dtype_name(in.dtype), static_cast<long long>(element_count(in)),
                      hx_dtype_name(out.dtype), static_cast<long long>(count),
                      hx_dtype_name(state.from), hx_dtype_name(state.to));
  }
  return call.cuda_status(launch_cast(state.from, state.to, hxplugin::element_address(in),
                                      hxplugin::element_address(out), count, call.stream()),
                          "Cast");
}

}  // namespace hxcuda::kernels
