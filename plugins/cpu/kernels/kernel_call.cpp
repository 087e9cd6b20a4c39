#include "kernels/kernel_call.hpp"

#include "kernels/element_types.hpp"

namespace hxcpu {

hx_status* KernelCall::expect_elements(const char* op, int64_t count, int32_t dtype) const {
  if (count < 0) {
    return error(HX_INVALID_ARGUMENT,
                 "%s: %lld is not an element count (a negative extent, or more elements than "
                 "fit in 64 bits)",
                 op, static_cast<long long>(count));
  }
  for (size_t i = 0; i < num_inputs(); ++i) {
    const hx_tensor_view& view = input(i);
    if (view.dtype != dtype || element_count(view) != count) {
      return error(HX_INVALID_ARGUMENT,
                   "%s: input %zu is %s with %lld elements, expected %s with %lld", op, i,
                   hx_dtype_name(view.dtype), static_cast<long long>(element_count(view)),
                   hx_dtype_name(dtype), static_cast<long long>(count));
    }
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    const hx_tensor_view& view = output(i);
    if (view.dtype != dtype || element_count(view) != count) {
      return error(HX_INVALID_ARGUMENT,
                   "%s: output %zu is %s with %lld elements, expected %s with %lld", op, i,
                   hx_dtype_name(view.dtype), static_cast<long long>(element_count(view)),
                   hx_dtype_name(dtype), static_cast<long long>(count));
    }
  }
  return nullptr;
}

}  // namespace hxcpu
