// Statuses are objects the core creates; these helpers build them from the plugin side and keep
// C++ exceptions from unwinding into the core.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdarg>
#include <exception>
#include <new>

namespace hxplugin {

// A status with a printf-style message. The message is formatted into a fixed buffer (no
// allocation) and copied by the core; longer messages are truncated.
hx_status* make_status(const hx_core_services& services, hx_status_code code, const char* format,
                       ...) __attribute__((format(printf, 3, 4)));
hx_status* make_status_v(const hx_core_services& services, hx_status_code code, const char* format,
                         va_list arguments) __attribute__((format(printf, 3, 0)));

// A printf-style line in the core's log at `level`, for what has no status to travel in (a
// failed free, misuse of a handle). Formatted like make_status's message.
void log_v(const hx_core_services& services, hx_core* core, hx_log_level level,
           const char* format, va_list arguments) __attribute__((format(printf, 4, 0)));

// Runs `body` (which returns hx_status*) and turns any exception into a status whose message
// starts with "<plugin_name> plugin: ": every entry point of a plugin that can throw goes through
// this, because nothing may throw across the C ABI.
template <class Body>
hx_status* guarded(const hx_core_services& services, const char* plugin_name,
                   Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return make_status(services, HX_OUT_OF_MEMORY, "%s plugin: out of host memory", plugin_name);
  } catch (const std::exception& error) {
    return make_status(services, HX_INTERNAL, "%s plugin: %s", plugin_name, error.what());
  } catch (...) {
    return make_status(services, HX_INTERNAL, "%s plugin: unknown C++ exception", plugin_name);
  }
}

}  // namespace hxplugin
