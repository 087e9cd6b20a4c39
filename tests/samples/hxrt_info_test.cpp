#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::run_program;
using hxrt_test::shell_quote;
using nlohmann::json;

namespace {

const char* const kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

using Words = std::vector<std::string>;

// Each line of `text` split at whitespace: the cells of the text report's tables.
std::vector<Words> lines_as_words(const std::string& text) {
  std::vector<Words> lines;
  std::istringstream text_lines(text);
  std::string line;
  while (std::getline(text_lines, line)) {
    std::istringstream line_words(line);
    Words words;
    for (std::string word; line_words >> word;) words.push_back(word);
    lines.push_back(words);
  }
  return lines;
}

template <class Predicate>
bool any_line(const std::string& text, Predicate predicate) {
  const std::vector<Words> lines = lines_as_words(text);
  return std::any_of(lines.begin(), lines.end(), predicate);
}

// A member of a JSON object, or null: a const json's operator[] asserts on a missing key.
json field(const json& object, const char* key) {
  return object.is_object() && object.contains(key) ? object[key] : json();
}

template <class Predicate>
bool any_of(const json& array, Predicate predicate) {
  return array.is_array() && std::any_of(array.begin(), array.end(), predicate);
}

// The parsed report, after checking that the program succeeded and printed valid JSON.
json run_json_report(const std::string& command) {
  const hxrt_test::ProgramResult result = run_program(command);
  INFO("output:\n" << result.output);
  REQUIRE(result.exit_code == 0);
  json report;
  REQUIRE_NOTHROW(report = json::parse(result.output));
  return report;
}

void check_cpu_report(const json& report) {
  INFO("report:\n" << report.dump(2));
  CHECK(any_of(field(report, "plugins"), [](const json& plugin) {
    return field(plugin, "name") == "cpu" && field(plugin, "loaded") == true &&
           field(plugin, "device_type") == "CPU";
  }));
  CHECK(any_of(field(report, "devices"), [](const json& device) {
    return field(device, "name") == kCpu0 && field(device, "short_name") == "CPU:0" &&
           field(device, "plugin") == "cpu";
  }));
  CHECK(any_of(field(report, "kernels"), [](const json& kernel) {
    const json dtypes = field(kernel, "dtypes");
    return field(kernel, "op") == "MatMul" && field(kernel, "device_type") == "CPU" &&
           field(kernel, "plugin") == "cpu" && dtypes.is_array() &&
           std::find(dtypes.begin(), dtypes.end(), "float32") != dtypes.end();
  }));
}

}  // namespace

TEST_CASE("hxrt-info lists the CPU plugin as loaded, its device and its MatMul kernel") {
  const hxrt_test::ProgramResult result = run_program(built_program("hxrt-info") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);
  // Plugin rows: STATUS NAME VERSION ABI TYPE DEVICES FILE.
  CHECK(any_line(result.output, [](const Words& row) {
    return row.size() >= 7 && row[0] == "loaded" && row[1] == "cpu" && row[4] == "CPU";
  }));
  CHECK(any_line(result.output, [](const Words& line) { return line == Words{kCpu0}; }));
  // Kernel rows: OP DEVICE-TYPE DTYPES PRIORITY PLUGIN.
  CHECK(any_line(result.output, [](const Words& row) {
    return row.size() == 5 && row[0] == "MatMul" && row[1] == "CPU" &&
           row[2].find("float32") != std::string::npos && row[4] == "cpu";
  }));
}

TEST_CASE("hxrt-info --json prints one object with the plugins, devices and kernels") {
  check_cpu_report(run_json_report(built_program("hxrt-info") + " --json"));
}

TEST_CASE("hxrt-info accepts the example config") {
  const std::string config =
      std::string(HXRT_TEST_SOURCE_DIR) + "/config/examples/log_placement.json";
  check_cpu_report(run_json_report("HXRT_CONFIG=" + shell_quote(config) + " " +
                                   built_program("hxrt-info") + " --json"));
}

TEST_CASE("hxrt-info reports a bad config file and exits 1") {
  const std::string config =
      std::string(HXRT_TEST_SOURCE_DIR) + "/tests/samples/unknown_key_config.json";
  const hxrt_test::ProgramResult result = run_program(
      "HXRT_CONFIG=" + shell_quote(config) + " " + built_program("hxrt-info") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.output, Catch::Contains("not_a_key"));
}

TEST_CASE("hxrt-info rejects an unknown option with exit code 2") {
  const hxrt_test::ProgramResult result =
      run_program(built_program("hxrt-info") + " --bogus 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Catch::Contains("unknown option '--bogus'"));
}

TEST_CASE("hxrt-info --help describes the options") {
  const hxrt_test::ProgramResult result = run_program(built_program("hxrt-info") + " --help");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.output, Catch::Contains("--json"));
}
