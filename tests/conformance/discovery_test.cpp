// With no plugin named, the kit checks what a host application would load: every plugin hxrt
// discovers (its plugin folder, HXRT_PLUGIN_PATH, the config's search paths), each with the
// options the config gives it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "conformance_run.hpp"
#include "run_program.hpp"
#include "temp_dir.hpp"

using hxrt_test::built_plugin;
using hxrt_test::conformance_fixture;
using hxrt_test::ProgramResult;
using hxrt_test::run_program;
using hxrt_test::shell_quote;
using hxrt_test::TempDir;
namespace fs = std::filesystem;

namespace {

// The kit run with no plugin named, in an environment holding only `environment` of hxrt's
// variables, and its JSON report.
struct DiscoveryRun {
  ProgramResult program;
  nlohmann::json report;
};

DiscoveryRun run_discovery(const std::string& environment, const std::string& arguments) {
  DiscoveryRun run;
  run.program = run_program(std::string(hxrt_test::kCleanEnvironment) + environment + " " +
                            hxrt_test::built_program("hxrt-conformance") + " " + arguments);
  run.report = nlohmann::json::parse(run.program.output, nullptr, false);
  return run;
}

std::string write_config(const TempDir& dir, const std::string& json) {
  const std::string path = (dir.path() / "hxrt.json").string();
  std::ofstream(path) << json;
  return path;
}

// The plugins of a report by path.
std::map<std::string, nlohmann::json> plugins_by_path(const nlohmann::json& report) {
  std::map<std::string, nlohmann::json> plugins;
  for (const nlohmann::json& plugin : report.at("plugins")) plugins[plugin.at("path")] = plugin;
  return plugins;
}

// Every plugin the build put in its plugin folder.
std::set<std::string> built_plugins() {
  std::set<std::string> paths;
  const fs::path folder = fs::path(built_plugin("cpu")).parent_path();
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    paths.insert(entry.path().string());
  }
  return paths;
}

int count_results(const nlohmann::json& plugin, const std::string& section,
                  const std::string& result) {
  int count = 0;
  for (const nlohmann::json& check : plugin.at("checks")) {
    count += check.at("section") == section && check.at("result") == result ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE("with no plugin named, the kit checks every plugin hxrt discovers with its "
          "configured options", "[conformance][discovery]") {
  const TempDir dir("hxrt_conformance_test");
  const std::string config =
      write_config(dir, R"({"plugins": {"options": {"sim": {"device_count": 2}}}})");
  const std::string wrong = conformance_fixture("wrong_result");
  const DiscoveryRun run = run_discovery(
      "HXRT_CONFIG=" + shell_quote(config) + " HXRT_PLUGIN_PATH=" + shell_quote(wrong),
      "--json --section abi --section kernels");
  INFO(run.program.output);
  REQUIRE_FALSE(run.report.is_discarded());
  const std::map<std::string, nlohmann::json> plugins = plugins_by_path(run.report);

  // The build's plugins and the one HXRT_PLUGIN_PATH adds, nothing else.
  std::set<std::string> expected = built_plugins();
  expected.insert(wrong);
  std::set<std::string> checked;
  for (const auto& [path, plugin] : plugins) checked.insert(path);
  CHECK(checked == expected);

  // The sim plugin gets its options from the config, and so has devices to run kernels on.
  const nlohmann::json& sim = plugins.at(built_plugin("sim"));
  CHECK(nlohmann::json::parse(sim.at("options").get<std::string>()) ==
        nlohmann::json{{"device_count", 2}});
  CHECK(sim.at("summary").at("failed") == 0);
  CHECK(count_results(sim, "kernels", "pass") > 0);
  CHECK(plugins.at(built_plugin("cpu")).at("summary").at("failed") == 0);
  CHECK(plugins.at(built_plugin("cpu")).at("options") == "{}");

  // One wrong plugin fails the whole run.
  CHECK(count_results(plugins.at(wrong), "kernels", "fail") == 1);
  CHECK(run.report.at("summary").at("failed") == 1);
  CHECK(run.program.exit_code == 1);
}

TEST_CASE("a plugin that crashes in its init is checked and failed, not the end of discovery",
          "[conformance][discovery]") {
  // Discovery probes each plugin in a child process, so the crash is seen there.
  const TempDir cache("hxrt_conformance_test");
  const std::string crashing =
      std::string(HXRT_TEST_FIXTURE_DIR) + "/crashing/libhx_fixture_init_segfaults.so";
  const DiscoveryRun run = run_discovery("XDG_CACHE_HOME=" + shell_quote(cache.path().string()) +
                                             " HXRT_PLUGIN_PATH=" + shell_quote(crashing),
                                         "--json --section abi");
  INFO(run.program.output);
  REQUIRE_FALSE(run.report.is_discarded());
  const std::map<std::string, nlohmann::json> plugins = plugins_by_path(run.report);
  REQUIRE(plugins.count(crashing) == 1);
  CHECK(plugins.at(crashing).at("summary").at("failed") > 0);
  CHECK(plugins.at(built_plugin("cpu")).at("summary").at("failed") == 0);
  CHECK(run.program.exit_code == 1);
}

TEST_CASE("the --options flag replaces the configured options of every discovered plugin",
          "[conformance][discovery]") {
  const TempDir dir("hxrt_conformance_test");
  const std::string config =
      write_config(dir, R"({"plugins": {"options": {"sim": {"device_count": 2}}}})");
  const DiscoveryRun run = run_discovery("HXRT_CONFIG=" + shell_quote(config),
                                         "--json --section abi --options '{}'");
  INFO(run.program.output);
  REQUIRE_FALSE(run.report.is_discarded());
  for (const auto& [path, plugin] : plugins_by_path(run.report)) {
    INFO(path);
    CHECK(plugin.at("options") == "{}");
  }
  CHECK(run.program.exit_code == 0);
}

TEST_CASE("the text report ends with a summary over every discovered plugin",
          "[conformance][discovery]") {
  const DiscoveryRun run = run_discovery("", "--section abi");
  INFO(run.program.output);
  CHECK(run.program.exit_code == 0);
  const std::string summary =
      "summary: " + std::to_string(built_plugins().size()) + " plugins: ";
  CHECK(run.program.output.find(summary) != std::string::npos);
  // The groups a plugin leaves out (host_memory for both) are skips, not failures.
  CHECK(run.program.output.find(" 0 failed, ") != std::string::npos);
}

TEST_CASE("a config hxrt cannot start with is reported with its JSON path, not checked",
          "[conformance][discovery]") {
  const TempDir dir("hxrt_conformance_test");
  const std::string config = write_config(dir, R"({"plugins": {"search_path": ["x"]}})");
  const DiscoveryRun run =
      run_discovery("HXRT_CONFIG=" + shell_quote(config), "--section abi 2>&1");
  INFO(run.program.output);
  CHECK(run.program.exit_code == 1);
  CHECK_THAT(run.program.output,
             Catch::Matchers::StartsWith("hxrt-conformance: hxrt did not start: ") &&
                 Catch::Matchers::Contains("/plugins/search_path"));
}
