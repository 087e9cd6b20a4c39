// One kernel call (check or compute) as a plugin's kernels see it: the tensors, the instance
// create made, and statuses. No attribute reads: kernels read their attributes once, in create
// (kernel_create.hpp). Nothing here allocates, so the hot path stays a few loads and the
// compute itself. Plugins derive from KernelCall to add their own operand checks.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

namespace hxplugin {

// Elements in a view: the product of its extents (1 for a scalar). -1 for a view the core
// never passes: a negative extent, or non-zero extents whose product overflows int64_t. Inline:
// every element-wise kernel counts its output on each call.
inline int64_t element_count(const hx_tensor_view& view) {
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
// The bytes of a view's elements, in *bytes; false for the views element_count counts as -1 and
// for a dtype outside the enum (the core never passes either).
bool byte_count(const hx_tensor_view& view, size_t* bytes);

// The address of element [0, ..., 0], for plugins whose buffer handle is the address of the
// buffer's first byte (host memory, or a device's linear address space such as CUDA's); a
// plugin whose handles are objects (cl_mem) keeps (buffer, byte_offset) instead. NULL when the
// view has no buffer (a tensor without elements).
inline void* element_address(const hx_tensor_view& view) {
  if (view.buffer == nullptr) return nullptr;
  return static_cast<char*>(static_cast<void*>(view.buffer)) + view.byte_offset;
}
template <class T>
const T* input_data(const hx_tensor_view& view) {
  return static_cast<const T*>(element_address(view));
}
template <class T>
T* output_data(const hx_tensor_view& view) {
  return static_cast<T*>(element_address(view));
}

// True when the view's strides are the dense row-major ones of its shape (every output, and
// every input but a broadcast one).
bool is_dense(const hx_tensor_view& view);

class KernelCall {
 public:
  KernelCall(const hx_kernel_args& args, const hx_core_services& services)
      : args_(args), services_(services) {}

  size_t num_inputs() const { return args_.num_inputs; }
  size_t num_outputs() const { return args_.num_outputs; }
  const hx_tensor_view& input(size_t index) const { return args_.inputs[index]; }
  const hx_tensor_view& output(size_t index) const { return args_.outputs[index]; }
  const hx_kernel_args& args() const { return args_; }
  hx_kernel_instance* instance() const { return args_.instance; }
  // Input `index`'s id as a graph constant (hx_kernel_args.input_constants), or 0: not a
  // constant, or a core before 2.10, whose arguments end before the ids.
  uint64_t constant_id(size_t index) const {
    if (args_.struct_size < HX_STRUCT_SIZE(hx_kernel_args, input_constants) ||
        args_.input_constants == nullptr) {
      return 0;
    }
    return args_.input_constants[index];
  }

  // A status with a printf-style message.
  hx_status* error(hx_status_code code, const char* format, ...) const
      __attribute__((format(printf, 3, 4)));

 private:
  const hx_kernel_args& args_;
  const hx_core_services& services_;
};

}  // namespace hxplugin
