// Identity, and Dropout at inference: a copy of the input.
#include <cstring>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

namespace {

hx_status* copy_kernel(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(op, count, out.dtype)) return status;
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(out.dtype);
  if (bytes != 0) std::memcpy(output_data<char>(out), input_data<char>(call.input(0)), bytes);
  return nullptr;
}

}  // namespace

hx_status* identity_kernel(const hx_kernel_args* args) { return copy_kernel(args, "Identity"); }
hx_status* dropout_kernel(const hx_kernel_args* args) { return copy_kernel(args, "Dropout"); }

}  // namespace hxcpu
