// Sum over a set of axes, read once at create. The input is walked once in memory order; each
// element is added to the output element its kept coordinates select.
#include <hxplugin/kernel_create.hpp>

#include <cstring>
#include <type_traits>

#include "kernels/arithmetic.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "kernels/reduction_plan.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

// The `axes` attribute as given (absent: every axis). Negative axes count from the end, which
// needs the input's rank, so they are resolved per call, without a lookup by name.
struct SumInstance {
  bool every_axis = true;
  size_t axis_count = 0;
  int64_t axes[HX_MAX_RANK] = {};
};

// Floating sums of a reduced run accumulate in double, which keeps long f32 reductions
// accurate; integers wrap.
template <class T>
using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, WrappingType<T>>;

template <class T>
void reduce(const ReductionPlan& plan, const T* in, int64_t in_count, T* out) {
  if (plan.groups == 0) {  // one element, or only extent-1 axes
    out[0] = in[0];
    return;
  }
  const int inner = plan.groups - 1;
  const int64_t inner_extent = plan.extent[inner];
  int64_t index[HX_MAX_RANK] = {};
  int64_t out_offset = 0;
  for (int64_t base = 0; base < in_count; base += inner_extent) {
    const T* run = in + base;
    if (plan.reduced[inner]) {
      Accumulator<T> sum = 0;
      for (int64_t i = 0; i < inner_extent; ++i) sum += static_cast<Accumulator<T>>(run[i]);
      out[out_offset] = static_cast<T>(static_cast<Accumulator<T>>(out[out_offset]) + sum);
    } else {
      T* __restrict__ target = out + out_offset;
      for (int64_t i = 0; i < inner_extent; ++i) target[i] = wrapping_add(target[i], run[i]);
    }
    for (int group = inner - 1; group >= 0; --group) {  // advance the outer coordinates
      out_offset += plan.output_stride[group];
      if (++index[group] < plan.extent[group]) break;
      out_offset -= plan.output_stride[group] * plan.extent[group];
      index[group] = 0;
    }
  }
}

}  // namespace

hx_status* sum_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  const int64_t* axes = nullptr;
  size_t axis_count = 0;
  bool axes_given = false;
  if (hx_status* status = create.attr_ints("axes", &axes, &axis_count, &axes_given)) {
    return status;
  }
  // More axes than any tensor has dimensions must repeat one, whatever the rank.
  if (axes_given && axis_count > HX_MAX_RANK) {
    return create.error(HX_INVALID_ARGUMENT,
                        "Sum: %zu axes given; a tensor has at most %d, each listed once",
                        axis_count, HX_MAX_RANK);
  }
  SumInstance instance;
  instance.every_axis = !axes_given;
  instance.axis_count = axes_given ? axis_count : 0;
  for (size_t i = 0; i < instance.axis_count; ++i) instance.axes[i] = axes[i];
  *out_instance = hxplugin::to_instance(new SumInstance(instance));
  return nullptr;
}

void sum_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<SumInstance>(instance, user_data);
}

hx_status* sum_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "Sum: input is %s but output is %s",
                      hx_dtype_name(in.dtype), hx_dtype_name(out.dtype));
  }

  const SumInstance& instance = hxplugin::instance_of<SumInstance>(call.instance());
  bool reduced_axis[HX_MAX_RANK] = {};
  for (int32_t axis = 0; axis < in.rank; ++axis) reduced_axis[axis] = instance.every_axis;
  if (!mark_axes(instance.axes, instance.axis_count, in.rank, reduced_axis)) {
    return call.error(HX_INVALID_ARGUMENT,
                      "Sum: axes out of range or repeated for an input of rank %d",
                      static_cast<int>(in.rank));
  }

  int64_t expected_out_count = 1;
  for (int32_t axis = 0; axis < in.rank; ++axis) {
    if (!reduced_axis[axis]) expected_out_count *= in.shape[axis];
  }
  const int64_t out_count = element_count(out);
  if (out_count != expected_out_count) {
    return call.error(HX_INVALID_ARGUMENT, "Sum: output has %lld elements, expected %lld",
                      static_cast<long long>(out_count),
                      static_cast<long long>(expected_out_count));
  }

  return visit_arithmetic(
      in.dtype,
      [&](auto tag) -> hx_status* {
        using T = typename decltype(tag)::type;
        T* sum = output_data<T>(out);
        if (out_count != 0) std::memset(sum, 0, static_cast<size_t>(out_count) * sizeof(T));
        const int64_t in_count = element_count(in);
        if (in_count != 0) reduce(plan_reduction(in, reduced_axis), input_data<T>(in), in_count, sum);
        return nullptr;
      },
      [&] {
        return call.error(HX_INVALID_ARGUMENT, "Sum: the CPU kernel has no %s variant",
                          hx_dtype_name(in.dtype));
      });
}

}  // namespace hxcpu
