// Relu: max(x, 0), with NaN passed through; f16 and bf16 compare in float.
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* relu_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Relu", count, out.dtype)) return status;
  return visit_numeric(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* __restrict__ x = input_data<T>(call.input(0));
        T* __restrict__ y = output_data<T>(out);
        // `x < 0` is false for NaN, so NaN stays NaN.
        const auto relu = [](auto v) { return v < decltype(v)(0) ? decltype(v)(0) : v; };
        for (int64_t i = 0; i < count; ++i) y[i] = compute_in_float<T>(relu, x[i]);
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Relu: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
}

}  // namespace hxcpu
