// Everything one successful hx_plugin_init owns: the platforms found, their devices, and the
// function table with its optional groups.
#pragma once

#include <hxrt/plugin_api.h>

#include <memory>
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
  // Declared before the devices, so that the devices (queues, programs) go first at shutdown
  // and the contexts they live in after them.
  std::vector<std::unique_ptr<Platform>> platforms;
  std::vector<std::unique_ptr<OpenClDevice>> devices;
  // Why there are no devices, for device_count's UNAVAILABLE status; empty when there are some.
  std::string no_devices_reason;
  hx_plugin_api api{};
  hx_stream_api streams{};
  hx_event_api events{};

  // A warning in the core's log, for what has no status to report it through.
  void warn(const char* format, ...) const __attribute__((format(printf, 2, 3)));
};

inline hx_plugin* to_handle(OpenClPlugin* plugin) { return reinterpret_cast<hx_plugin*>(plugin); }
inline OpenClPlugin& from_handle(hx_plugin* plugin) {
  return *reinterpret_cast<OpenClPlugin*>(plugin);
}

}  // namespace hxopencl
