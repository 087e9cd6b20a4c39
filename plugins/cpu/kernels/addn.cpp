// AddN: the element-wise sum of n >= 1 tensors of one shape.
#include <cstring>

#include "kernels/arithmetic.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {
namespace {

template <class T>
void add_into(const T* __restrict__ x, T* __restrict__ sum, int64_t count) {
  for (int64_t i = 0; i < count; ++i) sum[i] = wrapping_add(sum[i], x[i]);
}

}  // namespace

hx_status* addn_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (call.num_inputs() == 0) {
    return call.error(HX_INVALID_ARGUMENT, "AddN: expected at least one input");
  }
  if (hx_status* status = call.expect_elements("AddN", count, out.dtype)) return status;
  return visit_arithmetic(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        T* sum = output_data<T>(out);
        if (count == 0) return nullptr;
        std::memcpy(sum, input_data<T>(call.input(0)), static_cast<size_t>(count) * sizeof(T));
        for (size_t input = 1; input < call.num_inputs(); ++input) {
          add_into(input_data<T>(call.input(input)), sum, count);
        }
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "AddN: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
}

}  // namespace hxcpu
