#include "plugin_state.hpp"

#include <cstdarg>
#include <cstdio>

namespace hxcuda {

CudaDevice* CudaPlugin::find_device(const hx_device* handle) const {
  for (const auto& device : devices) {
    if (to_handle(device.get()) == handle) return device.get();
  }
  return nullptr;
}

void CudaPlugin::log(hx_log_level level, const char* format, ...) const {
  char message[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  services->log(core, level, message);
}

}  // namespace hxcuda
