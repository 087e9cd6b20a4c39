// The settings table: every config setting is one row, with its JSON path, its environment
// variable, its type and range, its default and its description. The config file's sections,
// the environment, RuntimeOptions and the effective-config dump all iterate it, and the config
// reference is generated from it: config/hxrt.schema.json (settings_schema.hpp) and the
// settings table of docs/configuration.md (settings_markdown.hpp), with what the table does
// not hold, the sections' own descriptions, in setting_groups.hpp. So adding a setting is one
// row plus the code that acts on its value, then
//   cmake --build build --target update_config_reference
// to rewrite both files, which are committed; a test fails while they differ from the table.
//
// A row read by the generic reader (setting_reader.hpp) has `apply`: the reader checks the
// value against the row's kind and range, then `check` if any, then `apply` lands it in
// Config and the reader records its origin. A row without `apply` belongs to a structured
// part (plugin options, the per-device "devices" section) that keeps its own reader and dump;
// its row is there for the schema, the docs and the section's list of keys. Such paths hold
// placeholders: <plugin name>, <type>, <device>, <type or device>.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.hpp"

namespace hxrt::detail {

// The config file's own variable: it names the file, so it is no setting and has no row.
constexpr const char* kConfigFileVariable = "HXRT_CONFIG";

// The command that rewrites the generated config reference in the source tree (a target of
// tools/hxrt-info/CMakeLists.txt), which the generated files and the test that compares them
// with the table name.
constexpr const char* kUpdateConfigReference =
    "cmake --build build --target update_config_reference";

enum class SettingKind {
  kBool,
  kInteger,     // min to max
  kNumber,      // min to max, each bound exclusive or not
  kString,      // at least min_length bytes
  kEnum,        // one of names, any case when any_case
  kStringList,  // a list of strings
  kObject,      // structured: an object its own reader checks
  kObjectList,  // structured: a list of objects its own reader checks
};

struct SettingRow {
  // A JSON pointer into the file's layout ("/placement/placer"), or /env/<VARIABLE> for what
  // only the environment gives, or /api/<field> for what only RuntimeOptions gives.
  std::string path;
  const char* env = nullptr;  // the HXRT_* variable that overrides it; nullptr: none
  SettingKind kind = SettingKind::kBool;
  double min = 0;
  double max = 0;
  bool exclusive_min = false;
  bool exclusive_max = false;
  size_t min_length = 0;
  std::vector<std::string> names;
  bool any_case = false;
  std::string default_json;  // JSON text; "null": none (all devices, no limit, unset)
  // What the setting does, on one line, in restricted markdown (`code`, [links](page.md)): the
  // docs show it as it is, the schema with each link reduced to its text.
  std::string description;
  // The docs' name for the value where the kind's own ("integer", "array of strings") says
  // too little ("array of device types"); the range and the default are added to it.
  std::string type_text;
  // JSON Schema keywords beyond what the kind, the range and the names give (an item's
  // pattern, uniqueness, a structured row's shape), merged into the setting's schema.
  nlohmann::ordered_json schema;
  // What an error says after "expected ", where the kind's own text (setting_reader.hpp)
  // does not say enough; "": the kind's.
  std::string expected;

  // The loader's own checks beyond the kind and the range (device names, plugin names), run
  // before the range so that their message wins.
  void (*check)(const nlohmann::json& value, const std::string& source,
                const std::string& path) = nullptr;
  // Lands a checked value in Config; nullptr: a structured row, read by its section.
  void (*apply)(const nlohmann::json& value, const std::string& source, Config& config) = nullptr;
  // The effective value for the dump; nullptr: a structured row, shown by its section.
  nlohmann::json (*value)(const Config& config) = nullptr;
  // The value RuntimeOptions gives, as the file's JSON; nullopt when the option is not set.
  std::optional<nlohmann::json> (*from_options)(const RuntimeOptions& options) = nullptr;
  // The variable's text as the file's JSON; nullptr: the kind's reading (environment_text.hpp).
  nlohmann::json (*from_env)(const std::string& text) = nullptr;
  // A structured row's reader, given the whole value of the key that holds the row ("devices"
  // for /devices/<type>/device_count); the rows of one key share it.
  void (*read)(const nlohmann::json& value, const std::string& source, Config& config) = nullptr;

  bool structured() const { return apply == nullptr; }
  bool file_setting() const { return path.rfind("/env/", 0) != 0 && path.rfind("/api/", 0) != 0; }
};

// Every row, in the order of config/hxrt.schema.json and of the dump.
const std::vector<SettingRow>& setting_rows();

// The row at `path`; nullptr when there is none.
const SettingRow* find_setting(const std::string& path);

}  // namespace hxrt::detail
