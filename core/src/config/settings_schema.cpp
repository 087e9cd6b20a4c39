#include "config/settings_schema.hpp"

#include <cctype>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/device_keys.hpp"
#include "config/json_layout.hpp"
#include "config/setting_groups.hpp"
#include "config/setting_reader.hpp"
#include "config/settings_table.hpp"

namespace hxrt::detail {
namespace {

using nlohmann::ordered_json;
using Kind = SettingKind;

std::vector<std::string> tokens_of(const std::string& path) {
  std::vector<std::string> tokens;
  std::stringstream stream(path.substr(1));
  std::string token;
  while (std::getline(stream, token, '/')) tokens.push_back(token);
  return tokens;
}

// A bound as the config author writes it: the schema reads 1, not 1.0.
ordered_json number(double value) { return ordered_json::parse(bound_text(value)); }

// Names in any case: JSON Schema patterns (ECMA 262) have no case-insensitive flag.
std::string any_case_pattern(const std::vector<std::string>& names) {
  std::string alternatives;
  for (const std::string& name : names) {
    if (!alternatives.empty()) alternatives += '|';
    for (char c : name) {
      const auto byte = static_cast<unsigned char>(c);
      if (std::isalpha(byte)) {
        alternatives += {'[', static_cast<char>(std::toupper(byte)),
                         static_cast<char>(std::tolower(byte)), ']'};
      } else {
        if (!std::isalnum(byte) && c != '_') alternatives += '\\';
        alternatives += c;
      }
    }
  }
  return "^(?:" + alternatives + ")$";
}

ordered_json described(const std::string& markdown) {
  return {{"description", without_links(markdown)}};
}

// An object of named settings, which takes no other keys.
ordered_json group_schema(const std::string& path) {
  ordered_json group = described(group_description(path));
  group["type"] = "object";
  group["additionalProperties"] = false;
  group["properties"] = ordered_json::object();
  return group;
}

ordered_json ref(const std::string& def) { return {{"$ref", "#/$defs/" + def}}; }

ordered_json setting_schema(const SettingRow& row) {
  ordered_json schema = described(row.description);
  switch (row.kind) {
    case Kind::kBool:
      schema["type"] = "boolean";
      break;
    case Kind::kInteger:
      schema["type"] = "integer";
      schema["minimum"] = number(row.min);
      schema["maximum"] = number(row.max);
      break;
    case Kind::kNumber:
      schema["type"] = "number";
      schema[row.exclusive_min ? "exclusiveMinimum" : "minimum"] = number(row.min);
      schema[row.exclusive_max ? "exclusiveMaximum" : "maximum"] = number(row.max);
      break;
    case Kind::kString:
      schema["type"] = "string";
      if (row.min_length > 0) schema["minLength"] = row.min_length;
      break;
    case Kind::kEnum:
      if (row.any_case) {  // a pattern, with the names as examples an editor offers
        schema["type"] = "string";
        schema["pattern"] = any_case_pattern(row.names);
        schema["examples"] = row.names;
      } else {
        schema["enum"] = row.names;
      }
      break;
    case Kind::kStringList:
      schema["type"] = "array";
      schema["items"] = {{"type", "string"}};
      break;
    case Kind::kObject:
      schema["type"] = "object";
      break;
    case Kind::kObjectList:
      schema["type"] = "array";
      schema["items"] = {{"type", "object"}};
      break;
  }
  for (const auto& keyword : row.schema.items()) schema[keyword.key()] = keyword.value();
  // "null": no default, which the schema says by giving none.
  if (row.default_json != "null") schema["default"] = ordered_json::parse(row.default_json);
  return schema;
}

// A row of /<section>/<key>/<plugin name>: the key holds one such value per plugin.
ordered_json map_schema(const SettingRow& row) {
  ordered_json schema = described(row.description);
  ordered_json value = setting_schema(row);
  value.erase("description");
  schema["type"] = "object";
  schema["additionalProperties"] = value;
  return schema;
}

[[noreturn]] void unknown_shape(const SettingRow& row) {
  throw std::logic_error("the config schema has no place for " + row.path +
                         ": draw its shape in core/src/config/settings_schema.cpp");
}

// growth and preallocate name one choice twice: given together, they must disagree.
ordered_json contradiction() {
  ordered_json cases = ordered_json::array();
  for (bool both : {true, false}) {
    cases.push_back({{"required", {"growth", "preallocate"}},
                     {"properties", {{"growth", {{"const", both}}},
                                     {"preallocate", {{"const", both}}}}}});
  }
  return {{"description", "growth and preallocate both given and equal contradict each other."},
          {"anyOf", cases}};
}

// "devices": keys that name a type or a device, in the loader's own grammar, each holding
// the settings of its kind; the memory policy, which both kinds take, is defined once.
void add_devices(ordered_json& properties, ordered_json& defs) {
  ordered_json type_settings = group_schema("/devices/<type>");
  ordered_json device_settings = group_schema("/devices/<device>");
  ordered_json memory_policy = group_schema("/devices/<type or device>/memory");
  type_settings["properties"]["memory"] = ref("memory_policy");
  device_settings["properties"]["memory"] = ref("memory_policy");
  for (const SettingRow& row : setting_rows()) {
    if (row.path.rfind("/devices/", 0) != 0) continue;
    const std::vector<std::string> tokens = tokens_of(row.path);
    if (tokens.size() == 4 && tokens[1] == "<type or device>" && tokens[2] == "memory") {
      memory_policy["properties"][tokens[3]] = setting_schema(row);
    } else if (tokens.size() == 3 && tokens[1] == "<type>") {
      type_settings["properties"][tokens[2]] = setting_schema(row);
    } else if (tokens.size() == 3 && tokens[1] == "<device>") {
      device_settings["properties"][tokens[2]] = setting_schema(row);
    } else {
      unknown_shape(row);
    }
  }
  memory_policy["not"] = contradiction();

  ordered_json devices = described(group_description("/devices"));
  devices["type"] = "object";
  devices["propertyNames"] = {{"maxLength", kMaxDeviceNameBytes}};
  devices["patternProperties"] = {{kDeviceTypePattern, ref("type_settings")},
                                  {kPhysicalDevicePattern, ref("device_settings")}};
  devices["additionalProperties"] = false;
  properties["devices"] = devices;
  defs["type_settings"] = type_settings;
  defs["device_settings"] = device_settings;
  defs["memory_policy"] = memory_policy;
}

}  // namespace

std::string without_links(const std::string& markdown) {
  static const std::regex link(R"(\[([^\]\[]*)\]\([^)\s]*\))");
  return std::regex_replace(markdown, link, "$1");
}

std::string settings_schema_text() {
  ordered_json root;
  root["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  root["$comment"] = std::string("Generated from core/src/config/settings_table.cpp by `") +
                     kUpdateConfigReference + "`: edit the table, not this file.";
  root["title"] = kConfigSchemaTitle;
  root["description"] = without_links(group_description(""));
  root["type"] = "object";
  root["additionalProperties"] = false;
  ordered_json properties = ordered_json::object();
  ordered_json defs = ordered_json::object();
  ordered_json device_name = described(group_description("/visible_devices/<item>"));
  device_name["type"] = "string";
  device_name["maxLength"] = kMaxDeviceNameBytes;
  device_name["pattern"] = kPhysicalDevicePattern;
  defs["physical_device_name"] = device_name;

  for (const SettingRow& row : setting_rows()) {
    if (!row.file_setting()) continue;
    const std::vector<std::string> tokens = tokens_of(row.path);
    if (tokens[0] == "devices") {
      if (!properties.contains("devices")) add_devices(properties, defs);
    } else if (tokens.size() == 1) {
      properties[tokens[0]] = setting_schema(row);
    } else {
      ordered_json& section = properties[tokens[0]];
      if (section.is_null()) section = group_schema("/" + tokens[0]);
      if (tokens.size() == 2) {
        section["properties"][tokens[1]] = setting_schema(row);
      } else if (tokens.size() == 3 && tokens[2] == "<plugin name>") {
        section["properties"][tokens[1]] = map_schema(row);
      } else {
        unknown_shape(row);
      }
    }
  }
  root["properties"] = properties;
  root["$defs"] = defs;
  return laid_out_json(root) + "\n";
}

}  // namespace hxrt::detail
