#include "options.hpp"

#include <hxplugin/status.hpp>

#include <nlohmann/json.hpp>

namespace hxcuda {

hx_status* check_options(const hx_core_services& services, const char* json, size_t length) {
  if (json == nullptr || length == 0) return nullptr;
  nlohmann::json options;
  try {
    options = nlohmann::json::parse(json, json + length);
  } catch (const nlohmann::json::parse_error& error) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "cuda plugin options: not valid JSON: %s", error.what());
  }
  if (!options.is_object()) {
    return hxplugin::make_status(services, HX_INVALID_ARGUMENT,
                                 "cuda plugin options: expected a JSON object, got %s",
                                 options.type_name());
  }
  if (!options.empty()) {
    return hxplugin::make_status(
        services, HX_INVALID_ARGUMENT,
        "cuda plugin options: unknown option '%s' (the cuda plugin takes no options)",
        options.begin().key().c_str());
  }
  return nullptr;
}

}  // namespace hxcuda
