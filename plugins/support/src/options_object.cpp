#include "hxplugin/options_object.hpp"

#include "hxplugin/status.hpp"

namespace hxplugin {

hx_status* parse_options_object(const hx_core_services& services, const char* plugin_name,
                                const char* text, size_t length, nlohmann::json* out) {
  if (text == nullptr || length == 0) {
    *out = nlohmann::json::object();
    return nullptr;
  }
  nlohmann::json options;
  try {
    options = nlohmann::json::parse(text, text + length);
  } catch (const nlohmann::json::parse_error& error) {
    return make_status(services, HX_INVALID_ARGUMENT, "%s plugin options: not valid JSON: %s",
                       plugin_name, error.what());
  }
  if (!options.is_object()) {
    return make_status(services, HX_INVALID_ARGUMENT,
                       "%s plugin options: expected a JSON object, got %s", plugin_name,
                       options.type_name());
  }
  *out = std::move(options);
  return nullptr;
}

}  // namespace hxplugin
