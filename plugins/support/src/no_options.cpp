#include "hxplugin/no_options.hpp"

#include <nlohmann/json.hpp>

#include "hxplugin/status.hpp"

namespace hxplugin {

hx_status* check_no_options(const hx_core_services& services, const char* plugin_name,
                            const char* json, size_t length) {
  if (json == nullptr || length == 0) return nullptr;
  nlohmann::json options;
  try {
    options = nlohmann::json::parse(json, json + length);
  } catch (const nlohmann::json::parse_error& error) {
    return make_status(services, HX_INVALID_ARGUMENT, "%s plugin options: not valid JSON: %s",
                       plugin_name, error.what());
  }
  if (!options.is_object()) {
    return make_status(services, HX_INVALID_ARGUMENT,
                       "%s plugin options: expected a JSON object, got %s", plugin_name,
                       options.type_name());
  }
  if (!options.empty()) {
    return make_status(services, HX_INVALID_ARGUMENT,
                       "%s plugin options: unknown option '%s' (the %s plugin takes no options)",
                       plugin_name, options.begin().key().c_str(), plugin_name);
  }
  return nullptr;
}

}  // namespace hxplugin
