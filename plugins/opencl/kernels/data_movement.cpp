// The ops that move elements without computing, for every dtype, by the elements' size:
// Identity and the reshapes (Reshape, Flatten, Squeeze, Unsqueeze) as a copy of the bytes;
// Transpose, Slice and Expand as a gather at strides (program.cl's gather_<type>); Concat as
// each input scattered at strides into its part of the output; Gather along an axis.
#include <hxplugin/status.hpp>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <vector>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "kernels/layouts.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

// program.cl's gather (or scatter) kernel for elements of `size` bytes; NULL for a size it
// has no kernel for.
const char* strided_kernel(bool scatter, size_t size) {
  static const char* const kGather[] = {"gather_uchar", "gather_ushort", "gather_uint",
                                        "gather_ulong"};
  static const char* const kScatter[] = {"scatter_uchar", "scatter_ushort", "scatter_uint",
                                         "scatter_ulong"};
  const int slot = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
  if (slot < 0) return nullptr;
  return scatter ? kScatter[slot] : kGather[slot];
}

struct MovementInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  std::vector<int64_t> list[4];  // Transpose: perm; Slice: starts, ends, axes, steps
  bool given[4] = {};
  int64_t axis = 0;              // Concat's, Gather's
};

// Dense strides of `view`'s shape, in elements.
void dense_strides(const hx_tensor_view& view, int64_t* strides) {
  int64_t stride = 1;
  for (int32_t axis = view.rank - 1; axis >= 0; --axis) {
    strides[axis] = stride;
    stride *= view.shape[axis];
  }
}

StridedLayout shaped_like(const hx_tensor_view& view) {
  StridedLayout layout{};
  layout.rank = view.rank;
  for (int32_t axis = 0; axis < view.rank; ++axis) layout.shape[axis] = view.shape[axis];
  return layout;
}

hx_status* launch_strided(const MovementInstance& instance, hx_stream* stream,
                          const hx_tensor_view& in, const hx_tensor_view& out,
                          const StridedLayout& layout, size_t count) {
  if (count == 0) return nullptr;
  return Launch(instance, stream).run(1, &count, nullptr, operand(in), operand(out), layout);
}

hx_status* create_movement(const hx_kernel_create_args* args, bool scatter,
                           hx_kernel_instance** out_instance,
                           hx_status* (*read)(const hxplugin::KernelCreate&, MovementInstance&)) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<MovementInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    if (hx_status* status = read(create, *instance)) return status;
    const char* kernel = strided_kernel(scatter, hx_dtype_size(args->input_dtypes[0]));
    if (kernel == nullptr) {
      return create.error(HX_UNIMPLEMENTED, "OpenCL moves elements of 1, 2, 4 or 8 bytes");
    }
    return finish_instance(std::move(instance), kernel, out_instance);
  });
}

hx_status* read_lists(const hxplugin::KernelCreate& create, MovementInstance& instance,
                      std::initializer_list<const char*> names) {
  size_t i = 0;
  for (const char* name : names) {
    const int64_t* values = nullptr;
    size_t count = 0;
    if (hx_status* status = create.attr_ints(name, &values, &count, &instance.given[i])) {
      return status;
    }
    if (instance.given[i]) instance.list[i].assign(values, values + count);
    ++i;
  }
  return nullptr;
}

}  // namespace

hx_status* copy_compute(const hx_kernel_args* args) {
  const hx_tensor_view& out = args->outputs[0];
  return copy_tensor(from_handle(args->device), args->stream, args->inputs[0], out,
                     element_count(out) * hx_dtype_size(out.dtype));
}

hx_status* transpose_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_movement(args, false, out, [](const hxplugin::KernelCreate& create,
                                               MovementInstance& instance) {
    return read_lists(create, instance, {"perm"});
  });
}

hx_status* transpose_compute(const hx_kernel_args* args) {
  const MovementInstance& instance = instance_of<MovementInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const hx_tensor_view& out = args->outputs[0];
  int64_t in_strides[HX_MAX_RANK] = {};
  dense_strides(in, in_strides);
  StridedLayout layout = shaped_like(out);
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    // No perm: the axes reversed. The core's shape inference checked a given one.
    const int64_t from = instance.given[0] ? instance.list[0][static_cast<size_t>(axis)]
                                           : out.rank - 1 - axis;
    layout.stride[axis] = in_strides[from];
  }
  return launch_strided(instance, args->stream, in, out, layout, element_count(out));
}

hx_status* slice_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_movement(args, false, out, [](const hxplugin::KernelCreate& create,
                                               MovementInstance& instance) {
    return read_lists(create, instance, {"starts", "ends", "axes", "steps"});
  });
}

