// The settings table (core/src/config/settings_table.hpp) against everything that describes
// the settings apart from it: the committed config reference generated from it
// (config/hxrt.schema.json and the settings table of docs/configuration.md, which must be the
// generator's output to the byte), the hand-written table of variables in the same page,
// Config's own defaults, and the variables CTest clears.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/setting_reader.hpp"
#include "config/settings_markdown.hpp"
#include "config/settings_schema.hpp"
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

// Where `committed` and `generated` first differ, by line, for a message that stays short.
std::string first_difference(const std::string& committed, const std::string& generated) {
  std::stringstream left(committed);
  std::stringstream right(generated);
  std::string a;
  std::string b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(left, a));
    const bool more_b = static_cast<bool>(std::getline(right, b));
    if (!more_a && !more_b) return "they differ in line endings";
    if (!more_a || !more_b || a != b) {
      return "line " + std::to_string(line) + " is\n  " + (more_a ? a : "(the end)") +
             "\nand should be\n  " + (more_b ? b : "(the end)");
    }
  }
}

void check_generated(const std::string& file, const std::string& committed,
                     const std::string& generated) {
  if (committed == generated) return;
  FAIL_CHECK(file << " is not what the settings table (core/src/config/settings_table.cpp) "
                     "generates; rewrite it with\n  "
                  << hxrt::detail::kUpdateConfigReference << "\nand commit it. "
                  << first_difference(committed, generated));
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

TEST_CASE("the committed config reference is the settings table's") {
  check_generated("config/hxrt.schema.json", source_text("config/hxrt.schema.json"),
                  hxrt::detail::settings_schema_text());
  const std::string page = source_text("docs/configuration.md");
  const std::optional<std::string> generated = hxrt::detail::with_settings_table(page);
  INFO("docs/configuration.md needs the lines " << hxrt::detail::kSettingsTableBegin << " and "
                                                << hxrt::detail::kSettingsTableEnd);
  REQUIRE(generated);
  check_generated("docs/configuration.md", page, *generated);
}

// The table of variables is written by hand, as each variable's text says how it is written
// (comma-separated, a flag), which the rows do not hold.
TEST_CASE("docs/configuration.md's variables are the settings table's") {
  const std::vector<std::string> lines = lines_of(source_text("docs/configuration.md"));
  for (const SettingRow& row : setting_rows()) {
    INFO(row.path);
    if (row.path.rfind("/api/", 0) == 0) {
      CHECK(source_text("docs/configuration.md")
                .find("`RuntimeOptions::" + row.path.substr(5) + "`") != std::string::npos);
    }
    if (row.env == nullptr) continue;
    const std::string line = docs_line(lines, row.env);
    INFO(line);
    REQUIRE_FALSE(line.empty());
    if (row.file_setting()) {
      CHECK(line.find("overrides `" + dotted(row.path) + "`") != std::string::npos);
    }
  }
  const std::set<std::string> variables = table_variables();
  std::string section;
  for (const std::string& line : lines) {
    if (line.rfind("## ", 0) == 0) section = line;
    if (section != "## Environment variables" || line.rfind("| `", 0) != 0) continue;
    const std::string key = line.substr(3, line.find('`', 3) - 3);
    INFO(key);
    CHECK(variables.count(key) == 1);
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
