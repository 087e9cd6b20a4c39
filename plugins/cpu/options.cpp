#include "options.hpp"

#include <hxplugin/options_object.hpp>
#include <hxplugin/status.hpp>

#include <string>
#include <nlohmann/json.hpp>

namespace hxcpu {

hx_status* parse_options(const hx_core_services& services, const char* json, size_t length,
                         CpuOptions* out) {
  nlohmann::json parsed;
  if (hx_status* status = hxplugin::parse_options_object(services, "cpu", json, length, &parsed)) {
    return status;
  }
  CpuOptions options;
  for (const auto& [key, value] : parsed.items()) {
    if (key != "blas_core") {
      return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                   "cpu plugin options: unknown option '%s'; the cpu plugin's "
                                   "only option is blas_core",
                                   key.c_str());
    }
    std::string error;
    if (!read_blas_core(value, &options.blas_core, &error)) {
      return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                   "cpu plugin option 'blas_core': %s", error.c_str());
    }
  }
  *out = options;
  return nullptr;
}

}  // namespace hxcpu
