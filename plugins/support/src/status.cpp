#include "hxplugin/status.hpp"

#include <cstdio>

namespace hxplugin {

hx_status* make_status(const hx_core_services& services, hx_status_code code, const char* format,
                       ...) {
  va_list arguments;
  va_start(arguments, format);
  hx_status* status = make_status_v(services, code, format, arguments);
  va_end(arguments);
  return status;
}

hx_status* make_status_v(const hx_core_services& services, hx_status_code code, const char* format,
                         va_list arguments) {
  char message[512];
  std::vsnprintf(message, sizeof message, format, arguments);
  return services.status_create(code, message);
}

}  // namespace hxplugin
