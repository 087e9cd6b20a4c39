#include "kernels/gpu_kernel_call.hpp"

#include "kernels/dtypes.hpp"

namespace hxcuda::kernels {

hx_status* GpuKernelCall::expect_elements(const char* op, int64_t count, int32_t dtype) const {
  const auto check = [&](const hx_tensor_view& view, const char* role, size_t index) -> hx_status* {
    if (view.dtype == dtype && element_count(view) == count) return nullptr;
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu is %s with %lld elements, expected %s with %lld",
                 op, role, index, hx_dtype_name(view.dtype),
                 static_cast<long long>(element_count(view)), hx_dtype_name(dtype),
                 static_cast<long long>(count));
  };
  for (size_t i = 0; i < num_inputs(); ++i) {
    if (hx_status* status = check(input(i), "input", i)) return status;
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (hx_status* status = check(output(i), "output", i)) return status;
  }
  return nullptr;
}

}  // namespace hxcuda::kernels
