// effective_settings: every setting with its value as JSON text and its origin, in the
// schema's order (hxrt-info --config prints it).
#include <catch2/catch.hpp>

#include <algorithm>

#include "config/config.hpp"
#include "scoped_environment.hpp"

using hxrt::ConfigSetting;
using hxrt::detail::Config;
using hxrt::detail::effective_settings;

namespace {

std::vector<std::string> paths_of(const std::vector<ConfigSetting>& settings) {
  std::vector<std::string> paths;
  for (const ConfigSetting& setting : settings) paths.push_back(setting.path);
  return paths;
}

const ConfigSetting& find(const std::vector<ConfigSetting>& settings, const std::string& path) {
  auto found = std::find_if(settings.begin(), settings.end(),
                            [&](const ConfigSetting& s) { return s.path == path; });
  INFO(path);
  REQUIRE(found != settings.end());
  return *found;
}

}  // namespace

TEST_CASE("the defaults: every setting, in the schema's order, from \"default\"") {
  const std::vector<ConfigSetting> settings = effective_settings(Config{});
  const std::vector<std::string> paths = paths_of(settings);
  // These in this order, among any others: a setting added to the table takes its place in
  // the dump with no change here.
  const std::vector<std::string> known = {
      "/plugins/search_paths", "/plugins/libraries", "/plugins/use_installed",
      "/plugins/probe", "/plugins/probe_timeout_ms", "/plugins/disabled", "/plugins/options",
      "/env/HXRT_PLUGIN_PATH", "/api/plugin_paths",
      "/placement/device_priority", "/placement/soft_placement",
      "/placement/tensor_device", "/placement/placer",
      "/placement/replace_every_runs", "/placement/replace_threshold",
      "/log_device_placement",
      "/log_level", "/visible_devices", "/env/HXRT_FORCE_MEMORY_GROWTH",
      "/devices/*/device_count", "/devices/*/memory/growth", "/devices/*/memory/limit_mb",
      "/devices/*/memory/fraction", "/devices/*/memory/release_unused",
      "/devices/*/logical", "/memory/thread_caches", "/trace/path", "/trace/max_events",
      "/execution/inter_op_threads", "/execution/intra_op_threads"};
  auto next = paths.begin();
  for (const std::string& path : known) {
    INFO(path << " in the dump, after the paths before it in `known`");
    next = std::find(next, paths.end(), path);
    REQUIRE(next != paths.end());
  }
  std::vector<std::string> sorted = paths;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  for (const ConfigSetting& setting : settings) {
    INFO(setting.path);
    CHECK(setting.source == "default");
  }
  CHECK(find(settings, "/plugins/use_installed").value == "true");
  CHECK(find(settings, "/plugins/probe").value == "false");
  CHECK(find(settings, "/plugins/probe_timeout_ms").value == "5000");
  CHECK(find(settings, "/plugins/disabled").value == "[]");
  CHECK(find(settings, "/plugins/options").value == "{}");
  CHECK(find(settings, "/placement/device_priority").value == "[]");
  CHECK(find(settings, "/placement/soft_placement").value == "\"missing_kernel\"");
  CHECK(find(settings, "/placement/tensor_device").value == "null");
  CHECK(find(settings, "/log_level").value == "\"warning\"");
  CHECK(find(settings, "/visible_devices").value == "null");
  CHECK(find(settings, "/devices/*/memory/growth").value == "true");
  CHECK(find(settings, "/devices/*/memory/limit_mb").value == "null");
  CHECK(find(settings, "/devices/*/memory/release_unused").value == "false");
  CHECK(find(settings, "/trace/path").value == "null");
  CHECK(find(settings, "/trace/max_events").value == "1000000");
  CHECK(find(settings, "/execution/inter_op_threads").value == "0");
  CHECK(find(settings, "/execution/intra_op_threads").value == "0");
}

TEST_CASE("the thread counts show their value and the layer that set each") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_INTER_OP_THREADS", "16");
  hxrt::RuntimeOptions options;
  options.intra_op_threads = 2;
  const std::vector<ConfigSetting> settings =
      effective_settings(hxrt::detail::resolve_config(options));
  CHECK(find(settings, "/execution/inter_op_threads").value == "16");
  CHECK(find(settings, "/execution/inter_op_threads").source ==
        "environment HXRT_INTER_OP_THREADS");
  CHECK(find(settings, "/execution/intra_op_threads").value == "2");
  CHECK(find(settings, "/execution/intra_op_threads").source == "API");
}

