// The binary element-wise ops of float32 (Add, Sub, Mul, Div, Pow, Min and Max of two inputs,
// and the comparisons, whose outputs are bool), with the inputs broadcast as the core hands
// them over (at the output's rank, stride 0 where they repeat).
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"
#include "kernels/layouts.hpp"

namespace hxopencl {

namespace {

// The output's dimensions with extent-1 axes dropped and neighbours merged wherever both
// inputs walk them as one (dense operands merge into one dimension of stride 1), so a kernel
// work-item divides once per remaining dimension.
BinaryLayout merge_dimensions(const hx_tensor_view& a, const hx_tensor_view& b,
                              const hx_tensor_view& out) {
  BinaryLayout layout{};
  int rank = 0;
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    const int64_t extent = out.shape[axis];
    if (extent == 1) continue;
    const int64_t a_stride = a.strides[axis];
    const int64_t b_stride = b.strides[axis];
    if (rank > 0 && layout.a_stride[rank - 1] == a_stride * extent &&
        layout.b_stride[rank - 1] == b_stride * extent) {
      layout.shape[rank - 1] *= extent;
      layout.a_stride[rank - 1] = a_stride;
      layout.b_stride[rank - 1] = b_stride;
      continue;
    }
    layout.shape[rank] = extent;
    layout.a_stride[rank] = a_stride;
    layout.b_stride[rank] = b_stride;
    ++rank;
  }
  layout.rank = rank;
  return layout;
}

}  // namespace

hx_status* binary_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&] {
    return finish_instance(std::make_unique<KernelInstance>(device),
                           static_cast<const char*>(args->user_data), out_instance);
  });
}

hx_status* binary_compute(const hx_kernel_args* args) {
  const hx_tensor_view& a = args->inputs[0];
  const hx_tensor_view& b = args->inputs[1];
  const hx_tensor_view& out = args->outputs[0];
  const KernelInstance& instance = instance_of<KernelInstance>(*args);
  if (a.rank != out.rank || b.rank != out.rank) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "%s: inputs of rank %d and %d for an output of rank %d (the "
                                 "core passes both broadcast to the output's rank)",
                                 instance.kernel_name, static_cast<int>(a.rank),
                                 static_cast<int>(b.rank), static_cast<int>(out.rank));
  }
  const size_t count = element_count(out);
  if (count == 0) return nullptr;
  const BinaryLayout layout = merge_dimensions(a, b, out);
  return Launch(instance, args->stream)
      .run(1, &count, nullptr, operand(a), operand(b), operand(out), layout);
}

hx_status* two_inputs_check(const hx_kernel_args* args) {
  if (args->num_inputs == 2) return nullptr;
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::make_status(device.services(), HX_UNIMPLEMENTED,
                               "OpenCL's kernel takes two inputs; this call has %zu",
                               args->num_inputs);
}

hx_status* same_dtypes_check(const hx_kernel_args* args) {
  if (args->inputs[1].dtype == args->inputs[0].dtype) return nullptr;
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::make_status(device.services(), HX_UNIMPLEMENTED,
                               "OpenCL's kernel takes an exponent of the base's dtype %s; this "
                               "call's is %s",
                               hx_dtype_name(args->inputs[0].dtype),
                               hx_dtype_name(args->inputs[1].dtype));
}

}  // namespace hxopencl
