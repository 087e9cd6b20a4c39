// Softmax and LogSoftmax of float32 along one axis (opset 13's semantics: the axis alone, not
// the axes from it on), one work-item per position of the other axes. The axis is read once,
// at create, and resolved against each call's rank.
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

struct SoftmaxInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  int64_t axis = -1;
};

}  // namespace

hx_status* softmax_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<SoftmaxInstance>(device);
    if (hx_status* status = create_call(*args).attr_int("axis", &instance->axis)) return status;
    return finish_instance(std::move(instance), static_cast<const char*>(args->user_data),
                           out_instance);
  });
}

hx_status* softmax_compute(const hx_kernel_args* args) {
  const SoftmaxInstance& instance = instance_of<SoftmaxInstance>(*args);
  const hx_tensor_view& in = args->inputs[0];
  const int64_t rank = in.rank;
  const int64_t axis = instance.axis < 0 ? instance.axis + rank : instance.axis;
  if (rank == 0 || axis < 0 || axis >= rank) {
    return hxplugin::make_status(instance.device.services(), HX_INVALID_ARGUMENT,
                                 "%s: axis %lld is out of range for an input of rank %d",
                                 instance.kernel_name, static_cast<long long>(instance.axis),
                                 static_cast<int>(rank));
  }
  const size_t count = element_count(in);
  if (count == 0) return nullptr;
  cl_long inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d) inner *= in.shape[d];
  const cl_long extent = in.shape[axis];
  const size_t rows = count / static_cast<size_t>(extent);
  return Launch(instance, args->stream)
      .run(1, &rows, nullptr, operand(in), operand(args->outputs[0]), extent, inner);
}

}  // namespace hxopencl