TEST_CASE("settings from each layer show their value and origin, device keys in order") {
  Config config;
  hxrt::detail::apply_config_text(
      R"({"plugins": {"options": {"sim": {"device_type": "GPU"}, "a/b": {}},
                      "disabled": ["opencl", "sim"]},
          "log_level": "error", "visible_devices": ["gpu:1"],
          "devices": {"GPU:10": {"memory": {"limit_mb": 1}},
                      "GPU:2": {"logical": [{"memory_limit_mb": 512}, {}]},
                      "gpu": {"device_count": 3, "memory": {"growth": true, "fraction": 0.5,
                                                            "release_unused": true}}}})",
      "hxrt.json", config);
  hxrt::MemoryPolicy policy;
  policy.preallocate = true;
  policy.limit_mb = 256;
  set_memory_policy(config, "CPU", policy, "API");

  const std::vector<ConfigSetting> settings = effective_settings(config);
  const std::vector<std::string> paths = paths_of(settings);
  const std::vector<std::string> devices(
      std::find(paths.begin(), paths.end(), "/devices/*/logical") + 1,
      std::find(paths.begin(), paths.end(), "/memory/thread_caches"));
  CHECK(devices == std::vector<std::string>{
                       "/devices/CPU/memory/preallocate", "/devices/CPU/memory/limit_mb",
                       "/devices/GPU/device_count", "/devices/GPU/memory/growth",
                       "/devices/GPU/memory/fraction", "/devices/GPU/memory/release_unused",
                       "/devices/GPU:2/logical", "/devices/GPU:10/memory/limit_mb"});
  CHECK(std::count(paths.begin(), paths.end(), "/plugins/options") == 0);
  CHECK(find(settings, "/plugins/options/a~1b").value == "{}");
  CHECK(find(settings, "/plugins/options/sim").value == R"({"device_type":"GPU"})");
  CHECK(find(settings, "/plugins/options/sim").source == "file hxrt.json");
  CHECK(find(settings, "/plugins/disabled").value == R"(["opencl","sim"])");
  CHECK(find(settings, "/plugins/disabled").source == "file hxrt.json");
  CHECK(find(settings, "/log_level").value == "\"error\"");
  CHECK(find(settings, "/visible_devices").value == R"(["GPU:1"])");
  CHECK(find(settings, "/devices/GPU/device_count").value == "3");
  CHECK(find(settings, "/devices/GPU/memory/growth").value == "true");
  CHECK(find(settings, "/devices/GPU/memory/fraction").value == "0.5");
  CHECK(find(settings, "/devices/GPU:2/logical").value == R"([{"memory_limit_mb":512},{}])");
  CHECK(find(settings, "/devices/CPU/memory/preallocate").value == "true");
  CHECK(find(settings, "/devices/CPU/memory/preallocate").source == "API");
  CHECK(find(settings, "/devices/CPU/memory/limit_mb").value == "256");
  CHECK(find(settings, "/devices/*/memory/growth").source == "default");
}

TEST_CASE("HXRT_FORCE_MEMORY_GROWTH shows where it overrides a preallocate") {
  config_test::ScopedEnvironment environment;
  config_test::clear_config_environment(environment);
  environment.set("HXRT_FORCE_MEMORY_GROWTH", "true");
  Config config = hxrt::detail::resolve_config(hxrt::RuntimeOptions{});
  hxrt::MemoryPolicy preallocate;
  preallocate.preallocate = true;
  preallocate.limit_mb = 64;
  set_memory_policy(config, "GPU", preallocate, "API");
  hxrt::MemoryPolicy growth;
  growth.growth = false;
  set_memory_policy(config, "SIM", growth, "API");
  hxrt::MemoryPolicy already_growth;
  already_growth.growth = true;
  set_memory_policy(config, "CPU", already_growth, "API");

  const std::vector<ConfigSetting> settings = effective_settings(config);
  CHECK(find(settings, "/env/HXRT_FORCE_MEMORY_GROWTH").value == "true");
  CHECK(find(settings, "/env/HXRT_FORCE_MEMORY_GROWTH").source ==
        "environment HXRT_FORCE_MEMORY_GROWTH");
  CHECK(find(settings, "/devices/GPU/memory/preallocate").value == "false");
  CHECK(find(settings, "/devices/GPU/memory/preallocate").source ==
        "environment HXRT_FORCE_MEMORY_GROWTH");
  CHECK(find(settings, "/devices/SIM/memory/growth").value == "true");
  CHECK(find(settings, "/devices/SIM/memory/growth").source ==
        "environment HXRT_FORCE_MEMORY_GROWTH");
  CHECK(find(settings, "/devices/CPU/memory/growth").source == "API");  // nothing overridden
  CHECK(find(settings, "/devices/GPU/memory/limit_mb").source == "API");
}
