// A stand-in for the core's services, for tests that drive a plugin's function table
// directly: statuses are heap objects, every attribute and every option is absent (kernels
// apply the op's defaults, plugins their own), custom ops are refused. Logging and kernel registration are the harness's own.
#pragma once

#include <hxrt/plugin_api.h>

#include <string>

namespace hxrt_test {

// What a table call returned, its status already freed.
struct Outcome {
  hx_status_code code = HX_OK;
  std::string message;
};

namespace fake_core {

struct Status {
  hx_status_code code;
  std::string message;
};

inline hx_status* status_create(int32_t code, const char* message) {
  return reinterpret_cast<hx_status*>(
      new Status{static_cast<hx_status_code>(code), message ? message : ""});
}
inline void status_destroy(hx_status* status) { delete reinterpret_cast<Status*>(status); }
inline int32_t status_code(const hx_status* status) {
  return status ? reinterpret_cast<const Status*>(status)->code : HX_OK;
}
inline const char* status_message(const hx_status* status) {
  return status ? reinterpret_cast<const Status*>(status)->message.c_str() : "";
}
inline hx_status* register_op(hx_core*, const hx_op_def*) {
  return status_create(HX_UNIMPLEMENTED, "the fake core takes no custom ops");
}
inline hx_status* absent() { return status_create(HX_NOT_FOUND, "no such attribute"); }
inline hx_status* attr_bool(const hx_kernel_context*, const char*, bool*) { return absent(); }
inline hx_status* attr_int(const hx_kernel_context*, const char*, int64_t*) { return absent(); }
inline hx_status* attr_float(const hx_kernel_context*, const char*, double*) { return absent(); }
inline hx_status* attr_dtype(const hx_kernel_context*, const char*, int32_t*) { return absent(); }
inline hx_status* attr_ints(const hx_kernel_context*, const char*, const int64_t**, size_t*) {
  return absent();
}
inline hx_status* attr_string(const hx_kernel_context*, const char*, const char**, size_t*) {
  return absent();
}
inline hx_status* attr_floats(const hx_kernel_context*, const char*, const double**, size_t*) {
  return absent();
}
inline hx_status* option_bool(hx_core*, const char*, bool*) { return absent(); }
inline hx_status* option_int(hx_core*, const char*, int64_t*) { return absent(); }
inline hx_status* option_float(hx_core*, const char*, double*) { return absent(); }
inline hx_status* option_string(hx_core*, const char*, const char**, size_t*) { return absent(); }
inline hx_status* option_keys(hx_core*, const char* const*, size_t) { return nullptr; }

}  // namespace fake_core

// The services, with the harness's `log` and `register_kernel` (which find the harness
// through the hx_core* it passed to init).
inline hx_core_services fake_core_services(void (*log)(hx_core*, int32_t, const char*),
                                           hx_status* (*register_kernel)(hx_core*,
                                                                         const hx_kernel_def*)) {
  return {HX_CORE_SERVICES_STRUCT_SIZE, nullptr,
          fake_core::status_create,     fake_core::status_destroy,
          fake_core::status_code,       fake_core::status_message,
          log,                          register_kernel,
          fake_core::register_op,       fake_core::attr_bool,
          fake_core::attr_int,          fake_core::attr_float,
          fake_core::attr_dtype,        fake_core::attr_ints,
          fake_core::attr_string,       fake_core::option_bool,
          fake_core::option_int,        fake_core::option_float,
          fake_core::option_string,     fake_core::option_keys,
          fake_core::attr_floats};
}

// Takes ownership of `status` and frees it.
inline Outcome take_outcome(hx_status* status) {
  Outcome result{static_cast<hx_status_code>(fake_core::status_code(status)),
                 fake_core::status_message(status)};
  fake_core::status_destroy(status);
  return result;
}

}  // namespace hxrt_test
