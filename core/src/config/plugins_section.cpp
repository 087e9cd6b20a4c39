// The plugin settings' own checks and the structured "plugins.options", beyond the kinds of
// their rows in settings_table.cpp.
#include "base/plugin_identity.hpp"
#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "config/message_text.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void check_plugin_names(const nlohmann::json& names, const std::string& source,
                        const std::string& path) {
  for (size_t i = 0; i < names.size(); ++i) {
    try {
      check_plugin_name(names[i].get<std::string>());
    } catch (const Error& e) {
      fail(source, pointer_child(path, i),
           std::string(e.what()) + "; list the plugin's name, not its file (libhx_sim.so is "
                                   "\"sim\")");
    }
  }
}

void apply_plugin_options(const nlohmann::json& options, const std::string& source,
                          Config& config) {
  if (!options.is_object()) {
    fail(source, "/plugins/options",
         "expected an object of plugin name -> options object, got " + type_of(options));
  }
  for (const auto& item : options.items()) {
    const std::string path = pointer_child("/plugins/options", item.key());
    if (!item.value().is_object()) {
      fail(source, path,
           "expected an object of options for plugin '" + shown(item.key()) + "', got " +
               type_of(item.value()));
    }
    config.plugin_options[item.key()] = json_text(item.value());
    config.origins[path] = source;
  }
}

}  // namespace hxrt::detail
