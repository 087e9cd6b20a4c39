#include "kernels/kernel_call.hpp"

#include <cstdarg>

#include "plugin_state.hpp"
#include "status.hpp"
#include "streams.hpp"

namespace hxsim {

int64_t element_count(const hx_tensor_view& view) {
  int64_t count = 1;
  for (int32_t axis = 0; axis < view.rank; ++axis) count *= view.shape[axis];
  return count;
}

KernelCall::KernelCall(const hx_kernel_args* args)
    : args_(*args),
      plugin_(*static_cast<const SimPlugin*>(args->user_data)),
      services_(*plugin_.services) {}

hx_status* KernelCall::check_operands(const char* op) const {
  const SimDevice* device = plugin_.find_device(args_.device);
  if (device == nullptr) {
    return error(HX_INVALID_ARGUMENT, "%s: device handle %p is not a device of the sim plugin", op,
                 static_cast<const void*>(args_.device));
  }
  if (hx_status* status = check_stream(*device, args_.stream)) return status;
  for (size_t i = 0; i < args_.num_inputs; ++i) {
    if (hx_status* status = check_view(op, *device, "input", i, args_.inputs[i])) return status;
  }
  for (size_t i = 0; i < args_.num_outputs; ++i) {
    if (hx_status* status = check_view(op, *device, "output", i, args_.outputs[i])) {
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
  if (view.device != args_.device) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu lives on device %p, not on %s", op, role, index,
                 static_cast<const void*>(view.device), device.label.c_str());
  }
  const size_t bytes = static_cast<size_t>(element_count(view)) * sizeof(float);
  if (bytes != 0 && !device.memory.contains(view.data, bytes)) {
    return error(HX_INVALID_ARGUMENT, "%s: %s %zu's data [%p, +%zu bytes) is not memory of %s", op,
                 role, index, view.data, bytes, device.label.c_str());
  }
  return nullptr;
}

hx_status* KernelCall::expect_elements(const char* op, int64_t count) const {
  for (size_t i = 0; i < args_.num_inputs; ++i) {
    if (element_count(args_.inputs[i]) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: input %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(args_.inputs[i])),
                   static_cast<long long>(count));
    }
  }
  for (size_t i = 0; i < args_.num_outputs; ++i) {
    if (element_count(args_.outputs[i]) != count) {
      return error(HX_INVALID_ARGUMENT, "%s: output %zu has %lld elements, expected %lld", op, i,
                   static_cast<long long>(element_count(args_.outputs[i])),
                   static_cast<long long>(count));
    }
  }
  return nullptr;
}

hx_status* KernelCall::error(hx_status_code code, const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hx_status* status = make_status_v(services_, code, format, arguments);
  va_end(arguments);
  return status;
}

hx_status* KernelCall::absent_is_ok(hx_status* status, bool* present) const {
  *present = status == nullptr;
  if (status == nullptr || services_.status_code(status) != HX_NOT_FOUND) return status;
  services_.status_destroy(status);
  return nullptr;
}

hx_status* KernelCall::attr_bool(const char* name, bool* value) const {
  bool read = *value;
  bool present = false;
  if (hx_status* status = absent_is_ok(services_.attr_bool(args_.context, name, &read), &present)) {
    return status;
  }
  if (present) *value = read;
  return nullptr;
}

hx_status* KernelCall::required_attr_float(const char* op, const char* name, double* value) const {
  bool present = false;
  if (hx_status* status =
          absent_is_ok(services_.attr_float(args_.context, name, value), &present)) {
    return status;
  }
  if (!present) {
    return error(HX_INVALID_ARGUMENT, "%s: missing required attribute '%s' (a float)", op, name);
  }
  return nullptr;
}

}  // namespace hxsim
