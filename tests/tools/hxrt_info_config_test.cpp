// hxrt-info --config: every setting with its value and its source, as aligned text and as
// JSON, on split_gpus_config.json with HXRT_LOG_LEVEL set in the environment.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "json_output.hpp"
#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::any_element;
using hxrt_test::built_program;
using hxrt_test::field;
using hxrt_test::find_element;
using hxrt_test::Lines;
using hxrt_test::shell_quote;
using hxrt_test::Words;
using hxrt_test::words_of;
using nlohmann::json;

namespace {

std::string config_path(const char* name) {
  return hxrt_test::source_file(std::string("tests/tools/") + name);
}

std::string info_command(const std::string& environment, const std::string& arguments) {
  return hxrt_test::kCleanEnvironment + environment + " " + built_program("hxrt-info") + arguments;
}

// The environment of these tests: a config file, and one setting the environment overrides.
std::string file_and_environment() {
  return "HXRT_CONFIG=" + shell_quote(config_path("split_gpus_config.json")) +
         " HXRT_LOG_LEVEL=error";
}

// The row of `path` split into words: PATH VALUE SOURCE..., or empty when there is none.
Words row_of(const Lines& lines, const std::string& path) {
  for (const std::string& line : lines) {
    Words words = words_of(line);
    if (!words.empty() && words[0] == path) return words;
  }
  return {};
}

json setting(const json& settings, const std::string& path) {
  return find_element(settings, [&](const json& each) { return field(each, "path") == path; });
}

}  // namespace

TEST_CASE("hxrt-info --config lists each setting with its value and source") {
  const hxrt_test::ProgramResult result =
      hxrt_test::run_program(info_command(file_and_environment(), " --config 2>&1"));
  INFO("output:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  const Lines lines = hxrt_test::lines_of(result.output);
  REQUIRE(lines.size() > 2);
  CHECK(hxrt_test::starts_with(lines[0], "Configuration: "));
  CHECK(words_of(lines[1]) == Words{"PATH", "VALUE", "SOURCE"});

  const std::string file_source = "file " + config_path("split_gpus_config.json");
  CHECK(row_of(lines, "/log_level") ==
        Words{"/log_level", "\"error\"", "environment", "HXRT_LOG_LEVEL"});
  CHECK(row_of(lines, "/visible_devices") ==
        Words{"/visible_devices", "[\"GPU:0\"]", "file", config_path("split_gpus_config.json")});
  CHECK(row_of(lines, "/placement/soft_placement") ==
        Words{"/placement/soft_placement", "\"missing_kernel\"", "default"});
  // Aligned: every row's value starts in the column of the VALUE header.
  const size_t value_column = lines[1].find("VALUE");
  for (size_t i = 2; i < lines.size(); ++i) {
    INFO(lines[i]);
    CHECK(lines[i].find_first_not_of(' ', lines[i].find(' ', 2)) == value_column);
  }
}

TEST_CASE("hxrt-info --config names an environment variable that overrides the file") {
  const hxrt_test::ProgramResult result = hxrt_test::run_program(
      info_command(file_and_environment() + " HXRT_VISIBLE_DEVICES=GPU:1", " --config 2>&1"));
  INFO("output:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  CHECK(row_of(hxrt_test::lines_of(result.output), "/visible_devices") ==
        Words{"/visible_devices", "[\"GPU:1\"]", "environment", "HXRT_VISIBLE_DEVICES"});
}

TEST_CASE("hxrt-info --config --json prints an array of settings with parsed values") {
  const json settings =
      hxrt_test::run_json_program(info_command(file_and_environment(), " --config --json"));
  INFO("settings:\n" << settings.dump(2));
  REQUIRE(settings.is_array());
  CHECK_FALSE(any_element(settings, [](const json& each) {
    return !field(each, "path").is_string() || !field(each, "source").is_string() ||
           !each.contains("value");
  }));
  CHECK(setting(settings, "/log_level") ==
        json{{"path", "/log_level"}, {"value", "error"}, {"source", "environment HXRT_LOG_LEVEL"}});
  const json logical = setting(settings, "/devices/GPU:0/logical");
  CHECK(field(logical, "value") ==
        json::parse(R"([{"memory_limit_mb": 1024}, {"memory_limit_mb": 512}])"));
  CHECK(field(logical, "source") == "file " + config_path("split_gpus_config.json"));
  CHECK(field(setting(settings, "/log_device_placement"), "source") == "default");
}

TEST_CASE("hxrt-info --config shows a device setup that the report cannot apply") {
  const std::string environment =
      "HXRT_CONFIG=" + shell_quote(config_path("oversplit_gpu_config.json"));
  const hxrt_test::ProgramResult report =
      hxrt_test::run_program(info_command(environment, " 2>&1"));
  INFO("report:\n" << report.output);
  CHECK(report.exit_code == 1);
  CHECK(hxrt_test::contains(report.output, "GPU:0"));

  // --config does not initialise the devices, so the setup at fault can still be read.
  const hxrt_test::ProgramResult config =
      hxrt_test::run_program(info_command(environment, " --config 2>&1"));
  INFO("--config:\n" << config.output);
  CHECK(config.exit_code == 0);
  CHECK(hxrt_test::contains(config.output, "/devices/GPU:0/logical"));
}

TEST_CASE("hxrt-info --config with a bad config file exits 1") {
  const hxrt_test::ProgramResult result = hxrt_test::run_program(info_command(
      "HXRT_CONFIG=" + shell_quote(config_path("unknown_key_config.json")), " --config 2>&1"));
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 1);
  CHECK(hxrt_test::contains(result.output, "not_a_key"));
}

TEST_CASE("hxrt-info with plugin options a plugin refuses prints the error and exits 1") {
  const std::string file = config_path("refused_options_config.json");
  const hxrt_test::ProgramResult result =
      hxrt_test::run_program(info_command("HXRT_CONFIG=" + shell_quote(file), " 2>&1"));
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 1);
  CHECK(hxrt_test::contains(result.output, "hxrt-info: INVALID_ARGUMENT: file " + file +
                                               ": /plugins/options/cpu/threads: plugin "));
  CHECK(hxrt_test::contains(result.output, "unknown option 'threads'"));
  CHECK_FALSE(hxrt_test::contains(result.output, "no plugin of that name loaded"));
}
