#include "plugin_state.hpp"

#include <hxplugin/status.hpp>

#include <cstdarg>

namespace hxopencl {

void OpenClPlugin::warn(const char* format, ...) const {
  va_list arguments;
  va_start(arguments, format);
  hxplugin::log_v(*services, core, HX_LOG_WARNING, format, arguments);
  va_end(arguments);
}

}  // namespace hxopencl
