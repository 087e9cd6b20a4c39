// Everything one successful hx_plugin_init owns.
#pragma once

#include <hxrt/plugin_api.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "device.hpp"
#include "handles.hpp"
#include "options.hpp"

namespace hxsim {

// The name in the function table, in ABI mismatch reports and in the messages of statuses made
// from exceptions.
constexpr char kPluginName[] = "sim";

// The function table lives here rather than in a static: two runtimes in one process share
// the dlopen handle and may each init the plugin with other options.
struct SimPlugin {
  const hx_core_services* services = nullptr;
  hx_core* core = nullptr;
  uint32_t core_abi_minor = 0;  // the core's HX_ABI_VERSION_MINOR, set at init
  SimOptions options;
  std::vector<std::unique_ptr<SimDevice>> devices;
  // After the devices: destroyed first, its streams finish their work while the devices'
  // memory is still there.
  Handles handles;
  // The id of the next buffer any device allocates: ids are never reused, so a stale handle
  // is never mistaken for a live one.
  std::atomic<uint64_t> next_buffer_id{1};
  hx_plugin_api api{};

  // The device behind `handle`, or nullptr when it is not one of this instance's devices.
  const SimDevice* find_device(const hx_device* handle) const;
  // The device with a live buffer `buffer`, or nullptr when no device has it.
  const SimDevice* buffer_owner(const hx_buffer* buffer) const;
  // Whether the option fault_ops lists `op`: its kernels' work fails as it runs.
  bool faults(const char* op) const;
  // A warning in the core's log, for misuse that has no status to report it through.
  void warn(const char* format, ...) const __attribute__((format(printf, 2, 3)));
};

inline hx_plugin* to_handle(SimPlugin* plugin) { return reinterpret_cast<hx_plugin*>(plugin); }
inline SimPlugin& from_handle(hx_plugin* plugin) { return *reinterpret_cast<SimPlugin*>(plugin); }

}  // namespace hxsim
