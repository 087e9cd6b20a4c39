#include <filesystem>

#include "config/config_file_reading.hpp"
#include "config/config_layers.hpp"
#include "config/json_checks.hpp"
#include "config/json_text.hpp"
#include "config/setting_reader.hpp"

namespace hxrt::detail {

void apply_config_text(const std::string& text, const std::string& source, Config& config) {
  const std::string origin = "file " + source;
  const nlohmann::json root = parse_json(text, origin);
  if (!root.is_object()) fail(origin, "", "expected a JSON object, got " + type_of(root));
  apply_section("", root, origin, config);
}

void apply_config_file(const std::string& path, const std::string& named_by, Config& config) {
  const std::string text = read_config_file(path, named_by);
  config.file = path;
  apply_config_text(text, path, config);
  // Relative plugin paths in a file mean "next to this file", wherever the program runs.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  for (auto* list : {&config.plugin_libraries, &config.plugin_search_paths}) {
    for (std::string& entry : *list) {
      if (std::filesystem::path(entry).is_relative()) entry = (folder / entry).string();
    }
  }
}

}  // namespace hxrt::detail
