// One kernel call as the core makes it (plugin_api.h, hx_kernel_args): its arguments, and the
// call itself, the one place the core enters a kernel, for the eager path, graph runs and
// recordings alike.
#pragma once

#include <cstddef>
#include <string>

#include "devices/device.hpp"
#include "hxrt/error.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/core_handle.hpp"
#include "plugins/kernel_registry.hpp"

namespace hxrt::detail {

// A call of `kernel` with `instance` on `device`'s stream; `views` holds the inputs' views,
// then the outputs'. `output_extents`: the outputs' extents, for an op whose extents are
// known at run (hx_kernel_args.output_extents); else nullptr.
inline hx_kernel_args kernel_args(const Device& device, const KernelEntry& kernel,
                                  hx_kernel_instance* instance, hx_kernel_context_s* context,
                                  hx_tensor_view* views, size_t num_inputs, size_t num_outputs,
                                  int64_t* output_extents = nullptr) {
  return {HX_KERNEL_ARGS_STRUCT_SIZE,
          nullptr,
          context,
          device.handle(),
          device.stream(),
          num_inputs,
          views,
          num_outputs,
          views + num_inputs,
          kernel.user_data,
          instance,
          output_extents,
          nullptr};  // input_constants: a graph's executable sets them (graph/constant_ids.hpp)
}

// What the core reports when `kernel` let a C++ exception cross the C ABI, which plugins must
// not do.
inline std::string kernel_threw(const KernelEntry& kernel) {
  return "the kernel of plugin '" + kernel.plugin + "' threw a C++ exception across the C ABI";
}

[[noreturn]] __attribute__((noinline, cold)) inline void throw_kernel_threw(
    const KernelEntry& kernel) {
  throw Error(StatusCode::kInternal, kernel_threw(kernel));
}

// Calls `kernel` with `args` and returns its status (NULL: success). A C++ exception out of the
// kernel becomes Error(kInternal) saying so (kernel_threw); each caller prefixes a failure with
// the call it failed.
inline hx_status* call_kernel(const KernelEntry& kernel, const hx_kernel_args& args) {
  try {
    return kernel.compute(&args);
  } catch (...) {
    throw_kernel_threw(kernel);
  }
}

}  // namespace hxrt::detail
