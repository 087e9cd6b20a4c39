#include "plugin_state.hpp"

#include <hxplugin/status.hpp>

#include <cstdarg>

namespace hxcuda {

CudaDevice* CudaPlugin::find_device(const hx_device* handle) const {
  for (const auto& device : devices) {
    if (to_handle(device.get()) == handle) return device.get();
  }
  return nullptr;
}

void CudaPlugin::log(hx_log_level level, const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hxplugin::log_v(*services, core, level, format, arguments);
  va_end(arguments);
}

}  // namespace hxcuda
