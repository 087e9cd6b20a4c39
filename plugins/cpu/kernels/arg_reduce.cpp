// ArgMax and ArgMin: the index of the first (or, with select_last_index, the last) largest or
// smallest element of each line along the axis, as int64. Compares in value_types.hpp's types,
// where f16 and bf16 widen exactly.
#include <hxplugin/kernel_create.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/axis_lines.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/value_types.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct ArgInstance {
  int64_t axis = 0;
  bool select_last_index = false;
};

// NaN compares false, so it is never chosen unless it comes first.
template <bool kLargest, class T>
void arg_reduce(const AxisLines& lines, bool last, const T* in, int64_t* out) {
  using V = ValueType<T>;
  for (int64_t b = 0; b < lines.outer; ++b) {
    const T* block = in + b * lines.extent * lines.inner;
    for (int64_t j = 0; j < lines.inner; ++j) {
      int64_t best = 0;
      V held = convert_element<V>(block[j]);
      for (int64_t k = 1; k < lines.extent; ++k) {
        const V value = convert_element<V>(block[k * lines.inner + j]);
        const bool better = kLargest ? value > held : value < held;
        if (better || (last && value == held)) {
          best = k;
          held = value;
        }
      }
      out[b * lines.inner + j] = best;
    }
  }
}

template <bool kLargest>
hx_status* arg_kernel(const hx_kernel_args* args, const char* op) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const auto& instance = hxplugin::instance_of<ArgInstance>(call.instance());
  AxisLines lines;
  if (!split_at_axis(in, instance.axis, &lines) || lines.extent == 0) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: axis %lld is out of range or empty for an input of rank %d", op,
                      static_cast<long long>(instance.axis), static_cast<int>(in.rank));
  }
  if (out.dtype != HX_DTYPE_I64 || element_count(out) != lines.outer * lines.inner) {
    return call.error(HX_INVALID_ARGUMENT,
                      "%s: output is %s with %lld elements, expected int64 with %lld", op,
                      hx_dtype_name(out.dtype),
                      static_cast<long long>(element_count(out)),
                      static_cast<long long>(lines.outer * lines.inner));
  }
  return visit_any(
      in.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        arg_reduce<kLargest>(lines, instance.select_last_index, input_data<T>(in),
                             output_data<int64_t>(out));
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "%s: the CPU kernel has no %s variant", op,
                          hx_dtype_name(in.dtype));
      });
}

}  // namespace

hx_status* arg_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  ArgInstance instance;
  if (hx_status* status = create.attr_int("axis", &instance.axis)) return status;
  if (hx_status* status = create.attr_bool("select_last_index", &instance.select_last_index)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new ArgInstance(instance));
  return nullptr;
}

void arg_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ArgInstance>(instance, user_data);
}

hx_status* arg_max_kernel(const hx_kernel_args* args) { return arg_kernel<true>(args, "ArgMax"); }
hx_status* arg_min_kernel(const hx_kernel_args* args) { return arg_kernel<false>(args, "ArgMin"); }

}  // namespace hxcpu
