// AddN of float32: the output starts as a copy of input 0 and every further input is added
// into it in order, so the sum rounds as ((x0 + x1) + x2) + ...
#include <hxplugin/status.hpp>

#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

hx_status* addn_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&] {
    return finish_instance(std::make_unique<KernelInstance>(device), "accumulate_f32",
                           out_instance);
  });
}

hx_status* addn_compute(const hx_kernel_args* args) {
  const KernelInstance& instance = instance_of<KernelInstance>(*args);
  const hx_tensor_view& out = args->outputs[0];
  const size_t count = element_count(out);
  if (count == 0) return nullptr;
  if (hx_status* status = copy_tensor(instance.device, args->stream, args->inputs[0], out,
                                      count * sizeof(float))) {
    return status;
  }
  const Launch launch(instance, args->stream);
  for (size_t input = 1; input < args->num_inputs; ++input) {
    if (hx_status* status =
            launch.run(1, &count, nullptr, operand(args->inputs[input]), operand(out))) {
      return status;
    }
  }
  return nullptr;
}

}  // namespace hxopencl
