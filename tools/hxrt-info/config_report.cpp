#include "config_report.hpp"

#include "hxtools/text_table.hpp"

namespace hxrt_info {

void print_config_text(std::ostream& out, const std::vector<hxrt::ConfigSetting>& settings) {
  out << "Configuration: " << settings.size() << " settings\n";
  if (settings.empty()) return;
  hxtools::TextTable table({"PATH", "VALUE", "SOURCE"});
  for (const hxrt::ConfigSetting& setting : settings) {
    table.add_row({setting.path, setting.value, setting.source});
  }
  table.print(out, "  ");
}

nlohmann::ordered_json config_json(const std::vector<hxrt::ConfigSetting>& settings) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const hxrt::ConfigSetting& setting : settings) {
    array.push_back({{"path", setting.path},
                     {"value", nlohmann::ordered_json::parse(setting.value)},
                     {"source", setting.source}});
  }
  return array;
}

}  // namespace hxrt_info
