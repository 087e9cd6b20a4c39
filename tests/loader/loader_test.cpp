// Broken plugins are skipped with a reason, and the CPU plugin loaded beside them keeps working.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>

#include "hxrt/plugin_api.h"
#include "loader_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::report_for;
using loader_test::runtime_with;
using loader_test::skipped_fixture_report;

TEST_CASE("a library without hx_plugin_init is skipped") {
  CHECK_THAT(skipped_fixture_report("no_entry").reason,
             StartsWith("no entry symbol 'hx_plugin_init': "));
}

TEST_CASE("a file that is not a shared object is skipped") {
  CHECK_THAT(skipped_fixture_report("not_a_library").reason, StartsWith("dlopen failed: "));
}

TEST_CASE("a plugin of another ABI major is skipped, naming both versions") {
  const std::string core_version =
      std::to_string(HX_ABI_VERSION_MAJOR) + "." + std::to_string(HX_ABI_VERSION_MINOR);
  const std::string plugin_version =
      std::to_string(HX_ABI_VERSION_MAJOR + 1) + "." + std::to_string(HX_ABI_VERSION_MINOR);
  CHECK_THAT(skipped_fixture_report("wrong_major").reason,
             Equals("plugin 'fixture_wrong_major' speaks ABI " + plugin_version +
                    ", core speaks " + core_version));
}

TEST_CASE("a function table smaller than any supported is skipped, naming both sizes") {
  CHECK_THAT(skipped_fixture_report("small_table").reason,
             Equals("function table is " + std::to_string(offsetof(hx_plugin_api, device_count)) +
                    " bytes, smaller than the oldest this core supports (" +
                    std::to_string(HX_PLUGIN_API_STRUCT_SIZE) + " bytes)"));
}

TEST_CASE("a plugin whose init fails is skipped with the code and message of its status") {
  CHECK_THAT(skipped_fixture_report("init_fails").reason,
             Equals("init failed: INVALID_ARGUMENT: fixture refuses to start: option 'x' missing"));
}

TEST_CASE("a second plugin claiming the device type CPU is skipped") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("dup_cpu")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("dup_cpu"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Equals("device type 'CPU' is already provided by plugin 'cpu'"));
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == "CPU") CHECK(device.plugin == "cpu");
  }
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin without a required function is skipped, naming the function") {
  CHECK_THAT(skipped_fixture_report("missing_function").reason,
             Equals("required function 'allocate' is missing"));
}

TEST_CASE("a kernel for an unknown op fails registration, and init passes that failure on") {
  const std::string reason = skipped_fixture_report("unknown_op").reason;
  CHECK_THAT(reason, StartsWith("init failed: INVALID_ARGUMENT: "));
  CHECK_THAT(reason, Contains("Frobnicate"));
}
