// Identity: a copy of the input, any dtype.
#include <cstring>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* identity_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements("Identity", count, out.dtype)) return status;
  const size_t bytes = static_cast<size_t>(count) * hx_dtype_size(out.dtype);
  if (bytes != 0) std::memcpy(output_data<char>(out), input_data<char>(call.input(0)), bytes);
  return nullptr;
}

}  // namespace hxcpu
