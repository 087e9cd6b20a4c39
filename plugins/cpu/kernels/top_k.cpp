// TopK: the k largest (or smallest) elements of each line along the axis, best first, with
// their int64 indices. Each line's indices are partially sorted (std::partial_sort, k log n)
// by value, the lower index first among equal values and NaN above every number, as the op's
// schema says; sorted=0 gives the same order. Compares in value_types.hpp's types, where f16
// and bf16 widen exactly.
#include <hxplugin/kernel_create.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kernels/axis_lines.hpp"
#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/value_types.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct TopKInstance {
  int64_t k = 0;
  int64_t axis = -1;
  bool largest = true;
};

// Whether a ranks before b, both of one line: NaN above every number (and equal to NaN).
template <class V>
bool above(V a, V b) {
  if constexpr (std::is_floating_point_v<V>) {
    if (std::isnan(b)) return false;
    if (std::isnan(a)) return true;
  }
  return a > b;
}

template <class T>
void top_k_lines(const AxisLines& lines, int64_t k, bool largest, const T* in, T* values,
                 int64_t* indices) {
  using V = ValueType<T>;
  std::vector<V> line(static_cast<size_t>(lines.extent));
  std::vector<int64_t> order(static_cast<size_t>(lines.extent));
  // The better of two positions of the line: the one ranked first, else the lower index.
  const auto better = [&](int64_t a, int64_t b) {
    const V x = line[static_cast<size_t>(a)];
    const V y = line[static_cast<size_t>(b)];
    if (largest ? above(x, y) : above(y, x)) return true;
    if (largest ? above(y, x) : above(x, y)) return false;
    return a < b;
  };
  for (int64_t b = 0; b < lines.outer; ++b) {
    const T* block = in + b * lines.extent * lines.inner;
    for (int64_t j = 0; j < lines.inner; ++j) {
      for (int64_t i = 0; i < lines.extent; ++i) {
        line[static_cast<size_t>(i)] = convert_element<V>(block[i * lines.inner + j]);
      }
      std::iota(order.begin(), order.end(), int64_t{0});
      std::partial_sort(order.begin(), order.begin() + k, order.end(), better);
      for (int64_t i = 0; i < k; ++i) {
        const int64_t at = (b * k + i) * lines.inner + j;
        const int64_t index = order[static_cast<size_t>(i)];
        values[at] = block[index * lines.inner + j];
        indices[at] = index;
      }
    }
  }
}

}  // namespace

hx_status* top_k_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  TopKInstance instance;
  if (hx_status* status = create.attr_int("k", &instance.k)) return status;
  if (hx_status* status = create.attr_int("axis", &instance.axis)) return status;
  int64_t largest = 1;
  if (hx_status* status = create.attr_int("largest", &largest)) return status;
  instance.largest = largest != 0;
  *out_instance = hxplugin::to_instance(new TopKInstance(instance));
  return nullptr;
}

void top_k_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<TopKInstance>(instance, user_data);
}

hx_status* top_k_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const auto& instance = hxplugin::instance_of<TopKInstance>(call.instance());
  AxisLines lines;
  const int64_t k = instance.k;
  if (!split_at_axis(in, instance.axis, &lines) || k < 0 || k > lines.extent ||
      call.num_outputs() != 2) {
    return call.error(HX_INVALID_ARGUMENT,
                      "TopK: axis %lld and k %lld do not fit an input of rank %d with 2 "
                      "outputs",
                      static_cast<long long>(instance.axis), static_cast<long long>(k),
                      static_cast<int>(in.rank));
  }
  const hx_tensor_view& values = call.output(0);
  const hx_tensor_view& indices = call.output(1);
  const int64_t count = lines.outer * k * lines.inner;
  if (values.dtype != in.dtype || indices.dtype != HX_DTYPE_I64 ||
      element_count(values) != count || element_count(indices) != count) {
    return call.error(HX_INVALID_ARGUMENT,
                      "TopK: Values must be %s and Indices int64, each of %lld elements",
                      hx_dtype_name(in.dtype), static_cast<long long>(count));
  }
  if (count == 0) return nullptr;
  return visit_numeric(
      in.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        top_k_lines(lines, k, instance.largest, input_data<T>(in), output_data<T>(values),
                    output_data<int64_t>(indices));
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "TopK: the CPU kernel has no %s variant",
                          hx_dtype_name(in.dtype));
      });
}

}  // namespace hxcpu
