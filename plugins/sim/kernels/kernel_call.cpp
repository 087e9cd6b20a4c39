#include "kernels/kernel_call.hpp"

#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxsim {

KernelCall::KernelCall(const hx_kernel_args* args)
    : hxplugin::KernelCall(*args, *static_cast<const SimPlugin*>(args->user_data)->services),
      plugin_(*static_cast<const SimPlugin*>(args->user_data)) {}

hx_status* KernelCall::check_operands(const char* op) const {
  const SimDevice* device = plugin_.find_device(args().device);
  if (device == nullptr) {
    return error(HX_INVALID_ARGUMENT, "%s: device handle %p is not a device of the sim plugin", op,
                 static_cast<const void*>(args().device));
  }
  if (hx_status* status = check_stream(*device, args().stream)) return status;
  for (size_t i = 0; i < num_inputs(); ++i) {
    if (hx_status* status = check_view(op, *device, "input", i, input(i))) return status;
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (hx_status* status = check_view(op, *device, "output", i, output(i))) {
      return status;
    }
  }
  return nullptr;
}

hx_status* KernelCall::check_view(const char* op, const SimDevice& device, const char* role,
                                  size_t index, const hx_tensor_view& view) const {
  if (view.dtype != HX_DTYPE_F32) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu has dtype %d; the sim kernels take float32", op,
                 role, index, static_cast<int>(view.dtype));
  }
  if (view.device != args().device) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu lives on device %p, not on %s", op, role, index,
                 static_cast<const void*>(view.device), device.label.c_str());
  }
  size_t bytes = 0;
  if (!hxplugin::byte_count(view, &bytes)) {
    return error(HX_INVALID_ARGUMENT,
                 "%s: %s %zu has a negative extent, or more elements than fit in 64 bits", op,
                 role, index);
  }
  if (bytes != 0 && !device.memory.contains(view.data, bytes)) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu's data [%p, +%zu bytes) is not memory of %s", op,
                 role, index, view.data, bytes, device.label.c_str());
  }
  return nullptr;
}

hx_status* KernelCall::expect_elements(const char* op, int64_t count) const {
  for (size_t i = 0; i < num_inputs(); ++i) {
    if (element_count(input(i)) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: input %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(input(i))), static_cast<long long>(count));
    }
  }
  for (size_t i = 0; i < num_outputs(); ++i) {
    if (element_count(output(i)) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: output %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(output(i))), static_cast<long long>(count));
    }
  }
  return nullptr;
}

}  // namespace hxsim
