// Relu: max(x, 0), with NaN passed through.
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* relu_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("Relu")) return status;
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements("Relu", count)) return status;
  const float* x = call.in(0);
  float* y = call.out(0);
  return call.launch(call.modelled_time(), [x, y, count] {
    // `x < 0` is false for NaN, so NaN stays NaN.
    for (int64_t i = 0; i < count; ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
  });
}

}  // namespace hxsim
