// The API layer: RuntimeOptions, over the file and the environment.
#include "config/config_layers.hpp"
#include "config/config_sections.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"

namespace hxrt::detail {

void apply_runtime_options(const RuntimeOptions& options, Config& config) {
  const std::string source = "API";
  if (!options.plugin_paths.empty()) {
    config.api_plugin_paths = options.plugin_paths;
    config.origins["/api/plugin_paths"] = source;
  }
  // The option's default (true) cannot be told from "not set": only false overrides.
  if (!options.use_installed_plugins) {
    apply_plugins_section({{"use_installed", false}}, source, config);
  }
  for (const auto& [name, text] : options.plugin_options) {
    const nlohmann::json parsed =
        parse_json(text, source, pointer_child("/plugins/options", name));
    apply_plugins_section({{"options", {{name, parsed}}}}, source, config);
  }
  if (options.disabled_plugins) {
    apply_plugins_section({{"disabled", *options.disabled_plugins}}, source, config);
  }
  if (options.probe_plugins) {
    apply_plugins_section({{"probe", *options.probe_plugins}}, source, config);
  }
  if (options.log_device_placement) {
    apply_log_device_placement(*options.log_device_placement, source, config);
  }
  if (options.log_level) apply_log_level(json_of(*options.log_level), source, config);
  if (options.soft_placement) {
    apply_placement_section({{"soft_placement", json_of(*options.soft_placement)}}, source,
                            config);
  }
  if (options.tensor_device) {
    apply_placement_section({{"tensor_device", *options.tensor_device}}, source, config);
  }
  if (options.device_priority) {
    apply_placement_section({{"device_priority", *options.device_priority}}, source, config);
  }
  if (options.inter_op_threads) {
    apply_execution_section({{"inter_op_threads", *options.inter_op_threads}}, source, config);
  }
  if (options.intra_op_threads) {
    apply_execution_section({{"intra_op_threads", *options.intra_op_threads}}, source, config);
  }
}

}  // namespace hxrt::detail
