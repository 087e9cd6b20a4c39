// AddN: the element-wise sum of n >= 1 tensors of one shape, added in input order.
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

#include <vector>

namespace hxsim {

hx_status* addn_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("AddN")) return status;
  if (call.num_inputs() == 0) {
    return call.error(HX_INVALID_ARGUMENT, "AddN: expected at least one input");
  }
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements("AddN", count)) return status;
  float* sum = call.out(0);
  std::vector<const float*> terms;
  for (size_t input = 0; input < call.num_inputs(); ++input) terms.push_back(call.in(input));
  return call.launch(call.modelled_time(), [sum, terms, count] {
    for (int64_t i = 0; i < count; ++i) {
      float value = terms[0][i];
      for (size_t input = 1; input < terms.size(); ++input) value += terms[input][i];
      sum[i] = value;
    }
  });
}

}  // namespace hxsim
