// hxrt-info's report of plugins, devices and kernels, and its exit statuses. The physical
// devices and memory are checked in hxrt_info_devices_test.cpp, --config in
// hxrt_info_config_test.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "json_output.hpp"
#include "program_output.hpp"
#include "run_program.hpp"
#include "temp_dir.hpp"

using hxrt_test::any_element;
using hxrt_test::built_program;
using hxrt_test::field;
using hxrt_test::run_json_program;
using hxrt_test::run_program;
using hxrt_test::shell_quote;
using hxrt_test::Words;
using nlohmann::json;

namespace {

const char* const kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

template <class Predicate>
bool any_line(const std::string& text, Predicate predicate) {
  const hxrt_test::Lines lines = hxrt_test::lines_of(text);
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return predicate(hxrt_test::words_of(line)); });
}

void check_cpu_report(const json& report) {
  INFO("report:\n" << report.dump(2));
  CHECK(any_element(field(report, "plugins"), [](const json& plugin) {
    return field(plugin, "name") == "cpu" && field(plugin, "loaded") == true &&
           field(plugin, "device_type") == "CPU";
  }));
  CHECK(any_element(field(report, "devices"), [](const json& device) {
    return field(device, "name") == kCpu0 && field(device, "short_name") == "CPU:0" &&
           field(device, "plugin") == "cpu";
  }));
  CHECK(any_element(field(report, "kernels"), [](const json& kernel) {
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
  check_cpu_report(run_json_program(built_program("hxrt-info") + " --json"));
}

TEST_CASE("hxrt-info accepts the example config") {
  const std::string config = hxrt_test::source_file("config/examples/log_placement.json");
  check_cpu_report(run_json_program("HXRT_CONFIG=" + shell_quote(config) + " " +
                                    built_program("hxrt-info") + " --json"));
}

TEST_CASE("hxrt-info reports a bad config file and exits 1") {
  const std::string config = hxrt_test::source_file("tests/tools/unknown_key_config.json");
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
  CHECK_THAT(result.output, Catch::Contains("--config"));
}

TEST_CASE("hxrt-info probes plugins first, so one that crashes in its init is listed as skipped") {
  const hxrt_test::TempDir cache("hxrt_info_probe");  // a verdict cache of the test's own
  const std::string environment = std::string(hxrt_test::kCleanEnvironment) +
                                  "HXRT_LOG_LEVEL=info XDG_CACHE_HOME=" +
                                  shell_quote(cache.path().string()) + " HXRT_PLUGIN_PATH=" +
                                  shell_quote(HXRT_TEST_FIXTURE_DIR
                                              "/crashing/libhx_fixture_init_segfaults.so") +
                                  " ";
  const hxrt_test::ProgramResult probed =
      run_program(environment + built_program("hxrt-info") + " 2>&1");
  INFO("output:\n" << probed.output);
  CHECK(probed.exit_code == 0);
  CHECK_THAT(probed.output, Catch::Contains("probed plugin "));
  CHECK_THAT(probed.output, Catch::Contains("crashed in hx_plugin_init: SIGSEGV"));
  CHECK(any_line(probed.output, [](const Words& row) {
    return row.size() >= 7 && row[0] == "loaded" && row[1] == "cpu";
  }));

  // --no-probe loads the plugins as a host application does by default: in-process at once,
  // so that the crashing plugin ends hxrt-info.
  const hxrt_test::ProgramResult unprobed =
      run_program(environment + built_program("hxrt-info") + " --no-probe 2>&1");
  INFO("output with --no-probe:\n" << unprobed.output);
  CHECK(unprobed.exit_code != 0);
  CHECK_THAT(unprobed.output, !Catch::Contains("probed plugin"));
}

TEST_CASE("hxrt-info shows a plugin file's name with its control characters escaped") {
  // A file named to recolour the terminal, in a plugin folder: dlopen refuses it (it is text),
  // and both the file column and the reason (dlopen's message quotes the name) must show the
  // escape sequence as text, never send it to the terminal.
  const hxrt_test::TempDir folder("hxrt_info_escapes");
  const std::string name = "libhx_\x1b[31mred\x9b.so";
  {
    std::ofstream file(folder.path() / name);
    file << "not a library\n";
  }
  const hxrt_test::ProgramResult result =
      run_program(std::string(hxrt_test::kCleanEnvironment) + "HXRT_PLUGIN_PATH=" +
                  shell_quote(folder.path().string()) + " " + built_program("hxrt-info") +
                  " --no-probe 2>/dev/null");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);
  CHECK(result.output.find('\x1b') == std::string::npos);
  CHECK(result.output.find('\x9b') == std::string::npos);
  CHECK_THAT(result.output, Catch::Contains("libhx_\\x1b[31mred\\x9b.so"));
  CHECK_THAT(result.output, Catch::Contains("reason: dlopen failed"));
}

TEST_CASE("hxrt-info lists a plugin disabled by the config as skipped, with the entry that "
          "disabled it") {
  const hxrt_test::TempDir folder("hxrt_info_disabled");
  const std::filesystem::path config = folder.path() / "hxrt.json";
  {
    std::ofstream file(config);
    file << R"({"plugins": {"disabled": ["opencl", "sim"]}})";
  }
  const hxrt_test::ProgramResult result =
      run_program(std::string(hxrt_test::kCleanEnvironment) + "HXRT_CONFIG=" +
                  shell_quote(config.string()) + " " + built_program("hxrt-info") +
                  " --no-probe 2>/dev/null");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);
  const hxrt_test::Lines lines = hxrt_test::lines_of(result.output);
  const auto sim = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    const Words row = hxrt_test::words_of(line);
    return row.size() == 7 && row[0] == "skipped" && row[1] == "sim" &&
           row[6].find("libhx_sim.so") != std::string::npos;
  });
  REQUIRE(sim != lines.end());
  REQUIRE(sim + 1 != lines.end());
  CHECK(hxrt_test::words_of(*(sim + 1)) ==
        Words{"reason:", "disabled", "by", "/plugins/disabled/1"});
  // The CPU plugin, not disabled, still loads.
  CHECK(any_line(result.output, [](const Words& row) {
    return row.size() >= 7 && row[0] == "loaded" && row[1] == "cpu";
  }));

  const json report = run_json_program("HXRT_CONFIG=" + shell_quote(config.string()) + " " +
                                       built_program("hxrt-info") + " --no-probe --json");
  INFO("report:\n" << report.dump(2));
  CHECK(any_element(field(report, "plugins"), [](const json& plugin) {
    return field(plugin, "loaded") == false &&
           field(plugin, "reason") == "disabled by /plugins/disabled/1";
  }));
}
