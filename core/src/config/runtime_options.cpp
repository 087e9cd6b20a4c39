// The API layer: RuntimeOptions, over the file and the environment. Each row of the settings
// table with from_options gives its option's value as the file's JSON, checked as the file's.
#include "config/config_layers.hpp"
#include "config/json_pointer.hpp"
#include "config/json_text.hpp"
#include "config/setting_reader.hpp"
#include "config/settings_table.hpp"

namespace hxrt::detail {

void apply_runtime_options(const RuntimeOptions& options, Config& config) {
  const std::string source = "API";
  // Structured: one object per plugin, each given as JSON text.
  for (const auto& [name, text] : options.plugin_options) {
    const nlohmann::json parsed =
        parse_json(text, source, pointer_child("/plugins/options", name));
    apply_section("/plugins", {{"options", {{name, parsed}}}}, source, config);
  }
  for (const SettingRow& row : setting_rows()) {
    if (row.from_options == nullptr) continue;
    if (auto value = row.from_options(options)) apply_setting(row, *value, source, config);
  }
}

}  // namespace hxrt::detail
