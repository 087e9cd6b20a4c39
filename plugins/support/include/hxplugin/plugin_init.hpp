// The steps every hx_plugin_init takes before its plugin-specific work: checking the core's ABI,
// finding the options text, describing the plugin in its function table, registering kernels.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

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

// The identity fields of a function table: its size and ABI version, the plugin's name, version
// and device type, and the handle the core passes back. The entry points are the plugin's to set.
void describe_plugin(hx_plugin_api& api, const char* name, const char* version,
                     const char* device_type, hx_plugin* plugin);

// Registers `def` (its struct_size is set here) with the core. A refusal comes back with the
// core's code and the message "registering the <owner> <op> kernel: <the core's message>".
hx_status* register_kernel(const hx_core_services& services, hx_core* core, hx_kernel_def def,
                           const char* owner);

}  // namespace hxplugin
