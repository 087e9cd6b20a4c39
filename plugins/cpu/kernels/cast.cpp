// Cast: every dtype to every dtype, element by element (see element_convert.hpp for the rules).
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* cast_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  if (element_count(in) != count) {
    return call.error(HX_INVALID_ARGUMENT, "Cast: input has %lld elements, output %lld",
                      static_cast<long long>(element_count(in)), static_cast<long long>(count));
  }
  const auto unknown_dtype = [&] {
    return call.error(HX_INVALID_ARGUMENT, "Cast: unknown dtype (%d to %d)",
                      static_cast<int>(in.dtype), static_cast<int>(out.dtype));
  };
  return visit_any(
      in.dtype,
      [&](auto from_tag) -> hx_status* {
        using From = typename decltype(from_tag)::type;
        return visit_any(
            out.dtype,
            [&](auto to_tag) -> hx_status* {
              using To = typename decltype(to_tag)::type;
              const From* __restrict__ source = input_data<From>(in);
              To* __restrict__ target = output_data<To>(out);
              for (int64_t i = 0; i < count; ++i) target[i] = convert_element<To>(source[i]);
              return nullptr;
            },
            unknown_dtype);
      },
      unknown_dtype);
}

}  // namespace hxcpu
