// Reductions of float32 over a set of axes: hxrt's Sum and ONNX's ReduceSum, ReduceMean,
// ReduceMax, ReduceMin and ReduceL2, one kernel of program.cl each (HXCL_REDUCE_KERNEL), named
// by the registration's user_data. The axes are read once, at create; they are resolved against
// the input's rank per call, since an instance serves every rank. keep_dims changes only the
// output's shape, which the core gives, so the kernel never reads it.
#include <hxplugin/status.hpp>

#include <memory>
#include <utility>
#include <vector>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "kernels/layouts.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

struct ReduceInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  bool axes_given = false;  // absent: every axis, or none under noop_with_empty_axes
  std::vector<int64_t> axes;
  bool noop_with_empty_axes = false;
};

// Which axes of a rank-`rank` input the instance reduces; false when an axis is out of range
// (the core's shape inference refuses those first).
bool reduced_axes(const ReduceInstance& instance, int32_t rank, bool* reduced) {
  const bool every_axis = !instance.axes_given && !instance.noop_with_empty_axes;
  for (int32_t axis = 0; axis < rank; ++axis) reduced[axis] = every_axis;
  for (int64_t axis : instance.axes) {
    if (axis < -rank || axis >= rank) return false;
    reduced[axis < 0 ? axis + rank : axis] = true;
  }
  return true;
}

// Extent-1 axes are dropped: they move neither index.
SumLayout sum_layout(const hx_tensor_view& in, const bool* reduced) {
  SumLayout layout{};
  layout.reduced_count = 1;
  int64_t stride = 1;
  for (int32_t axis = in.rank - 1; axis >= 0; --axis) {
    const int64_t extent = in.shape[axis];
    if (extent != 1) {
      cl_long* shapes = reduced[axis] ? layout.reduced_shape : layout.kept_shape;
      cl_long* strides = reduced[axis] ? layout.reduced_stride : layout.kept_stride;
      cl_int& rank = reduced[axis] ? layout.reduced_rank : layout.kept_rank;
      // Filled from the innermost axis outwards, then reversed below.
      shapes[rank] = extent;
      strides[rank] = stride;
      ++rank;
      if (reduced[axis]) layout.reduced_count *= extent;
    }
    stride *= extent;
  }
  for (int i = 0, j = layout.kept_rank - 1; i < j; ++i, --j) {
    std::swap(layout.kept_shape[i], layout.kept_shape[j]);
    std::swap(layout.kept_stride[i], layout.kept_stride[j]);
  }
  for (int i = 0, j = layout.reduced_rank - 1; i < j; ++i, --j) {
    std::swap(layout.reduced_shape[i], layout.reduced_shape[j]);
    std::swap(layout.reduced_stride[i], layout.reduced_stride[j]);
  }
  return layout;
}

}  // namespace

const Reduction kSum{"reduce_sum_f32", false};
const Reduction kReduceSum{"reduce_sum_f32", true};
const Reduction kReduceMean{"reduce_mean_f32", true};
const Reduction kReduceMax{"reduce_max_f32", true};
const Reduction kReduceMin{"reduce_min_f32", true};
const Reduction kReduceL2{"reduce_l2_f32", true};

hx_status* reduce_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<ReduceInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    const int64_t* axes = nullptr;
    size_t count = 0;
    if (hx_status* status = create.attr_ints("axes", &axes, &count, &instance->axes_given)) {
      return status;
    }
    const Reduction& reduction = *static_cast<const Reduction*>(args->user_data);
    // ONNX's Reduce ops read an empty list as none given: every axis, unless
    // noop_with_empty_axes; hxrt's Sum reduces none.
    if (reduction.onnx_axes && count == 0) instance->axes_given = false;
    if (instance->axes_given) instance->axes.assign(axes, axes + count);
    if (reduction.onnx_axes) {
      if (hx_status* status =
              create.attr_bool("noop_with_empty_axes", &instance->noop_with_empty_axes)) {
        return status;
      }
    }
    return finish_instance(std::move(instance), reduction.kernel, out_instance);
  });
}

hx_status* reduce_compute(const hx_kernel_args* args) {
  const ReduceInstance& instance = instance_of<ReduceInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const hx_tensor_view& out = args->outputs[0];
  bool reduced[HX_MAX_RANK] = {};
  if (!reduced_axes(instance, in.rank, reduced)) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "%s: an axis is out of range for an input of rank %d",
                                 instance.kernel_name, static_cast<int>(in.rank));
  }
  const size_t count = element_count(out);
  if (count == 0) return nullptr;
  const SumLayout layout = sum_layout(in, reduced);
  return Launch(instance, args->stream)
      .run(1, &count, nullptr, operand(in), operand(out), layout);
}

}  // namespace hxopencl
