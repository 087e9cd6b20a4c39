#include "hxplugin/kernel_call.hpp"

#include <cstdarg>

#include <hxrt/plugin_vocabulary.h>

#include "hxplugin/status.hpp"

namespace hxplugin {

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

}  // namespace hxplugin
