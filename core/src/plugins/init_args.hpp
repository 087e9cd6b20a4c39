// The arguments of every plugin's hx_plugin_init, made in one place for the in-process load
// (plugin_loader.cpp) and the probe process (tools/hxrt-probe), so that a probed plugin is
// initialised exactly as its real load will initialise it.
#pragma once

#include <cstdint>
#include <string>

#include "hxrt/plugin_api.h"

namespace hxrt::detail {

// This core's version and services, the plugin's handle `core`, its options (JSON object
// text, borrowed: it must outlive the init call) and config execution.intra_op_threads. Also
// gives `core` the options as an object, for the services' option getters.
hx_plugin_init_args plugin_init_args(hx_core* core, const std::string& options,
                                     uint32_t intra_op_threads);

}  // namespace hxrt::detail
