// One kernel invocation as the sim kernels see it: operand checks, typed access, attribute
// reads that apply defaults, and statuses.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxsim {

struct SimPlugin;
struct SimDevice;

// Elements in a view: the product of its extents (1 for a scalar).
int64_t element_count(const hx_tensor_view& view);

// Views are dense and row-major (ABI 1.0); data may be NULL when the tensor has no elements.
inline const float* input_data(const hx_tensor_view& view) {
  return static_cast<const float*>(view.data);
}
inline float* output_data(const hx_tensor_view& view) { return static_cast<float*>(view.data); }

class KernelCall {
 public:
  // `args->user_data` is the SimPlugin that registered the kernel.
  explicit KernelCall(const hx_kernel_args* args);

  size_t num_inputs() const { return args_.num_inputs; }
  const hx_tensor_view& input(size_t index) const { return args_.inputs[index]; }
  const hx_tensor_view& output(size_t index) const { return args_.outputs[index]; }

  // What a device would refuse: a device handle that is not this plugin's, a stream that is
  // not the device's, an operand that is not float32, lives on another device, or whose data
  // is not inside the device's memory. INVALID_ARGUMENT naming `op` and the operand.
  hx_status* check_operands(const char* op) const;
  // INVALID_ARGUMENT unless every input and output has `count` elements.
  hx_status* expect_elements(const char* op, int64_t count) const;

  // A status with a printf-style message.
  hx_status* error(hx_status_code code, const char* format, ...) const
      __attribute__((format(printf, 3, 4)));

  // An absent attribute leaves *value untouched (the caller initialises it with the op's
  // default) and returns NULL; one of another type returns the core's INVALID_ARGUMENT.
  hx_status* attr_bool(const char* name, bool* value) const;
  // A required attribute: absent is INVALID_ARGUMENT naming `op` and the attribute.
  hx_status* required_attr_float(const char* op, const char* name, double* value) const;

 private:
  hx_status* check_view(const char* op, const SimDevice& device, const char* role, size_t index,
                        const hx_tensor_view& view) const;
  // NULL for success and for NOT_FOUND (destroyed here), else the status.
  hx_status* absent_is_ok(hx_status* status, bool* present) const;

  const hx_kernel_args& args_;
  const SimPlugin& plugin_;
  const hx_core_services& services_;
};

}  // namespace hxsim
