#include "config/settings_markdown.hpp"

#include <nlohmann/json.hpp>

#include "config/setting_reader.hpp"

namespace hxrt::detail {

const std::string kSettingsTableBegin =
    std::string("<!-- The settings table: generated from core/src/config/settings_table.cpp by `") +
    kUpdateConfigReference + "`; edit the rows there, not here. -->";
const std::string kSettingsTableEnd = "<!-- End of the generated settings table. -->";

namespace {

using nlohmann::json;
using Kind = SettingKind;

std::string code(const std::string& text) { return "`" + text + "`"; }

// The names of an enum, quoted as JSON, the default marked.
std::string names_text(const SettingRow& row) {
  const json fallback = json::parse(row.default_json);
  std::string text;
  for (const std::string& name : row.names) {
    if (!text.empty()) text += ", ";
    text += code(json(name).dump());
    if (fallback == name) text += " (default)";
  }
  return row.any_case ? text + ", any case" : text;
}

std::string kind_text(Kind kind) {
  switch (kind) {
    case Kind::kBool:
      return "bool";
    case Kind::kInteger:
      return "integer";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kEnum:
      return "";
    case Kind::kStringList:
      return "array of strings";
    case Kind::kObject:
      return "JSON object";
    case Kind::kObjectList:
      return "array of objects";
  }
  return "";
}

// "plugins.options.<plugin name>": the docs name a setting by its keys, dotted.
std::string dotted(const std::string& path) {
  std::string key = path.substr(1);
  for (char& c : key) {
    if (c == '/') c = '.';
  }
  return key;
}

// A cell holds no line break, and a pipe would end it.
std::string cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

}  // namespace

std::string settings_type_text(const SettingRow& row) {
  if (row.kind == Kind::kEnum) return names_text(row);
  std::string text = row.type_text.empty() ? kind_text(row.kind) : row.type_text;
  if (row.kind == Kind::kInteger) {
    text += " " + bound_text(row.min) + " to " + bound_text(row.max);
  } else if (row.kind == Kind::kNumber) {
    text += std::string(" in ") + (row.exclusive_min ? "(" : "[") + bound_text(row.min) +
            ", " + bound_text(row.max) + (row.exclusive_max ? ")" : "]");
  }
  // An empty list, like none, needs no saying.
  if (row.default_json != "null" && row.default_json != "[]") {
    text += ", default " + code(row.default_json);
  }
  return text;
}

std::string settings_table_markdown() {
  std::string table = "| key | type | meaning |\n| --- | --- | --- |\n";
  for (const SettingRow& row : setting_rows()) {
    if (!row.file_setting()) continue;  // /env/ and /api/: the file cannot hold them
    table += "| " + code(dotted(row.path)) + " | " + cell(settings_type_text(row)) + " | " +
             cell(row.description) + " |\n";
  }
  return table;
}

std::optional<std::string> with_settings_table(const std::string& page) {
  const std::string begin = kSettingsTableBegin + "\n";
  const std::string end = "\n" + kSettingsTableEnd + "\n";
  const size_t from = page.find(begin);
  if (from == std::string::npos) return std::nullopt;
  const size_t to = page.find(end, from + begin.size() - 1);
  if (to == std::string::npos) return std::nullopt;
  return page.substr(0, from + begin.size()) + settings_table_markdown() + page.substr(to + 1);
}

}  // namespace hxrt::detail
