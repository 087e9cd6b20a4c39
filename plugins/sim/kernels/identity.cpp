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
  if (count != 0) {
    std::memcpy(call.out(0), call.in(0),
                static_cast<size_t>(count) * sizeof(float));
  }
  return nullptr;
}

}  // namespace hxsim
