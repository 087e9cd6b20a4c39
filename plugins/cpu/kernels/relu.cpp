// Relu: max(x, 0), with NaN passed through.
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* relu_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Relu", count, out.dtype)) return status;
  return visit_arithmetic(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T* __restrict__ x = input_data<T>(call.input(0));
        T* __restrict__ y = output_data<T>(out);
        // `x < 0` is false for NaN, so NaN stays NaN.
        for (int64_t i = 0; i < count; ++i) y[i] = x[i] < T(0) ? T(0) : x[i];
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Relu: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
}

}  // namespace hxcpu
