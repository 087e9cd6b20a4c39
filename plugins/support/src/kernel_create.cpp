#include "hxplugin/kernel_create.hpp"

#include <cstdarg>

#include "hxplugin/status.hpp"

namespace hxplugin {

hx_status* KernelCreate::error(hx_status_code code, const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hx_status* status = make_status_v(services_, code, format, arguments);
  va_end(arguments);
  return status;
}

hx_status* KernelCreate::absent_is_ok(hx_status* status, bool* present) const {
  *present = status == nullptr;
  if (status == nullptr || services_.status_code(status) != HX_NOT_FOUND) return status;
  services_.status_destroy(status);
  return nullptr;
}

hx_status* KernelCreate::attr_bool(const char* name, bool* value) const {
  bool read = *value;
  bool present = false;
  if (hx_status* status = absent_is_ok(services_.attr_bool(args_.context, name, &read), &present)) {
    return status;
  }
  if (present) *value = read;
  return nullptr;
}

hx_status* KernelCreate::attr_int(const char* name, int64_t* value, bool* present) const {
  bool given = false;
  hx_status* status = absent_is_ok(services_.attr_int(args_.context, name, value), &given);
  if (present != nullptr) *present = given;
  return status;
}

hx_status* KernelCreate::attr_float(const char* name, double* value) const {
  bool present = false;
  return absent_is_ok(services_.attr_float(args_.context, name, value), &present);
}

hx_status* KernelCreate::attr_string(const char* name, const char** value,
                                     size_t* length) const {
  bool present = false;
  size_t read_length = 0;
  return absent_is_ok(services_.attr_string(args_.context, name, value,
                                            length != nullptr ? length : &read_length),
                      &present);
}

hx_status* KernelCreate::attr_ints(const char* name, const int64_t** values, size_t* count,
                                   bool* present) const {
  return absent_is_ok(services_.attr_ints(args_.context, name, values, count), present);
}

hx_status* KernelCreate::attr_floats(const char* name, const double** values, size_t* count,
                                     bool* present) const {
  if (services_.struct_size < HX_STRUCT_SIZE(hx_core_services, attr_floats)) {
    *present = false;
    return nullptr;
  }
  return absent_is_ok(services_.attr_floats(args_.context, name, values, count), present);
}

hx_status* KernelCreate::required_attr_float(const char* op, const char* name,
                                             double* value) const {
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
