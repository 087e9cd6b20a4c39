// Shape, Size and Range: outputs made from shapes and attributes, reading no input element.
#include <hxcommon/slice_bounds.hpp>
#include <hxplugin/kernel_create.hpp>

#include "kernels/element_convert.hpp"
#include "kernels/element_types.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxcpu {
namespace {

struct ShapeInstance {
  int64_t start = 0;
  bool end_given = false;
  int64_t end = 0;
};

struct RangeInstance {
  double start = 0;
  double delta = 0;
};

template <class T>
void count_from(double start, double delta, T* out, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    out[i] = convert_element<T>(start + static_cast<double>(i) * delta);
  }
}

}  // namespace

hx_status* shape_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  ShapeInstance instance;
  if (hx_status* status = create.attr_int("start", &instance.start)) return status;
  if (hx_status* status = create.attr_int("end", &instance.end, &instance.end_given)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new ShapeInstance(instance));
  return nullptr;
}

void shape_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<ShapeInstance>(instance, user_data);
}

hx_status* shape_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const ShapeInstance& instance = hxplugin::instance_of<ShapeInstance>(call.instance());
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  const hxcommon::SliceAxis axes = hxcommon::slice_axis(
      in.rank, instance.start, instance.end_given ? instance.end : in.rank, 1);
  if (out.dtype != HX_DTYPE_I64 || element_count(out) != axes.count) {
    return call.error(HX_INVALID_ARGUMENT, "Shape: the output is not int64 [%lld]",
                      static_cast<long long>(axes.count));
  }
  int64_t* extents = output_data<int64_t>(out);
  for (int64_t i = 0; i < axes.count; ++i) extents[i] = in.shape[axes.start + i];
  return nullptr;
}

hx_status* size_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const hx_tensor_view& out = call.output(0);
  if (out.dtype != HX_DTYPE_I64 || out.rank != 0) {
    return call.error(HX_INVALID_ARGUMENT, "Size: the output is not an int64 scalar");
  }
  *output_data<int64_t>(out) = element_count(call.input(0));
  return nullptr;
}

hx_status* range_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const hxplugin::KernelCreate create(*args,
                                      *static_cast<const CpuPlugin*>(args->user_data)->services);
  RangeInstance instance;
  if (hx_status* status = create.required_attr_float("Range", "start", &instance.start)) {
    return status;
  }
  if (hx_status* status = create.required_attr_float("Range", "delta", &instance.delta)) {
    return status;
  }
  *out_instance = hxplugin::to_instance(new RangeInstance(instance));
  return nullptr;
}

void range_destroy(hx_kernel_instance* instance, void* user_data) {
  hxplugin::destroy_instance<RangeInstance>(instance, user_data);
}

hx_status* range_kernel(const hx_kernel_args* args) {
  const KernelCall call(args);
  const RangeInstance& instance = hxplugin::instance_of<RangeInstance>(call.instance());
  const hx_tensor_view& out = call.output(0);
  const int64_t count = element_count(out);
  const auto fill = [&](auto tag) -> hx_status* {
    using T = typename decltype(tag)::type;
    count_from(instance.start, instance.delta, output_data<T>(out), count);
    return nullptr;
  };
  switch (out.dtype) {
    case HX_DTYPE_F16: return fill(TypeTag<Half>{});
    case HX_DTYPE_BF16: return fill(TypeTag<BFloat16>{});
    default:
      return visit_arithmetic(out.dtype, fill, [&] {
        return call.error(HX_INVALID_ARGUMENT, "Range: the CPU kernel has no %s variant",
                          hx_dtype_name(out.dtype));
      });
  }
}

}  // namespace hxcpu
