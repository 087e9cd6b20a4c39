// The arguments of one kernel call as the core passes them (plugin_api.h, hx_kernel_args), for
// the eager path and compiled graphs alike.
#pragma once

#include <cstddef>
#include <string>

#include "devices/device.hpp"
#include "hxrt/plugin_api.h"
#include "plugins/kernel_registry.hpp"
#include "plugins/core_handle.hpp"

namespace hxrt::detail {

// A call of `kernel` with `instance` on `device`'s stream; `views` holds the inputs' views,
// then the outputs'.
inline hx_kernel_args kernel_args(const Device& device, const KernelEntry& kernel,
                                  hx_kernel_instance* instance, hx_kernel_context_s* context,
                                  hx_tensor_view* views, size_t num_inputs, size_t num_outputs) {
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
          instance};
}

// What the core reports when `kernel` let a C++ exception cross the C ABI, which plugins must
// not do: the eager path and graph runs each prefix it with the call it failed.
inline std::string kernel_threw(const KernelEntry& kernel) {
  return "the kernel of plugin '" + kernel.plugin + "' threw a C++ exception across the C ABI";
}

}  // namespace hxrt::detail
