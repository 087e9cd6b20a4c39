#include "config/config.hpp"

#include "config/config_layers.hpp"
#include "config/settings_table.hpp"

namespace hxrt::detail {

Config resolve_config(const RuntimeOptions& options) {
  Config config;
  if (!options.config_path.empty()) {
    apply_config_file(options.config_path, "RuntimeOptions", config);
  } else if (auto path = environment_variable(kConfigFileVariable)) {
    apply_config_file(*path, "$HXRT_CONFIG", config);
  }
  apply_environment(config);
  apply_runtime_options(options, config);
  return config;
}

std::vector<std::string> Config::plugin_candidates(const std::string& installed_dir) const {
  std::vector<std::string> all;
  for (const auto* list : {&plugin_libraries, &plugin_search_paths, &env_plugin_paths,
                           &api_plugin_paths}) {
    all.insert(all.end(), list->begin(), list->end());
  }
  if (use_installed_plugins && !installed_dir.empty()) all.push_back(installed_dir);
  return all;
}

}  // namespace hxrt::detail
