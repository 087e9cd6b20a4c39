// Identity, and Dropout at inference: a copy of the input (and Dropout's mask, all true).
#include <cstring>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

namespace {

// Input 0 copied to output 0, which expect_elements checked to be of its dtype and count.
void copy_input(const KernelCall& call, int64_t count) {
  const hx_tensor_view& out = call.output(0);
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(out.dtype);
  if (bytes != 0) std::memcpy(output_data<char>(out), input_data<char>(call.input(0)), bytes);
}

}  // namespace

hx_status* identity_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Identity", count, out.dtype)) return status;
  copy_input(call, count);
  return nullptr;
}

hx_status* dropout_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& x = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const hx_tensor_view& mask = call.output(1);
  const int64_t count = element_count(out);
  if (count < 0 || x.dtype != out.dtype || element_count(x) != count ||
      mask.dtype != HX_DTYPE_BOOL || element_count(mask) != count) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Dropout: expected data and output of one dtype and element count, and a "
                      "bool mask of that count");
  }
  copy_input(call, count);
  if (count != 0) std::memset(output_data<char>(mask), 1, static_cast<size_t>(count));
  return nullptr;
}

}  // namespace hxcpu
