// Identity: a copy of the input within the device.
#include <cstring>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* identity_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("Identity")) return status;
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements("Identity", count)) return status;
  float* out = call.out(0);
  const float* in = call.in(0);
  return call.launch(call.modelled_time(), [out, in, count] {
    if (count != 0) std::memcpy(out, in, static_cast<size_t>(count) * sizeof(float));
  });
}

}  // namespace hxsim
