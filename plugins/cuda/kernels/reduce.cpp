// The reductions over a set of axes: hxrt's Sum (attribute `axes`: absent reduces every axis,
// [] none) and ONNX's ReduceSum, ReduceMean, ReduceMax, ReduceMin and ReduceL2 (`axes` absent
// or [] reduces every axis, or none when `noop_with_empty_axes`). The attributes are read at
// create; `keep_dims` and `keepdims` only change the output's shape, which the core has already
// worked out. The host merges the input's axes into runs of kept and of reduced axes; reduce.cu
// does the arithmetic.
#include "kernels/dtypes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/launchers.hpp"

namespace hxcuda::kernels {
namespace {

// Extent-1 axes are dropped and neighbouring axes of one kind merged: the input is dense, so a
// run of axes steps through it like one axis of the run's total extent and its innermost
// stride. Most reductions end up with one or two runs, which keeps index arithmetic cheap.
ReducePlan plan_reduce(const hx_tensor_view& in, const bool* reduced_axis) {
  // Runs collected innermost first, then stored outermost first (the kernel's order).
  int runs = 0;
  int64_t extent[HX_MAX_RANK] = {};
  int64_t stride[HX_MAX_RANK] = {};
  bool reduced[HX_MAX_RANK] = {};
  int64_t input_stride = 1;
  for (int32_t axis = in.rank - 1; axis >= 0; --axis) {
    const int64_t axis_extent = in.shape[axis];
    if (axis_extent != 1) {
      if (runs > 0 && reduced[runs - 1] == reduced_axis[axis]) {
        extent[runs - 1] *= axis_extent;
      } else {
        extent[runs] = axis_extent;
        stride[runs] = input_stride;
        reduced[runs] = reduced_axis[axis];
        ++runs;
      }
    }
    input_stride *= axis_extent;
  }
  ReducePlan plan;
  plan.out_count = 1;
  plan.reduced_count = 1;
  for (int run = runs - 1; run >= 0; --run) {
    if (reduced[run]) {
      plan.reduced_extent[plan.reduced_groups] = extent[run];
      plan.reduced_stride[plan.reduced_groups] = stride[run];
      ++plan.reduced_groups;
      plan.reduced_count *= extent[run];
    } else {
      plan.kept_extent[plan.kept_groups] = extent[run];
      plan.kept_stride[plan.kept_groups] = stride[run];
      ++plan.kept_groups;
      plan.out_count *= extent[run];
    }
  }
  return plan;
}

// The dtype check and the `axes` list, which every reduction reads.
hx_status* read_axes(const hxplugin::KernelCreate& create, Reduction reduction, bool* given,
                     ReduceState* out) {
  const char* op = op_name(create.args().user_data);
  const int32_t dtype = create.input_dtype(0);
  if (!is_elementwise_dtype(dtype)) {
    return create.error(HX_UNIMPLEMENTED,
                        "%s on GPU: no %s kernel (float32, float16 and bfloat16 only)", op,
                        hx_dtype_name(dtype));
  }
  out->reduction = reduction;
  const int64_t* axes = nullptr;
  size_t axis_count = 0;
  if (hx_status* status = create.attr_ints("axes", &axes, &axis_count, given)) return status;
  // Axes are distinct and a tensor has at most HX_MAX_RANK of them.
  if (axis_count > HX_MAX_RANK) {
    return create.error(HX_INVALID_ARGUMENT, "%s: %zu axes given; a tensor has at most %d", op,
                        axis_count, HX_MAX_RANK);
  }
  out->axis_count = axis_count;
  for (size_t i = 0; i < axis_count; ++i) out->axes[i] = axes[i];
  return nullptr;
}

}  // namespace

hx_status* sum_create(const hxplugin::KernelCreate& create, ReduceState* out) {
  bool given = false;
  if (hx_status* status = read_axes(create, Reduction::kSum, &given, out)) return status;
  out->every_axis = !given;
  return nullptr;
}

hx_status* onnx_reduce_create(const hxplugin::KernelCreate& create, Reduction reduction,
                              ReduceState* out) {
  bool given = false;
  if (hx_status* status = read_axes(create, reduction, &given, out)) return status;
  bool noop_with_empty_axes = false;
  if (hx_status* status = create.attr_bool("noop_with_empty_axes", &noop_with_empty_axes)) {
    return status;
  }
  out->every_axis = out->axis_count == 0 && !noop_with_empty_axes;
  return nullptr;
}

hx_status* reduce_kernel(const GpuKernelCall& call, const ReduceState& state) {
  const hx_tensor_view& in = call.input(0);
  const hx_tensor_view& out = call.output(0);
  if (in.dtype != out.dtype) {
    return call.error(HX_INVALID_ARGUMENT, "%s: input is %s but output is %s", call.op(),
                      hx_dtype_name(in.dtype), hx_dtype_name(out.dtype));
  }
  bool reduced_axis[HX_MAX_RANK] = {};
  for (int32_t axis = 0; axis < in.rank; ++axis) reduced_axis[axis] = state.every_axis;
  for (size_t i = 0; i < state.axis_count; ++i) {
    const int64_t axis = state.axes[i] < 0 ? state.axes[i] + in.rank : state.axes[i];
    if (axis < 0 || axis >= in.rank || reduced_axis[axis]) {
      return call.error(HX_INVALID_ARGUMENT,
                        "%s: axis %lld is out of range or repeated for an input of rank %d",
                        call.op(), static_cast<long long>(state.axes[i]),
                        static_cast<int>(in.rank));
    }
    reduced_axis[axis] = true;
  }

  const ReducePlan plan = plan_reduce(in, reduced_axis);
  if (element_count(out) != plan.out_count) {
    return call.error(HX_INVALID_ARGUMENT, "%s: output has %lld elements, expected %lld",
                      call.op(), static_cast<long long>(element_count(out)),
                      static_cast<long long>(plan.out_count));
  }
  return call.cuda_status(launch_reduce(state.reduction, in.dtype, plan,
                                        hxplugin::element_address(in),
                                        hxplugin::element_address(out), call.stream()),
                          call.op());
}

}  // namespace hxcuda::kernels
