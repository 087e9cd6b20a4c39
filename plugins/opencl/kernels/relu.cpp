// Relu of float32: max(x, 0), NaN passed through.
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

hx_status* relu_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&] {
    return finish_instance(std::make_unique<KernelInstance>(device), "relu_f32", out_instance);
  });
}

hx_status* relu_compute(const hx_kernel_args* args) {
  const size_t count = element_count(args->outputs[0]);
  if (count == 0) return nullptr;
  return Launch(instance_of<KernelInstance>(*args), args->stream)
      .run(1, &count, nullptr, operand(args->inputs[0]), operand(args->outputs[0]));
}

}  // namespace hxopencl
