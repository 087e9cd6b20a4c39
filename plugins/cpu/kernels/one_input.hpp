// The shape of every kernel of one input and one output of its dtype, element by element (the
// unary ops, the activations): the element count checked, then `compute(tag, count)` for the
// output's element type (TypeTag<T>), the floating dtypes always and the integer ones when
// kIntegers.
#pragma once

#include <type_traits>

#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"

namespace hxcpu {

template <bool kIntegers, class Compute>
hx_status* one_input_kernel(const KernelCall& call, const char* op, Compute compute) {
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (hx_status* status = call.expect_elements(op, count, out.dtype)) return status;
  const auto no_variant = [&] {
    return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                      hx_dtype_name(out.dtype));
  };
  return visit_numeric(
      out.dtype,
      [&](auto tag) -> hx_status* {
        if constexpr (!kIntegers && std::is_integral_v<typename decltype(tag)::type>) {
          return no_variant();
        } else {
          compute(tag, count);
          return nullptr;
        }
      },
      no_variant);
}

}  // namespace hxcpu
