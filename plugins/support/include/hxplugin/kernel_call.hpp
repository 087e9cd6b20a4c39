// One kernel invocation as a plugin's kernels see it: typed access to the tensors, attribute
// reads that apply defaults, and statuses. Nothing here allocates, so the hot path stays a few
// loads and the compute itself. Plugins derive from KernelCall to add their own operand checks.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxplugin {

// Elements in a view: the product of its extents (1 for a scalar). -1 for a view the core
// never passes: a negative extent, or non-zero extents whose product overflows int64_t.
int64_t element_count(const hx_tensor_view& view);
// The bytes of a view's elements, in *bytes; false for the views element_count counts as -1 and
// for a dtype outside the enum (the core never passes either).
bool byte_count(const hx_tensor_view& view, size_t* bytes);

// Views are dense and row-major (ABI 1.0), so a pointer to the first element is all a kernel
// needs; data may be NULL when the tensor has no elements.
template <class T>
const T* input_data(const hx_tensor_view& view) {
  return static_cast<const T*>(view.data);
}
template <class T>
T* output_data(const hx_tensor_view& view) {
  return static_cast<T*>(view.data);
}

class KernelCall {
 public:
  KernelCall(const hx_kernel_args& args, const hx_core_services& services)
      : args_(args), services_(services) {}

  size_t num_inputs() const { return args_.num_inputs; }
  size_t num_outputs() const { return args_.num_outputs; }
  const hx_tensor_view& input(size_t index) const { return args_.inputs[index]; }
  const hx_tensor_view& output(size_t index) const { return args_.outputs[index]; }
  const hx_kernel_args& args() const { return args_; }

  // A status with a printf-style message.
  hx_status* error(hx_status_code code, const char* format, ...) const
      __attribute__((format(printf, 3, 4)));

  // Attribute reads. An absent attribute leaves *value untouched (the caller initialises it
  // with the op's default) and returns NULL; a present attribute of another type returns the
  // core's INVALID_ARGUMENT status.
  hx_status* attr_bool(const char* name, bool* value) const;
  hx_status* attr_ints(const char* name, const int64_t** values, size_t* count,
                       bool* present) const;
  // A required attribute: absent is INVALID_ARGUMENT naming `op` and the attribute.
  hx_status* required_attr_float(const char* op, const char* name, double* value) const;

 private:
  // NULL for success and for NOT_FOUND (destroyed here), else the status.
  hx_status* absent_is_ok(hx_status* status, bool* present) const;

  const hx_kernel_args& args_;
  const hx_core_services& services_;
};

}  // namespace hxplugin
