#include "config/device_keys.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <regex>

#include "config/json_checks.hpp"
#include "config/message_text.hpp"

namespace hxrt::detail {

// The prefixes' letters are spelled out in both cases: JSON Schema patterns (ECMA 262) have no
// case-insensitive flag, and these strings are the schema's.
const char* const kDeviceTypePattern =
    "^/?(?:(?:[Dd][Ee][Vv][Ii][Cc][Ee]|"
    "[Pp][Hh][Yy][Ss][Ii][Cc][Aa][Ll]_[Dd][Ee][Vv][Ii][Cc][Ee]):)?"
    "([A-Za-z][A-Za-z0-9_]*)$";
const char* const kPhysicalDevicePattern =
    "^/?(?:(?:[Dd][Ee][Vv][Ii][Cc][Ee]|"
    "[Pp][Hh][Yy][Ss][Ii][Cc][Aa][Ll]_[Dd][Ee][Vv][Ii][Cc][Ee]):)?"
    "([A-Za-z][A-Za-z0-9_]*):([0-9]+)$";

namespace {

const std::string kForms =
    "(any case; \"/GPU:0\", \"/device:GPU:0\" and \"/physical_device:GPU:0\" also do; an index "
    "is at most 2147483647; at most " + std::to_string(kMaxDeviceNameBytes) + " characters)";

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string DeviceKey::canonical() const {
  return names_device() ? type + ":" + std::to_string(index) : type;
}

std::optional<DeviceKey> parse_device_key(const std::string& text) {
  static const std::regex type_only(kDeviceTypePattern);
  static const std::regex device(kPhysicalDevicePattern);
  if (text.size() > kMaxDeviceNameBytes) return std::nullopt;
  std::smatch match;
  if (std::regex_match(text, match, type_only)) return DeviceKey{upper(match[1].str()), -1};
  if (!std::regex_match(text, match, device)) return std::nullopt;
  // Leading zeros are skipped so that only the value's digits count towards INT_MAX.
  const std::string digits = match[2].str();
  const std::string value =
      digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
  if (value.size() > 10 || std::stoll(value) > INT_MAX) return std::nullopt;
  return DeviceKey{upper(match[1].str()), static_cast<int>(std::stoll(value))};
}

DeviceKey read_device_key(const std::string& text, const std::string& source,
                          const std::string& path) {
  std::optional<DeviceKey> key = parse_device_key(text);
  if (!key) {
    fail(source, path,
         "expected a device type like \"GPU\" or a physical device like \"GPU:0\" " +
             kForms + ", got \"" + shown(text) + "\"");
  }
  return *key;
}

DeviceKey read_physical_device(const std::string& text, const std::string& source,
                               const std::string& path) {
  std::optional<DeviceKey> key = parse_device_key(text);
  if (!key) {
    fail(source, path,
         "expected a physical device like \"GPU:0\" " + kForms + ", got \"" +
             shown(text) + "\"");
  }
  if (!key->names_device()) {
    fail(source, path,
         "expected a physical device like \"" + shown(key->type) + ":0\", got \"" +
             shown(text) + "\", which names a whole device type; list its devices one by one");
  }
  return *key;
}

void check_device_count_key(const DeviceKey& key, const std::string& source,
                            const std::string& path) {
  if (key.names_device()) {
    fail(source, path,
         "device_count limits how many devices of a type are used, so it belongs under the "
         "type: \"devices\": {\"" + shown(key.type) + "\": {\"device_count\": N}}");
  }
}

void check_logical_devices_key(const DeviceKey& key, const std::string& source,
                               const std::string& path) {
  if (!key.names_device()) {
    fail(source, path,
         "logical devices split one physical device, so \"logical\" belongs under a device: "
         "\"devices\": {\"" + shown(key.type) + ":0\": {\"logical\": [...]}}");
  }
}

}  // namespace hxrt::detail
