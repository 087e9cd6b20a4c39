#include "raw_enum_calls.h"

hx_status* status_create_with_code(const hx_core_services* services, int code,
                                   const char* message) {
  return services->status_create((hx_status_code)code, message);
}

void log_with_level(const hx_core_services* services, hx_core* core, int level,
                    const char* message) {
  services->log(core, (hx_log_level)level, message);
}
