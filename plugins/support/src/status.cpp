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

namespace {

// The one fixed buffer size of statuses and log lines: no allocation, longer text truncated.
struct Formatted {
  Formatted(const char* format, va_list arguments) {
    std::vsnprintf(text, sizeof text, format, arguments);
  }
  char text[512];
};

}  // namespace

hx_status* make_status_v(const hx_core_services& services, hx_status_code code, const char* format,
                         va_list arguments) {
  return services.status_create(code, Formatted(format, arguments).text);
}

void log_v(const hx_core_services& services, hx_core* core, hx_log_level level,
           const char* format, va_list arguments) {
  services.log(core, level, Formatted(format, arguments).text);
}

}  // namespace hxplugin
