#include "plugin_state.hpp"

#include <cstdarg>
#include <cstdio>

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

void SimPlugin::warn(const char* format, ...) const {
  char message[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  services->log(core, HX_LOG_WARNING, message);
}

}  // namespace hxsim
