// Kernel entry points behind the exception barrier (status.hpp's guarded), for plugins whose
// kernels take their state as user_data: the kernels should not throw, but create allocates
// its instance (and compute may allocate), so nothing may unwind into the core.
#pragma once

#include <hxrt/plugin_api.h>

#include "hxplugin/status.hpp"

namespace hxplugin {

// `State` has a `services` member; `plugin_name` starts the message of a status made from an
// exception.
template <class State, const char* plugin_name, hx_kernel_fn Kernel>
hx_status* guarded_kernel(const hx_kernel_args* args) {
  return guarded(*static_cast<const State*>(args->user_data)->services, plugin_name,
                 [&] { return Kernel(args); });
}

template <class State, const char* plugin_name, hx_kernel_create_fn Create>
hx_status* guarded_create(const hx_kernel_create_args* args, hx_kernel_instance** out_instance) {
  return guarded(*static_cast<const State*>(args->user_data)->services, plugin_name,
                 [&] { return Create(args, out_instance); });
}

}  // namespace hxplugin
