#include "plugin_state.hpp"

#include <hxplugin/status.hpp>

#include <algorithm>
#include <cstdarg>

#include "memory.hpp"

namespace hxsim {

const SimDevice* SimPlugin::find_device(const hx_device* handle) const {
  for (const auto& device : devices) {
    if (to_handle(device.get()) == handle) return device.get();
  }
  return nullptr;
}

const SimDevice* SimPlugin::buffer_owner(const hx_buffer* buffer) const {
  size_t size = 0;
  for (const auto& device : devices) {
    if (device->memory.find(buffer_id(buffer), &size)) return device.get();
  }
  return nullptr;
}

bool SimPlugin::faults(const char* op) const {
  return std::find(options.fault_ops.begin(), options.fault_ops.end(), op) !=
         options.fault_ops.end();
}

void SimPlugin::warn(const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hxplugin::log_v(*services, core, HX_LOG_WARNING, format, arguments);
  va_end(arguments);
}

}  // namespace hxsim
