// Fill of float32: the value (read once, at create) as a 4-byte clEnqueueFillBuffer pattern.
#include <hxplugin/status.hpp>

#include <memory>

#include "errors.hpp"
#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"
#include "queue.hpp"

namespace hxopencl {

namespace {

struct FillInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  float value = 0.0f;
};

}  // namespace

hx_status* fill_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<FillInstance>(device);
    double value = 0.0;
    if (hx_status* status = create_call(*args).required_attr_float("Fill", "value", &value)) return status;
    instance->value = static_cast<float>(value);
    return finish_instance(std::move(instance), nullptr, out_instance);
  });
}

hx_status* fill_compute(const hx_kernel_args* args) {
  const FillInstance& instance = instance_of<FillInstance>(*args);
  const hx_tensor_view& out = args->outputs[0];
  const size_t bytes = element_count(out) * sizeof(float);
  if (bytes == 0) return nullptr;
  Completion completion(args->stream);
  const cl_int error = clEnqueueFillBuffer(queue_for(instance.device, args->stream),
                                           from_handle(out.buffer), &instance.value,
                                           sizeof instance.value, out.byte_offset, bytes, 0,
                                           nullptr, completion.event());
  if (hx_status* status = cl_status(instance.device.services(), error, "clEnqueueFillBuffer")) {
    return status;
  }
  return complete_if_synchronous(instance.device, args->stream, "clEnqueueFillBuffer");
}

}  // namespace hxopencl
