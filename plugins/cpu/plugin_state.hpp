// Everything one successful hx_plugin_init owns.
#pragma once

#include <hxrt/plugin_api.h>

#include "device.hpp"
#include "dnnl/constant_layouts.hpp"

namespace hxcpu {

// The name in the function table, in ABI mismatch reports and in the messages of statuses made
// from exceptions.
constexpr char kPluginName[] = "cpu";

// The function table lives here rather than in a static: two runtimes in one process share
// the dlopen handle and may each init the plugin, and each table carries its own `plugin`.
struct CpuPlugin {
  const hx_core_services* services = nullptr;
  hx_core* core = nullptr;
  uint32_t core_abi_minor = 0;  // the core's HX_ABI_VERSION_MINOR, set at init
  // config execution.intra_op_threads; 0: the libraries' own choice. oneDNN's kernels apply it
  // per call (dnnl/dnnl_primitives.hpp); OpenBLAS keeps one process-wide count.
  uint32_t intra_op_threads = 0;
  CpuDevice device;
  hx_plugin_api api{};
  // Weights that are graph constants, reordered once for the primitives that read them.
  mutable ConstantLayouts constant_layouts;
};

inline hx_plugin* to_handle(CpuPlugin* plugin) { return reinterpret_cast<hx_plugin*>(plugin); }
inline CpuPlugin& from_handle(hx_plugin* plugin) { return *reinterpret_cast<CpuPlugin*>(plugin); }

}  // namespace hxcpu