hx_status* slice_compute(const hx_kernel_args* args) {
  const MovementInstance& instance = instance_of<MovementInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const hx_tensor_view& out = args->outputs[0];
  int64_t in_strides[HX_MAX_RANK] = {};
  dense_strides(in, in_strides);
  StridedLayout layout = shaped_like(out);
  for (int32_t axis = 0; axis < out.rank; ++axis) layout.stride[axis] = in_strides[axis];
  // Where each sliced axis starts, as ONNX clamps it; the output's extents (the core's) say
  // how far it goes.
  const std::vector<int64_t>& starts = instance.list[0];
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t axis = instance.given[2] ? instance.list[2][i] : static_cast<int64_t>(i);
    if (axis < 0) axis += in.rank;
    if (axis < 0 || axis >= in.rank) {
      return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                   "Slice: axis %lld is out of range for rank %d",
                                   static_cast<long long>(axis), static_cast<int>(in.rank));
    }
    const int64_t step = instance.given[3] ? instance.list[3][i] : 1;
    const int64_t extent = in.shape[axis];
    int64_t start = starts[i] < 0 ? starts[i] + extent : starts[i];
    start = step > 0 ? std::min(std::max<int64_t>(start, 0), extent)
                     : std::min(std::max<int64_t>(start, 0), extent - 1);
    layout.start += start * in_strides[axis];
    layout.stride[axis] = in_strides[axis] * step;
  }
  return launch_strided(instance, args->stream, in, out, layout, element_count(out));
}

hx_status* expand_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_movement(args, false, out,
                         [](const hxplugin::KernelCreate&, MovementInstance&) -> hx_status* {
                           return nullptr;
                         });
}

// The input arrives broadcast to the output's shape, stride 0 where it repeats.
hx_status* expand_compute(const hx_kernel_args* args) {
  const MovementInstance& instance = instance_of<MovementInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const hx_tensor_view& out = args->outputs[0];
  if (in.rank != out.rank) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "Expand: the input of rank %d does not arrive broadcast to the "
                                 "output's rank %d",
                                 static_cast<int>(in.rank), static_cast<int>(out.rank));
  }
  StridedLayout layout = shaped_like(out);
  for (int32_t axis = 0; axis < out.rank; ++axis) layout.stride[axis] = in.strides[axis];
  return launch_strided(instance, args->stream, in, out, layout, element_count(out));
}

hx_status* concat_create(const hx_kernel_create_args* args, hx_kernel_instance** out) {
  return create_movement(args, true, out, [](const hxplugin::KernelCreate& create,
                                              MovementInstance& instance) {
    return create.attr_int("axis", &instance.axis);
  });
}

// Each input into its part of the output, one after another along the axis.
hx_status* concat_compute(const hx_kernel_args* args) {
  const MovementInstance& instance = instance_of<MovementInstance>(*args);
  const hx_tensor_view& out = args->outputs[0];
  const int64_t axis = instance.axis < 0 ? instance.axis + out.rank : instance.axis;
  if (axis < 0 || axis >= out.rank) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "Concat: axis %lld is out of range for rank %d",
                                 static_cast<long long>(instance.axis),
                                 static_cast<int>(out.rank));
  }
  int64_t out_strides[HX_MAX_RANK] = {};
  dense_strides(out, out_strides);
  int64_t at = 0;
  for (size_t i = 0; i < args->num_inputs; ++i) {
    const hx_tensor_view& in = args->inputs[i];
    StridedLayout layout = shaped_like(in);
    for (int32_t d = 0; d < in.rank; ++d) layout.stride[d] = out_strides[d];
    layout.start = at * out_strides[axis];
    if (hx_status* status =
            launch_strided(instance, args->stream, in, out, layout, element_count(in))) {
      return status;
    }
    at += in.shape[axis];
  }
  return nullptr;
}

hx_status* gather_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<MovementInstance>(device);
    const hxplugin::KernelCreate create = create_call(*args);
    if (hx_status* status = create.attr_int("axis", &instance->axis)) return status;
    const size_t size = hx_dtype_size(args->input_dtypes[0]);
    const bool wide_indices = args->input_dtypes[1] == HX_DTYPE_I64;
    const char* kernel =
        size == 4   ? (wide_indices ? "gather_axis_uint_i64" : "gather_axis_uint_i32")
        : size == 8 ? (wide_indices ? "gather_axis_ulong_i64" : "gather_axis_ulong_i32")
                    : nullptr;
    if (kernel == nullptr) {
      return create.error(HX_UNIMPLEMENTED, "Gather on OpenCL takes elements of 4 or 8 bytes");
    }
    return finish_instance(std::move(instance), kernel, out_instance);
  });
}

hx_status* gather_compute(const hx_kernel_args* args) {
  const MovementInstance& instance = instance_of<MovementInstance>(*args);
  const hx_tensor_view& data = args->inputs[0];
  const hx_tensor_view& indices = args->inputs[1];
  const int64_t axis = instance.axis < 0 ? instance.axis + data.rank : instance.axis;
  if (axis < 0 || axis >= data.rank) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "Gather: axis %lld is out of range for rank %d",
                                 static_cast<long long>(instance.axis),
                                 static_cast<int>(data.rank));
  }
  const size_t count = element_count(args->outputs[0]);
  if (count == 0) return nullptr;
  cl_long inner = 1;
  for (int32_t d = static_cast<int32_t>(axis) + 1; d < data.rank; ++d) inner *= data.shape[d];
  const cl_long index_count = static_cast<cl_long>(element_count(indices));
  const cl_long extent = data.shape[axis];
  return Launch(instance, args->stream)
      .run(1, &count, nullptr, operand(data), operand(indices), operand(args->outputs[0]),
           index_count, extent, inner);
}

}  // namespace hxopencl
