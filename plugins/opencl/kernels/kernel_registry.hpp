// Registers the plugin's kernels with the core, all of them for float32 only: other dtypes
// have no kernel here and fall back to another device.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxopencl {

struct OpenClPlugin;

hx_status* register_kernels(const OpenClPlugin& plugin);

}  // namespace hxopencl
