// Broadcast: a copy of the root replica's tensor, for the readers on other devices to copy on
// from this one.
#include <cstring>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {

hx_status* broadcast_kernel(const hx_kernel_args* args) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands("Broadcast")) return status;
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements("Broadcast", count)) return status;
  float* out = call.out(0);
  const float* in = call.in(0);
  return call.launch(call.modelled_time(), [out, in, count] {
    if (count != 0) std::memcpy(out, in, static_cast<size_t>(count) * sizeof(float));
  });
}

}  // namespace hxsim
