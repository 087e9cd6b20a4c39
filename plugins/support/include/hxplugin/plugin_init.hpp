// The steps every hx_plugin_init takes before its plugin-specific work: checking the core's ABI,
// finding the options text, describing the plugin in its function table, registering kernels.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "hxplugin/status.hpp"

namespace hxplugin {

// FAILED_PRECONDITION "plugin '<name>' speaks ABI <maj>.<min>, core speaks <maj>.<min>" when the
// core's major version is not the one this plugin was built against, else NULL.
hx_status* check_core_abi(const hx_plugin_init_args& args, const char* plugin_name);

struct OptionsText {
  const char* json;  // NULL when the core passed none
  size_t length;
};
// The plugin's options as the core passed them; none when the core predates the field.
OptionsText options_text(const hx_plugin_init_args& args);

// The threads one kernel may use (config execution.intra_op_threads); 0, the plugin's own
// default, when the core said 0 or predates the field (ABI 2.0).
uint32_t intra_op_threads(const hx_plugin_init_args& args);

// The identity fields of a function table: its size and ABI version, the plugin's name, version
// and device type, and the handle the core passes back. The entry points are the plugin's to set.
void describe_plugin(hx_plugin_api& api, const char* name, const char* version,
                     const char* device_type, hx_plugin* plugin);

// Registers `def` (its struct_size is set here) with the core whose ABI minor is
// `core_abi_minor` (hx_plugin_init_args.core_abi_minor). The dtypes that core predates
// (hx_dtype_abi_minor) are left out, and a kernel left with none is not registered: an older
// core refuses a registration naming them. A refusal comes back with the core's code and the
// message "registering the <owner> <op> kernel: <the core's message>".
hx_status* register_kernel(const hx_core_services& services, hx_core* core,
                           uint32_t core_abi_minor, hx_kernel_def def, const char* owner);

// The whole of every bundled plugin's hx_plugin_init, behind the exception barrier: checks the
// core's ABI major, makes a `State` (a struct with `services`, `core`, `core_abi_minor` and
// `api` members) for this init with the core's services and handle, runs `build(state, options)` (the plugin's
// own part: its options, devices, table and kernels; it returns a status), and on success
// hands the core `state.api`, the state then living until shutdown. `state.core_abi_minor` is
// the core's ABI minor, for register_kernel. On failure the state is
// freed here: the core does not call shutdown after a failed init.
template <class State, class Build>
hx_status* init_plugin(const hx_plugin_init_args* args, const char* plugin_name,
                       const hx_plugin_api** out_api, Build&& build) {
  return guarded(*args->services, plugin_name, [&]() -> hx_status* {
    if (hx_status* status = check_core_abi(*args, plugin_name)) return status;
    auto state = std::make_unique<State>();
    state->services = args->services;
    state->core = args->core;
    state->core_abi_minor = args->core_abi_minor;
    if (hx_status* status = build(*state, options_text(*args))) return status;
    *out_api = &state.release()->api;
    return nullptr;
  });
}

}  // namespace hxplugin
