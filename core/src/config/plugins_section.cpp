#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "config/message_text.hpp"
#include "hxrt/error.hpp"
#include "base/plugin_identity.hpp"

namespace hxrt::detail {
namespace {

// An hour: a plugin that needs longer to start is as good as hung.
constexpr int64_t kMaxProbeTimeoutMs = 3600000;

}  // namespace

void apply_plugins_section(const nlohmann::json& plugins, const std::string& source,
                           Config& config) {
  require_object(plugins, source, "/plugins");
  check_keys(plugins,
             {"search_paths", "libraries", "use_installed", "options", "probe",
              "probe_timeout_ms", "disabled"},
             source, "/plugins");
  if (plugins.contains("search_paths")) {
    config.plugin_search_paths =
        read_strings(plugins["search_paths"], source, "/plugins/search_paths");
    config.origins["/plugins/search_paths"] = source;
  }
  if (plugins.contains("libraries")) {
    config.plugin_libraries = read_strings(plugins["libraries"], source, "/plugins/libraries");
    config.origins["/plugins/libraries"] = source;
  }
  if (plugins.contains("disabled")) {
    std::vector<std::string> names =
        read_strings(plugins["disabled"], source, "/plugins/disabled");
    for (size_t i = 0; i < names.size(); ++i) {
      try {
        check_plugin_name(names[i]);
      } catch (const Error& e) {
        fail(source, "/plugins/disabled/" + std::to_string(i),
             std::string(e.what()) + "; list the plugin's name, not its file (libhx_sim.so is "
                                     "\"sim\")");
      }
    }
    config.disabled_plugins = std::move(names);
    config.origins["/plugins/disabled"] = source;
  }
  if (plugins.contains("use_installed")) {
    config.use_installed_plugins =
        read_bool(plugins["use_installed"], source, "/plugins/use_installed");
    config.origins["/plugins/use_installed"] = source;
  }
  if (plugins.contains("probe")) {
    config.probe_plugins = read_bool(plugins["probe"], source, "/plugins/probe");
    config.origins["/plugins/probe"] = source;
  }
  if (plugins.contains("probe_timeout_ms")) {
    const nlohmann::json& value = plugins["probe_timeout_ms"];
    const std::optional<int64_t> ms = integer_in(value, 1, kMaxProbeTimeoutMs);
    if (!ms) {
      fail(source, "/plugins/probe_timeout_ms",
           "expected an integer from 1 to " + std::to_string(kMaxProbeTimeoutMs) +
               " (milliseconds), got " + type_of(value));
    }
    config.probe_timeout_ms = static_cast<int>(*ms);
    config.origins["/plugins/probe_timeout_ms"] = source;
  }
  if (plugins.contains("options")) {
    const nlohmann::json& options = plugins["options"];
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
}

}  // namespace hxrt::detail
