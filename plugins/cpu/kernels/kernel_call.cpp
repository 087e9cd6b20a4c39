#include "kernels/kernel_call.hpp"

#include <cstdarg>

#include "kernels/element_types.hpp"
#include "plugin_state.hpp"
#include "status.hpp"

namespace hxcpu {

int64_t element_count(const hx_tensor_view& view) {
  int64_t count = 1;
  for (int32_t axis = 0; axis < view.rank; ++axis) count *= view.shape[axis];
  return count;
}

KernelCall::KernelCall(const hx_kernel_args* args)
    : args_(*args), services_(*static_cast<const CpuPlugin*>(args->user_data)->services) {}

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

hx_status* KernelCall::attr_ints(const char* name, const int64_t** values, size_t* count,
                                 bool* present) const {
  return absent_is_ok(services_.attr_ints(args_.context, name, values, count), present);
}

hx_status* KernelCall::required_attr_float(const char* op, const char* name,
                                           double* value) const {
  bool present = false;
  if (hx_status* status = absent_is_ok(services_.attr_float(args_.context, name, value), &present)) {
    return status;
  }
  if (!present) {
    return error(HX_INVALID_ARGUMENT, "%s: missing required attribute '%s' (a float)", op, name);
  }
  return nullptr;
}

hx_status* KernelCall::expect_elements(const char* op, int64_t count, hx_dtype dtype) const {
  for (size_t i = 0; i < args_.num_inputs; ++i) {
    const hx_tensor_view& view = args_.inputs[i];
    if (view.dtype != dtype || element_count(view) != count) {
      return error(HX_INVALID_ARGUMENT,
                   "%s: input %zu is %s with %lld elements, expected %s with %lld", op, i,
                   dtype_name(view.dtype), static_cast<long long>(element_count(view)),
                   dtype_name(dtype), static_cast<long long>(count));
    }
  }
  for (size_t i = 0; i < args_.num_outputs; ++i) {
    const hx_tensor_view& view = args_.outputs[i];
    if (view.dtype != dtype || element_count(view) != count) {
      return error(HX_INVALID_ARGUMENT,
                   "%s: output %zu is %s with %lld elements, expected %s with %lld", op, i,
                   dtype_name(view.dtype), static_cast<long long>(element_count(view)),
                   dtype_name(dtype), static_cast<long long>(count));
    }
  }
  return nullptr;
}

}  // namespace hxcpu
