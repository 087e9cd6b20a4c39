// Identity and Broadcast: a copy of the input within the device (Broadcast's readers on other
// devices copy on from this one), each under its own op's name for op_models and fault_ops.
#include <cstring>

#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxsim {
namespace {

hx_status* copy_kernel(const hx_kernel_args* args, const char* op) {
  KernelCall call(args);
  if (hx_status* status = call.check_operands(op)) return status;
  const int64_t count = element_count(call.output(0));
  if (hx_status* status = call.expect_elements(op, count)) return status;
  float* out = call.out(0);
  const float* in = call.in(0);
  return call.launch(call.modelled_time(), [out, in, count] {
    if (count != 0) std::memcpy(out, in, static_cast<size_t>(count) * sizeof(float));
  });
}

}  // namespace

hx_status* identity_kernel(const hx_kernel_args* args) { return copy_kernel(args, "Identity"); }

hx_status* broadcast_kernel(const hx_kernel_args* args) { return copy_kernel(args, "Broadcast"); }

}  // namespace hxsim
