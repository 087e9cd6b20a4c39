// Fill: the output (whose shape the core derived from the `shape` attribute) set to `value`.
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* fill_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  if (hx_status* status = call.check_operands("Fill")) return status;
  double value = 0;
  if (hx_status* status = call.required_attr_float("Fill", "value", &value)) return status;
  // Rounds to nearest, and a value beyond float's range becomes infinity (IEEE conversion).
  const float element = static_cast<float>(value);
  const int64_t count = element_count(call.output(0));
  float* data = output_data<float>(call.output(0));
  for (int64_t i = 0; i < count; ++i) data[i] = element;
  return nullptr;
}

}  // namespace hxsim
