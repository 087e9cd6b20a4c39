// The list of kernels the CPU plugin offers, and their registration with the core.
#pragma once

#include <hxrt/plugin_api.h>

namespace hxcpu {

struct CpuPlugin;

// Registers every CPU kernel (priority 0) through plugin.services. Returns the first failure,
// with its message prefixed by the op it concerned.
hx_status* register_kernels(CpuPlugin& plugin);

}  // namespace hxcpu
