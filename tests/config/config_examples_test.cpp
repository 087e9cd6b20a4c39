// Every file in config/examples/ is a working config: it loads, the plugins it gives options
// to accept them, and the device setup it asks for can be applied. A new example is picked
// up without editing this test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "config/config.hpp"
#include "hxrt/runtime.hpp"
#include "scoped_environment.hpp"

namespace {

std::vector<std::filesystem::path> example_configs() {
  std::vector<std::filesystem::path> found;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(HXRT_TEST_SOURCE_DIR) / "config/examples")) {
    if (entry.path().extension() == ".json") found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

TEST_CASE("config/examples holds the documented examples") {
  std::vector<std::string> names;
  for (const auto& path : example_configs()) names.push_back(path.filename().string());
  for (const char* name : {"hard_limit.json", "log_placement.json", "logical_gpus.json",
                           "memory_growth.json", "sim_4_gpus.json", "sim_one_fast_three_slow.json",
                           "sim_slow_copies.json"}) {
    CHECK(std::count(names.begin(), names.end(), name) == 1);
  }
}

TEST_CASE("every example config loads, its plugins accept their options, and its devices start") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  for (const auto& path : example_configs()) {
    INFO(path.filename().string());
    hxrt::RuntimeOptions options;
    options.config_path = path.string();
    options.use_installed_plugins = false;  // only this build's plugins
    options.plugin_paths = {HXRT_TEST_PLUGIN_DIR};
    const hxrt::detail::Config config = hxrt::detail::resolve_config(options);
    CHECK(config.file == path.string());

    hxrt::Runtime runtime = hxrt::Runtime::create(options);
    for (const auto& plugin_and_options : config.plugin_options) {
      const std::string& plugin = plugin_and_options.first;  // lambdas cannot capture bindings
      INFO("plugin " << plugin << " with options " << plugin_and_options.second);
      CHECK(std::any_of(runtime.load_report().begin(), runtime.load_report().end(),
                        [&](const hxrt::PluginReport& report) {
                          return report.loaded && report.name == plugin;
                        }));
    }
    CHECK_NOTHROW(runtime.initialize());
  }
}

TEST_CASE("logical_gpus.json makes two GPUs of one physical sim device") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  hxrt::RuntimeOptions options;
  options.config_path = std::string(HXRT_TEST_SOURCE_DIR) + "/config/examples/logical_gpus.json";
  options.use_installed_plugins = false;
  options.plugin_paths = {HXRT_TEST_PLUGIN_DIR};
  hxrt::Runtime runtime = hxrt::Runtime::create(options);
  std::vector<std::string> gpus;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == "GPU") gpus.push_back(device.short_name + " of " + device.physical);
  }
  CHECK(gpus == std::vector<std::string>{"GPU:0 of GPU:0", "GPU:1 of GPU:0"});
}
