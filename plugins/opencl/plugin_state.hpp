// Everything one successful hx_plugin_init owns: the platforms opened, the devices listed, and
// the function table with its optional groups.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device.hpp"
#include "platform.hpp"

namespace hxopencl {

// The name in the function table, in ABI mismatch reports and in the messages of statuses made
// from exceptions.
constexpr char kPluginName[] = "opencl";

// The table lives here rather than in a static: two runtimes in one process share the dlopen
// handle and each init the plugin.
struct OpenClPlugin {
  const hx_core_services* services = nullptr;
  hx_core* core = nullptr;
  uint32_t core_abi_minor = 0;  // the core's HX_ABI_VERSION_MINOR, set at init
  // Declared before the devices, so that the devices (queues, programs) go first at shutdown
  // and the contexts they live in after them.
  std::vector<std::unique_ptr<Platform>> platforms;
  std::vector<std::unique_ptr<OpenClDevice>> devices;
  // Why there are no devices, for device_count's UNAVAILABLE status; empty when there are some.
  std::string no_devices_reason;
  // The device cache, and the installation's fingerprint at init (device_cache.hpp).
  std::string cache_file;
  std::string fingerprint;
  hx_plugin_api api{};
  hx_stream_api streams{};
  hx_event_api events{};

  // Lists the devices: from the device cache when it was written for this installation (their
  // platforms are then opened at the first use of a device), else by discovering them now and
  // keeping what was found in the cache.
  void list_devices();
  // For a device listed from the cache: opens the platforms and binds every listed device to
  // the device found that is the same (DeviceFacts::same_device), once (the first caller does it, the others wait for
  // it). NULL when `device` is bound, else UNAVAILABLE saying why it is not.
  hx_status* bind_listed_devices(const OpenClDevice& device);

  // A line in the core's log, for what has no status to report it through.
  void log(hx_log_level level, const char* format, ...) const
      __attribute__((format(printf, 3, 4)));

 private:
  void bind_to_found();
  std::once_flag listed_bound_;
};

inline hx_plugin* to_handle(OpenClPlugin* plugin) { return reinterpret_cast<hx_plugin*>(plugin); }
inline OpenClPlugin& from_handle(hx_plugin* plugin) {
  return *reinterpret_cast<OpenClPlugin*>(plugin);
}

}  // namespace hxopencl
