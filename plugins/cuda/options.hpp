// The plugin's options, as given in the config under plugins.options.cuda.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>

namespace hxcuda {

// The CUDA plugin takes no options yet (CUDA_VISIBLE_DEVICES and hxrt's own visible_devices
// choose the devices): accepts an empty JSON object (or no text at all) and returns
// INVALID_ARGUMENT naming the first unknown key, or saying why the text is not a JSON object.
hx_status* check_options(const hx_core_services& services, const char* json, size_t length);

}  // namespace hxcuda
