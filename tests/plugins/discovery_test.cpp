// Where plugin candidates come from: folders, HXRT_PLUGIN_PATH, RuntimeOptions::plugin_paths
// and the config file; each file is tried once, and a bad candidate never stops the others.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loader_support.hpp"
#include "temp_dir.hpp"

using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::physical_devices_of_type;
using loader_test::report_for;
using loader_test::reports_for;
using loader_test::runtime_with;
using loader_test::ScopedEnv;
using hxrt_test::TempDir;

namespace fs = std::filesystem;

namespace {

// Every fixture, and whether it should load when it comes after the CPU plugin.
const std::map<std::string, bool> kFixtureLoads = {
    {"no_entry", false},         {"not_a_library", false},  {"wrong_major", false},
    {"small_table", false},      {"init_fails", false},     {"dup_cpu", true},
    {"missing_function", false}, {"unknown_op", false},     {"failing_kernel", true},
    {"no_devices", true},        {"duplicate_kernel", true},  {"twin_a", true},
    {"twin_b", true},            {"huge_device_count", false},
    {"bad_dtype", false},        {"bad_status_code", false}, {"bad_name", false},
    {"same_name", false},        {"huge_memory", true},      {"terminal_escapes", true},
    {"null_device", true},       {"logging_thread", true},  {"huge_output", true},
    {"group_missing_function", false}, {"short_group", false},
    {"streams_without_events", true}, {"newer_minor", true}, {"older_minor_nonzero", true},
    {"init_args", true},
};

// The libhx_*.so files in the fixture folder, in name order.
std::vector<std::string> plugin_files_in_fixture_dir() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(HXRT_TEST_FIXTURE_DIR)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("libhx_", 0) == 0 && entry.path().extension() == ".so") files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every file of the fixture folder was tried exactly once, and each fixture loaded or not as
// it should.
void check_fixture_folder_loaded(const hxrt::Runtime& runtime) {
  for (const std::string& file : plugin_files_in_fixture_dir()) report_for(runtime, file);
  for (const auto& [what, loads] : kFixtureLoads) {
    hxrt::PluginReport report = report_for(runtime, fixture_file(what));
    INFO(what << ": " << report.reason);
    CHECK(report.loaded == loads);
  }
}

// A runtime whose plugins come only from `plugins`, the "plugins" section of a config file.
hxrt::Runtime runtime_with_config(const nlohmann::json& plugins) {
  const TempDir dir("hxrt_loader_test");
  const std::string path = (dir.path() / "hxrt.json").string();
  std::ofstream(path) << nlohmann::json{{"plugins", plugins}}.dump(2);
  hxrt::RuntimeOptions options;
  options.config_path = path;
  options.use_installed_plugins = false;
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("a folder of broken plugins loads without aborting, one report entry per file") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), HXRT_TEST_FIXTURE_DIR});
  check_fixture_folder_loaded(runtime);

  // A folder's files are tried in name order.
  std::vector<std::string> tried;
  for (const hxrt::PluginReport& report : runtime.load_report()) {
    if (fs::path(report.path).parent_path() == fs::path(HXRT_TEST_FIXTURE_DIR)) {
      tried.push_back(fs::path(report.path).filename().string());
    }
  }
  CHECK(tried == plugin_files_in_fixture_dir());
  check_cpu_plugin_works(runtime);
}

TEST_CASE("HXRT_PLUGIN_PATH adds files and folders, separated by colons") {
  ScopedEnv plugin_path("HXRT_PLUGIN_PATH", cpu_plugin_path() + ":" + HXRT_TEST_FIXTURE_DIR);
  hxrt::Runtime runtime = runtime_with({});
  check_fixture_folder_loaded(runtime);
  check_cpu_plugin_works(runtime);
}

TEST_CASE("HXRT_PLUGIN_PATH candidates load before RuntimeOptions::plugin_paths") {
  // Plugins of one device type number their devices in load order.
  ScopedEnv plugin_path("HXRT_PLUGIN_PATH", fixture_path("dup_cpu"));
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path()});
  CHECK(report_for(runtime, fixture_file("dup_cpu")).loaded);
  CHECK(report_for(runtime, "libhx_cpu.so").loaded);
  CHECK(physical_devices_of_type(runtime, "CPU") ==
        std::vector<std::string>{"CPU:0 from fixture_dup_cpu", "CPU:1 from cpu"});
}

TEST_CASE("a plugin path that does not exist is reported, not fatal") {
  const std::string missing = "/nonexistent/hxrt/libhx_missing.so";
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), missing});
  hxrt::PluginReport report = report_for(runtime, "libhx_missing.so");
  CHECK(report.path == missing);
  CHECK_FALSE(report.loaded);
  CHECK_FALSE(report.reason.empty());
  check_cpu_plugin_works(runtime);
}

TEST_CASE("the same file given twice is loaded once") {
  const std::string same_file_other_spelling =
      HXRT_TEST_FIXTURE_DIR "/./" + fixture_file("no_devices");
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("no_devices"),
                                        cpu_plugin_path(), same_file_other_spelling});
  CHECK(report_for(runtime, fixture_file("no_devices")).loaded);
  CHECK(reports_for(runtime, "libhx_cpu.so").size() == 1);
  check_cpu_plugin_works(runtime);
}

TEST_CASE("plugins.libraries in a config file names plugins like plugin_paths") {
  hxrt::Runtime runtime = runtime_with_config(
      {{"libraries", {cpu_plugin_path(), fixture_path("init_fails"), fixture_path("no_devices")}}});
  hxrt::PluginReport init_fails = report_for(runtime, fixture_file("init_fails"));
  CHECK_FALSE(init_fails.loaded);
  CHECK(init_fails.reason ==
        "init failed: INVALID_ARGUMENT: fixture refuses to start: option 'x' missing");
  CHECK(report_for(runtime, fixture_file("no_devices")).loaded);
  check_cpu_plugin_works(runtime);
}

TEST_CASE("plugins.search_paths in a config file adds folders, after plugins.libraries") {
  // The CPU plugin comes from libraries, so its device is CPU:0 and the folder's dup_cpu's
  // CPU:1.
  hxrt::Runtime runtime = runtime_with_config(
      {{"libraries", {cpu_plugin_path()}}, {"search_paths", {HXRT_TEST_FIXTURE_DIR}}});
  check_fixture_folder_loaded(runtime);
  CHECK(physical_devices_of_type(runtime, "CPU") ==
        std::vector<std::string>{"CPU:0 from cpu", "CPU:1 from fixture_dup_cpu"});
  check_cpu_plugin_works(runtime);
}
