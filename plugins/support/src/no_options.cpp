#include "hxplugin/no_options.hpp"

#include "hxplugin/options_object.hpp"
#include "hxplugin/status.hpp"

namespace hxplugin {

hx_status* check_no_options(const hx_core_services& services, const char* plugin_name,
                            const char* json, size_t length) {
  nlohmann::json options;
  if (hx_status* status = parse_options_object(services, plugin_name, json, length, &options)) {
    return status;
  }
  if (!options.empty()) {
    return make_status(services, HX_INVALID_ARGUMENT,
                       "%s plugin options: unknown option '%s' (the %s plugin takes no options)",
                       plugin_name, options.begin().key().c_str(), plugin_name);
  }
  return nullptr;
}

}  // namespace hxplugin
