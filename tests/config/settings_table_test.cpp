// The settings table (core/src/config/settings_table.hpp) against everything that describes
// the settings apart from it: config/hxrt.schema.json, docs/configuration.md, Config's own
// defaults, and the variables CTest clears. A row added without its schema entry, its docs
// line or its variable's place fails here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/device_keys.hpp"
#include "config/setting_reader.hpp"
#include "config/settings_table.hpp"
#include "scoped_environment.hpp"

using hxrt::detail::SettingKind;
using hxrt::detail::SettingRow;
using hxrt::detail::setting_rows;
using nlohmann::json;

namespace {

std::string source_text(const std::string& relative) {
  std::ifstream in(std::string(HXRT_TEST_SOURCE_DIR) + "/" + relative);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> tokens_of(const std::string& path) {
  std::vector<std::string> tokens;
  std::stringstream stream(path.substr(1));
  std::string token;
  while (std::getline(stream, token, '/')) tokens.push_back(token);
  return tokens;
}

// `node` with its $ref followed: the definition, under the node's own keywords (a
// description beside a $ref).
json resolved(const json& root, const json& node) {
  if (!node.is_object() || !node.contains("$ref")) return node;
  const std::string name = node["$ref"].get<std::string>().substr(std::string("#/$defs/").size());
  json merged = resolved(root, root["$defs"][name]);
  for (const auto& item : node.items()) {
    if (item.key() != "$ref") merged[item.key()] = item.value();
  }
  return merged;
}

// The schemas a row's path leads to: two for a <type or device> row, one otherwise, none
// when the schema lacks it.
std::vector<json> schemas_at(const json& root, const std::string& path) {
  std::vector<json> nodes{root};
  for (const std::string& token : tokens_of(path)) {
    std::vector<json> next;
    for (const json& node : nodes) {
      const json patterns = node.value("patternProperties", json::object());
      if (token == "<type>" || token == "<type or device>") {
        if (patterns.contains(hxrt::detail::kDeviceTypePattern)) {
          next.push_back(resolved(root, patterns[hxrt::detail::kDeviceTypePattern]));
        }
      }
      if (token == "<device>" || token == "<type or device>") {
        if (patterns.contains(hxrt::detail::kPhysicalDevicePattern)) {
          next.push_back(resolved(root, patterns[hxrt::detail::kPhysicalDevicePattern]));
        }
      }
      if (token == "<plugin name>" && node.value("additionalProperties", json()).is_object()) {
        next.push_back(resolved(root, node["additionalProperties"]));
      }
      if (node.contains("properties") && node["properties"].contains(token)) {
        next.push_back(resolved(root, node["properties"][token]));
      }
    }
    nodes = next;
  }
  return nodes;
}

// Every leaf of the schema (a value that holds no named keys of its own), as a row's path.
void collect_leaves(const json& root, const json& node, const std::string& path,
                    std::vector<std::string>& out) {
  const json schema = resolved(root, node);
  bool inner = false;
  // Held here: a loop over items() of a temporary would read it after its end.
  const json properties = schema.value("properties", json::object());
  const json patterns = schema.value("patternProperties", json::object());
  for (const auto& item : properties.items()) {
    collect_leaves(root, item.value(), path + "/" + item.key(), out);
    inner = true;
  }
  for (const auto& item : patterns.items()) {
    const bool type = item.key() == hxrt::detail::kDeviceTypePattern;
    collect_leaves(root, item.value(), path + (type ? "/<type>" : "/<device>"), out);
    inner = true;
  }
  if (schema.value("additionalProperties", json()).is_object()) {
    collect_leaves(root, schema["additionalProperties"], path + "/<plugin name>", out);
    inner = true;
  }
  if (!inner) out.push_back(path);
}

void check_schema_matches(const json& root, const SettingRow& row, const json& schema) {
  INFO(row.path << " in the schema: " << schema.dump());
  switch (row.kind) {
    case SettingKind::kBool:
      CHECK(schema.value("type", "") == "boolean");
      break;
    case SettingKind::kInteger:
      CHECK(schema.value("type", "") == "integer");
      CHECK(schema.value("minimum", json()) == json(row.min));
      CHECK(schema.value("maximum", json()) == json(row.max));
      break;
    case SettingKind::kNumber:
      CHECK(schema.value("type", "") == "number");
      CHECK(schema.value(row.exclusive_min ? "exclusiveMinimum" : "minimum", json()) ==
            json(row.min));
      CHECK(schema.value(row.exclusive_max ? "exclusiveMaximum" : "maximum", json()) ==
            json(row.max));
      break;
    case SettingKind::kString:
      CHECK(schema.value("type", "") == "string");
      CHECK(schema.value("minLength", size_t{0}) == row.min_length);
      break;
    case SettingKind::kEnum:
      if (row.any_case) {  // a pattern that takes any case; its examples are the names
        CHECK(schema.value("type", "") == "string");
        CHECK(schema.contains("pattern"));
        CHECK(schema.value("examples", json()) == json(row.names));
      } else {
        CHECK(schema.value("enum", json()) == json(row.names));
      }
      break;
    case SettingKind::kStringList:
      CHECK(schema.value("type", "") == "array");
      CHECK(resolved(root, schema.value("items", json::object())).value("type", "") ==
                "string");
      break;
    case SettingKind::kObject:
      CHECK(schema.value("type", "") == "object");
      break;
    case SettingKind::kObjectList:
      CHECK(schema.value("type", "") == "array");
      CHECK(schema["items"].value("type", "") == "object");
      break;
  }
  // "null": none, which the schema shows by giving no default.
  if (row.default_json == "null") {
    CHECK_FALSE(schema.contains("default"));
  } else {
    CHECK(schema.value("default", json()) == json::parse(row.default_json));
  }
}

// The docs' name of a file setting: "devices.<type>.device_count".
std::string dotted(const std::string& path) {
  std::string key = path.substr(1);
  for (char& c : key) {
    if (c == '/') c = '.';
  }
  return key;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

// The table line of the docs whose first cell is `key` in backticks; "" when there is none.
std::string docs_line(const std::vector<std::string>& lines, const std::string& key) {
  for (const std::string& line : lines) {
    if (line.rfind("| `" + key + "` |", 0) == 0) return line;
  }
  return "";
}

// The variable names written as string literals in `text`: what cleared_environment.cmake
// finds.
std::set<std::string> quoted_variables(const std::string& text) {
  std::set<std::string> names;
  const std::regex quoted("\"(HXRT_[A-Z0-9_]+)\"");
  for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it) {
    names.insert((*it)[1]);
  }
  return names;
}

std::set<std::string> table_variables() {
  std::set<std::string> names{hxrt::detail::kConfigFileVariable};
  for (const SettingRow& row : setting_rows()) {
    if (row.env != nullptr) names.insert(row.env);
  }
  return names;
}

}  // namespace

TEST_CASE("every row of the settings table is in the schema, with its type, range and default") {
  const json root = json::parse(source_text("config/hxrt.schema.json"));
  for (const SettingRow& row : setting_rows()) {
    if (!row.file_setting()) continue;  // /env/ and /api/: not in the file
    const std::vector<json> schemas = schemas_at(root, row.path);
    INFO(row.path);
    CHECK(schemas.size() == (row.path.find("<type or device>") != std::string::npos ? 2u : 1u));
    for (const json& schema : schemas) check_schema_matches(root, row, schema);
  }
}

TEST_CASE("every leaf of the schema is a row of the settings table") {
  const json root = json::parse(source_text("config/hxrt.schema.json"));
  std::vector<std::string> leaves;
  collect_leaves(root, root, "", leaves);
  CHECK(leaves.size() > 25);
  for (const std::string& leaf : leaves) {
    std::string either = leaf;
    for (const char* placeholder : {"<type>", "<device>"}) {
      const size_t at = either.find(placeholder);
      if (at != std::string::npos && either.find("/memory/") != std::string::npos) {
        either.replace(at, std::string(placeholder).size(), "<type or device>");
      }
    }
    INFO(leaf);
    CHECK((hxrt::detail::find_setting(leaf) != nullptr ||
           hxrt::detail::find_setting(either) != nullptr));
  }
}

TEST_CASE("docs/configuration.md lists every row, with its default and its variable") {
  const std::vector<std::string> lines = lines_of(source_text("docs/configuration.md"));
  const std::string text = source_text("docs/configuration.md");
  for (const SettingRow& row : setting_rows()) {
    INFO(row.path);
    if (row.path.rfind("/api/", 0) == 0) {
      CHECK(text.find("`RuntimeOptions::" + row.path.substr(5) + "`") != std::string::npos);
      continue;
    }
    const bool env_only = row.path.rfind("/env/", 0) == 0;
    const std::string line = docs_line(lines, env_only ? std::string(row.env) : dotted(row.path));
    REQUIRE_FALSE(line.empty());
    if (row.default_json != "null" && row.default_json != "[]") {
      const std::string shown = "`" + row.default_json + "`";
      INFO(line);
      CHECK((line.find("default " + shown) != std::string::npos ||
             line.find(shown + " (default)") != std::string::npos));
    }
    if (row.env != nullptr && !env_only) {
      const std::string variable_line = docs_line(lines, row.env);
      INFO(variable_line);
      CHECK(variable_line.find("overrides `" + dotted(row.path) + "`") != std::string::npos);
    }
  }
}

TEST_CASE("every setting and variable the docs' tables list is a row of the settings table") {
  const std::vector<std::string> lines = lines_of(source_text("docs/configuration.md"));
  std::string section;
  const std::set<std::string> variables = table_variables();
  for (const std::string& line : lines) {
    if (line.rfind("## ", 0) == 0) section = line;
    if (line.rfind("| `", 0) != 0) continue;
    const std::string key = line.substr(3, line.find('`', 3) - 3);
    INFO(section << ": " << key);
    if (section == "## The settings") {
      std::string path = "/" + key;
      for (char& c : path) {
        if (c == '.') c = '/';
      }
      CHECK(hxrt::detail::find_setting(path) != nullptr);
    } else if (section == "## Environment variables") {
      CHECK(variables.count(key) == 1);
    }
  }
}

TEST_CASE("the variables CTest and the tests clear are the settings table's") {
  // cleared_environment.cmake reads the string literals of these two files.
  std::set<std::string> quoted;
  for (const char* file : {"settings_table.hpp", "settings_table.cpp"}) {
    for (const std::string& name :
         quoted_variables(source_text(std::string("core/src/config/") + file))) {
      quoted.insert(name);
    }
  }
  CHECK(quoted == table_variables());
  const std::set<std::string> cleared(config_test::kConfigEnvironment.begin(),
                                      config_test::kConfigEnvironment.end());
  CHECK(cleared == table_variables());
}

TEST_CASE("Config's defaults are the settings table's") {
  const std::vector<hxrt::ConfigSetting> settings =
      hxrt::detail::effective_settings(hxrt::detail::Config{});
  for (const SettingRow& row : setting_rows()) {
    INFO(row.path);
    std::string path = row.path;
    if (row.structured()) {
      if (path.find("/memory/preallocate") != std::string::npos) continue;  // not shown
      if (path.rfind("/plugins/options/", 0) == 0) continue;  // none: "/plugins/options" {}
      path = "/devices/*" + path.substr(path.find('>') + 1);
    }
    const auto found = std::find_if(settings.begin(), settings.end(),
                                    [&](const hxrt::ConfigSetting& s) { return s.path == path; });
    REQUIRE(found != settings.end());
    CHECK(json::parse(found->value) == json::parse(row.default_json));
  }
}

TEST_CASE("each row is complete for the layers that read it") {
  for (const SettingRow& row : setting_rows()) {
    INFO(row.path);
    CHECK_FALSE(row.description.empty());
    CHECK(row.description.find('\n') == std::string::npos);
    CHECK_NOTHROW(json::parse(row.default_json));
    // A structured row has a reader and nothing a generic layer would need.
    CHECK(row.structured() == (row.read != nullptr));
    if (row.structured()) {
      CHECK(row.env == nullptr);
      CHECK(row.from_options == nullptr);
      CHECK(row.value == nullptr);
    } else {
      CHECK(row.value != nullptr);
    }
    if (row.env != nullptr && row.kind == SettingKind::kStringList) {
      CHECK(row.from_env != nullptr);
    }
    // A message written out for a range names the range's bounds.
    if (!row.structured() && row.kind == SettingKind::kInteger) {
      const std::string expected = hxrt::detail::expected_text(row);
      CHECK(expected.find(std::to_string(static_cast<int64_t>(row.min))) != std::string::npos);
      CHECK(expected.find(std::to_string(static_cast<int64_t>(row.max))) != std::string::npos);
    }
  }
}
