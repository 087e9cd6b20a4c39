// plugins.disabled: a plugin named there is skipped with the JSON path of its entry, by its
// file's name before anything of it runs (no probe, no dlopen, no init) and by the name in its
// table after init, for a file named otherwise.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loader_support.hpp"

using Catch::Matchers::Equals;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::LogLines;
using loader_test::report_for;

namespace {

const std::string kCrashingFixture =
    HXRT_TEST_FIXTURE_DIR "/crashing/" + fixture_file("init_segfaults");

hxrt::Runtime runtime_disabling(const std::vector<std::string>& plugin_paths,
                                const std::vector<std::string>& disabled, bool probe,
                                hxrt::LogSink log_sink = {}) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = plugin_paths;
  options.disabled_plugins = disabled;
  options.probe_plugins = probe;
  options.log_sink = std::move(log_sink);
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("a plugin disabled by its file's name is skipped before it is probed or opened") {
  // Opened in this process, init_segfaults would end it; probed, its reason would be the crash.
  for (bool probe : {false, true}) {
    INFO("probe: " << probe);
    LogLines log;
    hxrt::Runtime runtime = runtime_disabling({cpu_plugin_path(), kCrashingFixture},
                                              {"sim", "fixture_init_segfaults"}, probe,
                                              log.sink());
    const hxrt::PluginReport report = report_for(runtime, fixture_file("init_segfaults"));
    CHECK_FALSE(report.loaded);
    CHECK(report.name == "fixture_init_segfaults");
    CHECK_THAT(report.reason, Equals("disabled by /plugins/disabled/1"));
    CHECK_FALSE(log.contains("probed plugin " + kCrashingFixture));
    check_cpu_plugin_works(runtime);
  }
}

TEST_CASE("a file that is no library, disabled by name, is skipped as disabled, not as unopenable") {
  hxrt::Runtime runtime = runtime_disabling(
      {cpu_plugin_path(), fixture_path("not_a_library")}, {"fixture_not_a_library"}, false);
  CHECK(report_for(runtime, fixture_file("not_a_library")).reason ==
        "disabled by /plugins/disabled/0");
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin disabled by the name in its table is skipped after init") {
  // same_name's file is libhx_fixture_same_name.so and its table calls it "cpu".
  hxrt::Runtime runtime = runtime_disabling({fixture_path("same_name"), fixture_path("no_devices")},
                                            {"gpu", "cpu"}, false);
  const hxrt::PluginReport report = report_for(runtime, fixture_file("same_name"));
  CHECK_FALSE(report.loaded);
  CHECK(report.reason == "disabled by /plugins/disabled/1");
  CHECK(report_for(runtime, fixture_file("no_devices")).loaded);
  for (const hxrt::DeviceInfo& device : runtime.devices()) CHECK(device.plugin != "cpu");
}

TEST_CASE("plugins that are not named in plugins.disabled load as before") {
  hxrt::Runtime runtime = runtime_disabling({cpu_plugin_path(), fixture_path("no_devices")},
                                            {"fixture_no_devices_not", "cp"}, false);
  CHECK(report_for(runtime, fixture_file("no_devices")).loaded);
  check_cpu_plugin_works(runtime);
}
