// The environment layer: every row of the settings table that names a variable. Each value
// is read as the JSON the file would hold at the row's path (environment_text.hpp) and goes
// through the same reader, so it is checked the same way and names its JSON pointer.
#include <cstdlib>
#include <optional>

#include "config/config_layers.hpp"
#include "config/environment_text.hpp"
#include "config/setting_reader.hpp"
#include "config/settings_table.hpp"

namespace hxrt::detail {

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || trimmed(value).empty()) return std::nullopt;
  return std::string(value);
}

void apply_environment(Config& config) {
  for (const SettingRow& row : setting_rows()) {
    if (row.env == nullptr) continue;
    if (auto text = environment_variable(row.env)) {
      const std::string source = std::string("environment ") + row.env;
      apply_setting(row, environment_json(row, *text, source), source, config);
    }
  }
}

}  // namespace hxrt::detail
