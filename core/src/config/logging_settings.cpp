#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void apply_log_device_placement(const nlohmann::json& value, const std::string& source,
                                Config& config) {
  config.log_device_placement = read_bool(value, source, "/log_device_placement");
  config.origins["/log_device_placement"] = source;
}

nlohmann::json json_of(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
    case LogLevel::kInfo:
    case LogLevel::kWarning:
    case LogLevel::kError:
      return log_level_name(level);
  }
  return static_cast<int64_t>(level);
}

void apply_log_level(const nlohmann::json& value, const std::string& source, Config& config) {
  try {
    if (value.is_string()) {
      config.log_level = parse_log_level(value.get<std::string>());
      config.origins["/log_level"] = source;
      return;
    }
  } catch (const Error&) {
    // parse_log_level's message quotes the whole value; type_of shortens it.
  }
  fail(source, "/log_level",
       "expected one of \"debug\", \"info\", \"warning\", \"error\" (any case), got " +
           type_of(value));
}

}  // namespace hxrt::detail
