// Everything one successful hx_plugin_init owns.
#pragma once

#include <hxrt/plugin_api.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "device.hpp"
#include "handles.hpp"
#include "kernel_env.hpp"
#include "options.hpp"

namespace hxcuda {

// The function table lives here rather than in a static: two runtimes in one process share
// the dlopen handle and each init the plugin.
struct CudaPlugin {
  const hx_core_services* services = nullptr;
  hx_core* core = nullptr;
  uint32_t core_abi_minor = 0;  // the core's HX_ABI_VERSION_MINOR, set at init
  // Declared before `handles`, so that streams and events go before the devices they use.
  std::vector<std::unique_ptr<CudaDevice>> devices;
  std::string unavailable;  // why `devices` is empty; device_count's UNAVAILABLE message
  Handles handles;
  CudaOptions options;
  std::deque<KernelSite> kernel_sites;  // the kernels' user data (kernel_env.hpp)
  hx_plugin_api api{};

  // The device behind `handle`, or nullptr when it is not one of this instance's devices.
  CudaDevice* find_device(const hx_device* handle) const;
  // A line in the core's log, for what has no status to travel in (a failed free, say).
  void log(hx_log_level level, const char* format, ...) const __attribute__((format(printf, 3, 4)));
};

inline hx_plugin* to_handle(CudaPlugin* plugin) { return reinterpret_cast<hx_plugin*>(plugin); }
inline CudaPlugin& from_handle(hx_plugin* plugin) { return *reinterpret_cast<CudaPlugin*>(plugin); }

}  // namespace hxcuda
