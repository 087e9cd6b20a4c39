// Fill: the output (whose shape the core derived from the `shape` attribute) set to `value`
// converted to the output dtype, as Cast would convert it.
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"

namespace hxcpu {

hx_status* fill_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  double value = 0;
  if (hx_status* status = call.required_attr_float("Fill", "value", &value)) return status;
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  return visit_any(
      out.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        const T element = convert_element<T>(value);
        T* data = output_data<T>(out);
        for (int64_t i = 0; i < count; ++i) data[i] = element;
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Fill: unknown output dtype %d",
                          static_cast<int>(out.dtype));
      });
}

}  // namespace hxcpu
