// One kernel create call: the combination of dtypes and device an instance is made for, and the
// op's attributes, read here once so that compute never looks an attribute up by name.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxplugin {

class KernelCreate {
 public:
  KernelCreate(const hx_kernel_create_args& args, const hx_core_services& services)
      : args_(args), services_(services) {}

  const hx_kernel_create_args& args() const { return args_; }
  int32_t input_dtype(size_t index) const { return args_.input_dtypes[index]; }
  int32_t output_dtype(size_t index) const { return args_.output_dtypes[index]; }

  // A status with a printf-style message.
  hx_status* error(hx_status_code code, const char* format, ...) const
      __attribute__((format(printf, 3, 4)));

  // Attribute reads. An absent attribute leaves *value untouched (the caller initialises it
  // with the op's default) and returns NULL; a present attribute of another type returns the
  // core's INVALID_ARGUMENT status.
  hx_status* attr_bool(const char* name, bool* value) const;
  hx_status* attr_int(const char* name, int64_t* value, bool* present = nullptr) const;
  hx_status* attr_float(const char* name, double* value) const;  // an int is accepted too
  // *value is borrowed for the create call, NUL-terminated (copy what is kept); *length, when
  // asked for, is its length.
  hx_status* attr_string(const char* name, const char** value, size_t* length = nullptr) const;
  hx_status* attr_ints(const char* name, const int64_t** values, size_t* count,
                       bool* present) const;
  // Absent under a core older than ABI 2.6, whose calls carry no list of floats.
  hx_status* attr_floats(const char* name, const double** values, size_t* count,
                         bool* present) const;
  // A required attribute: absent is INVALID_ARGUMENT naming `op` and the attribute.
  hx_status* required_attr_float(const char* op, const char* name, double* value) const;

 private:
  // NULL for success and for NOT_FOUND (destroyed here), else the status.
  hx_status* absent_is_ok(hx_status* status, bool* present) const;

  const hx_kernel_create_args& args_;
  const hx_core_services& services_;
};

// An instance is a plugin object behind the opaque hx_kernel_instance*: these convert, and
// destroy_instance<T> is the hx_kernel_destroy_fn of instances made with `new T`.
template <class T>
hx_kernel_instance* to_instance(T* instance) {
  return reinterpret_cast<hx_kernel_instance*>(instance);
}
template <class T>
const T& instance_of(hx_kernel_instance* instance) {
  return *reinterpret_cast<const T*>(instance);
}
template <class T>
void destroy_instance(hx_kernel_instance* instance, void* user_data) {
  (void)user_data;
  delete reinterpret_cast<T*>(instance);
}

}  // namespace hxplugin
