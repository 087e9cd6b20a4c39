#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void apply_log_device_placement(const nlohmann::json& value, const std::string& source,
                                Config& config) {
  config.log_device_placement = read_bool(value, source, "/log_device_placement");
  config.origins["/log_device_placement"] = source;
}

void apply_log_level(const nlohmann::json& value, const std::string& source, Config& config) {
  if (!value.is_string()) {
    fail(source, "/log_level",
         "expected one of \"debug\", \"info\", \"warning\", \"error\", got " + type_of(value));
  }
  try {
    config.log_level = parse_log_level(value.get<std::string>());
  } catch (const Error& e) {
    fail(source, "/log_level", e.what());
  }
  config.origins["/log_level"] = source;
}

}  // namespace hxrt::detail
