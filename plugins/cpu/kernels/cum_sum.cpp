// CumSum along one axis, line by line, forward or in reverse, inclusive or exclusive. Sums
// accumulate in value_types.hpp's types: float for f16 and bf16, double for f32 and f64, and
// the integer dtype itself, wrapping.
#include <hxplugin/kernel_create.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/arithmetic.hpp"
#include "kernels/axis_lines.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/value_types.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct CumSumInstance {
  int64_t axis = 0;
  bool exclusive = false;
  bool reverse = false;
};

template <class T>
void cum_sum(const AxisLines& lines, const CumSumInstance& instance, const T* in, T* out) {
  using V = ValueType<T>;
  // Walking a reversed line from its end is walking it with a negative stride.
  const int64_t step = instance.reverse ? -lines.inner : lines.inner;
  const int64_t start = instance.reverse ? (lines.extent - 1) * lines.inner : 0;
  for (int64_t b = 0; b < lines.outer; ++b) {
    for (int64_t j = 0; j < lines.inner; ++j) {
      const int64_t first = b * lines.extent * lines.inner + j + start;
      V total = V(0);
      for (int64_t k = 0; k < lines.extent; ++k) {
        const int64_t i = first + k * step;
        const V x = convert_element<V>(in[i]);
        if (!instance.exclusive) total = wrapping_add(total, x);
        out[i] = convert_element<T>(total);
        if (instance.exclusive) total = wrapping_add(total, x);
      }
    }
  }
}

}  // namespace

hx_status* cum_sum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  CumSumInstance instance;
  if (hx_status* status = create.attr_int("axis", &instance.axis)) return status;
  if (hx_status* status = create.attr_bool("exclusive", &instance.exclusive)) return status;
  if (hx_status* status = create.attr_bool("reverse", &instance.reverse)) return status;
  *out_instance = hxplugin::to_instance(new CumSumInstance(instance));
  return nullptr;
}

void cum_sum_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<CumSumInstance>(instance, user_data);
}

hx_status* cum_sum_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (hx_status* status = call.expect_elements("CumSum", element_count(out), in.dtype)) {
    return status;
  }
  const auto& instance = hxplugin::instance_of<CumSumInstance>(call.instance());
  AxisLines lines;
  if (!split_at_axis(in, instance.axis, &lines)) {
    return call.error(HX_INVALID_ARGUMENT, "CumSum: axis %lld is out of range for rank %d",
                      static_cast<long long>(instance.axis), static_cast<int>(in.rank));
  }
  return visit_any(
      in.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, BoolByte>) {
          return call.error(HX_INVALID_ARGUMENT, "CumSum is not defined on bool");
        } else {
          cum_sum(lines, instance, input_data<T>(in), output_data<T>(out));
          return nullptr;
        }
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "CumSum: the CPU kernel has no %s variant",
                          hx_dtype_name(in.dtype));
      });
}

}  // namespace hxcpu
