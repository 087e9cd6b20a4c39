#include "hxplugin/kernel_call.hpp"

#include <cstdarg>

#include <hxrt/plugin_vocabulary.h>

#include "hxplugin/status.hpp"

namespace hxplugin {

int64_t element_count(const hx_tensor_view& view) {
  int64_t count = 1;
  bool empty = false;
  for (int32_t axis = 0; axis < view.rank; ++axis) {
    const int64_t extent = view.shape[axis];
    if (extent < 0) return -1;
    if (extent == 0) {
      empty = true;
    } else if (__builtin_mul_overflow(count, extent, &count)) {
      return -1;
    }
  }
  return empty ? 0 : count;
}

bool is_dense(const hx_tensor_view& view) {
  if (element_count(view) == 0) return true;
  int64_t expected = 1;
  for (int32_t axis = view.rank - 1; axis >= 0; --axis) {
    if (view.shape[axis] != 1 && view.strides[axis] != expected) return false;
    expected *= view.shape[axis];
  }
  return true;
}

bool byte_count(const hx_tensor_view& view, size_t* bytes) {
  const int64_t count = element_count(view);
  const size_t element_bytes = hx_dtype_size(view.dtype);
  return count >= 0 && element_bytes != 0 &&
         !__builtin_mul_overflow(static_cast<size_t>(count), element_bytes, bytes);
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

hx_status* KernelCall::attr_ints(const char* name, const int64_t** values, size_t* count,
                                 bool* present) const {
  return absent_is_ok(services_.attr_ints(args_.context, name, values, count), present);
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

}  // namespace hxplugin
