#include "plugin_state.hpp"

#include <cstdarg>
#include <cstdio>

namespace hxopencl {

void OpenClPlugin::warn(const char* format, ...) const {
  char message[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  services->log(core, HX_LOG_WARNING, message);
}

}  // namespace hxopencl
