// The unary element-wise ops of float32 on dense tensors, one kernel of program.cl each
// (HXCL_UNARY_KERNEL), named by the registration's user_data: LeakyRelu's and HardSigmoid's
// attributes are read once, at create, and Gelu's approximation picks its kernel there.
#include <hxplugin/status.hpp>

#include <cstring>
#include <memory>

#include "kernels/kernel_instance.hpp"
#include "kernels/kernels.hpp"
#include "plugin_state.hpp"

namespace hxopencl {

namespace {

struct UnaryInstance : KernelInstance {
  using KernelInstance::KernelInstance;
  cl_float alpha = 0.0f;
  cl_float beta = 0.0f;
};

// The op's attributes, with ONNX's defaults where it has some; `kernel` may change with them.
hx_status* read_attributes(const hxplugin::KernelCreate& create, UnaryInstance& instance,
                           const char*& kernel) {
  double alpha = 0.0;
  double beta = 0.0;
  if (std::strcmp(kernel, "leaky_relu_f32") == 0) {
    alpha = 0.01;
    if (hx_status* status = create.attr_float("alpha", &alpha)) return status;
  } else if (std::strcmp(kernel, "hard_sigmoid_f32") == 0) {
    alpha = 0.2;
    beta = 0.5;
    if (hx_status* status = create.attr_float("alpha", &alpha)) return status;
    if (hx_status* status = create.attr_float("beta", &beta)) return status;
  } else if (std::strcmp(kernel, "gelu_f32") == 0) {
    const char* approximate = "none";
    if (hx_status* status = create.attr_string("approximate", &approximate)) return status;
    if (std::strcmp(approximate, "tanh") == 0) kernel = "gelu_tanh_f32";
  }
  instance.alpha = static_cast<cl_float>(alpha);
  instance.beta = static_cast<cl_float>(beta);
  return nullptr;
}

}  // namespace

hx_status* unary_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  const OpenClDevice& device = from_handle(args->device);
  return hxplugin::guarded(device.services(), kPluginName, [&]() -> hx_status* {
    auto instance = std::make_unique<UnaryInstance>(device);
    const char* kernel = static_cast<const char*>(args->user_data);
    if (hx_status* status = read_attributes(create_call(*args), *instance, kernel)) {
      return status;
    }
    return finish_instance(std::move(instance), kernel, out_instance);
  });
}

hx_status* unary_compute(const hx_kernel_args* args) {
  const UnaryInstance& instance = instance_of<UnaryInstance>(*args);
  const size_t count = element_count(args->outputs[0]);
  if (count == 0) return nullptr;
  return Launch(instance, args->stream)
      .run(1, &count, nullptr, operand(args->inputs[0]), operand(args->outputs[0]),
           instance.alpha, instance.beta);
}

}  // namespace hxopencl
