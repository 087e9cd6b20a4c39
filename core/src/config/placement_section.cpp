// The placement settings' own checks, beyond the kinds of their rows in settings_table.cpp.
#include <cctype>

#include "base/device_name.hpp"
#include "config/config_sections.hpp"
#include "config/json_checks.hpp"
#include "config/json_pointer.hpp"
#include "config/message_text.hpp"
#include "config/setting_reader.hpp"
#include "hxrt/error.hpp"

namespace hxrt::detail {

void check_device_types(const nlohmann::json& types, const std::string& source,
                        const std::string& path) {
  for (size_t i = 0; i < types.size(); ++i) {
    std::string type = types[i].get<std::string>();
    for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    bool valid = !type.empty() && std::isupper(static_cast<unsigned char>(type[0]));
    for (char c : type) {
      valid = valid && (std::isupper(static_cast<unsigned char>(c)) ||
                        std::isdigit(static_cast<unsigned char>(c)) || c == '_');
    }
    if (!valid) {
      fail(source, pointer_child(path, i),
           "expected a device type like \"GPU\" ([A-Z][A-Z0-9_]*), got \"" + shown(type) +
               "\"");
    }
  }
}

// Whether the device exists is known only once the devices are set up, when the first tensor
// needs it; here only the name's form is checked.
void check_device_name(const nlohmann::json& name, const std::string& source,
                       const std::string& path) {
  try {
    parse_device_name(name.get<std::string>());
  } catch (const Error& e) {
    fail(source, path, e.what());
  }
}

SoftPlacement read_soft_placement(const nlohmann::json& mode, const std::string& source) {
  Config scratch;
  apply_setting(*find_setting("/placement/soft_placement"), mode, source, scratch);
  return scratch.soft_placement;
}

nlohmann::json json_of(SoftPlacement mode) {
  switch (mode) {
    case SoftPlacement::kStrict:
    case SoftPlacement::kFallbackOnMissingKernel:
    case SoftPlacement::kSoft:
      return soft_placement_name(mode);
  }
  return static_cast<int64_t>(mode);
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

}  // namespace hxrt::detail
