// Broken plugins are skipped with a reason, and the CPU plugin loaded beside them keeps working.
#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "hxrt/plugin_api.h"
#include "hxrt/plugin_vocabulary.h"
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

TEST_CASE("a plugin built for ABI 1.x is skipped, naming both versions and what to do") {
  CHECK_THAT(skipped_fixture_report("wrong_major").reason,
             Equals("plugin 'fixture_wrong_major' was built for plugin ABI 1.0, and this core "
                    "speaks ABI " + std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                    std::to_string(HX_ABI_VERSION_MINOR) + "; rebuild the plugin against the " +
                    std::to_string(HX_ABI_VERSION_MAJOR) + ".x headers (hxrt/plugin_api.h)"));
}

TEST_CASE("a plugin of a later minor of this major loads, its longer table read as far as "
          "this core knows") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("newer_minor")});
  const hxrt::PluginReport report = report_for(runtime, fixture_file("newer_minor"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);
  CHECK(report.abi_version == std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                                  std::to_string(HX_ABI_VERSION_MINOR + 1));
  hxrt::Tensor x = runtime.tensor<float>({2}, {3, 4});
  CHECK(runtime.to_device(x, "/device:NEWER:0").to_vector<float>() == std::vector<float>{3, 4});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a 2.7 plugin's kernel for an op whose extents are known at run is ignored, with a "
          "warning, and its other kernels kept") {
  loader_test::LogLines log;
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("older_minor_nonzero")}, log.sink());
  REQUIRE(report_for(runtime, fixture_file("older_minor_nonzero")).loaded);
  CHECK(log.contains("kernel ignored: plugin 'fixture_older_minor_nonzero' (ABI 2.7) registered "
                     "NonZero, whose output extents a kernel reports through "
                     "hx_kernel_args.output_extents (ABI 2.8); rebuild the plugin"));
  bool relu = false;
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    if (kernel.plugin != "fixture_older_minor_nonzero") continue;
    CHECK(kernel.op != "NonZero");
    relu = relu || kernel.op == "Relu";
  }
  CHECK(relu);
}

TEST_CASE("a function table smaller than this major's is skipped, naming both sizes") {
  CHECK_THAT(skipped_fixture_report("small_table").reason,
             Equals("function table is " + std::to_string(offsetof(hx_plugin_api, device_count)) +
                    " bytes, smaller than ABI " + std::to_string(HX_ABI_VERSION_MAJOR) +
                    ".0's (" + std::to_string(HX_PLUGIN_API_REQUIRED_SIZE) +
                    " bytes); set struct_size to HX_PLUGIN_API_STRUCT_SIZE"));
}

TEST_CASE("a plugin whose init fails is skipped with the code and message of its status") {
  CHECK_THAT(skipped_fixture_report("init_fails").reason,
             Equals("init failed: INVALID_ARGUMENT: fixture refuses to start: option 'x' missing"));
}

TEST_CASE("a second plugin of device type CPU loads, its device numbered after the CPU "
          "plugin's") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("dup_cpu")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("dup_cpu"));
  INFO("skipped: " << report.reason);
  REQUIRE(report.loaded);
  CHECK(report.device_type == "CPU");
  CHECK(report.note.empty());
  CHECK(loader_test::physical_devices_of_type(runtime, "CPU") ==
        std::vector<std::string>{"CPU:0 from cpu", "CPU:1 from fixture_dup_cpu"});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a plugin without a required function is skipped, naming the function") {
  CHECK_THAT(skipped_fixture_report("missing_function").reason,
             Equals("required function 'allocate' is NULL"));
}

TEST_CASE("a present optional group without one of its functions is skipped, naming it") {
  CHECK_THAT(skipped_fixture_report("group_missing_function").reason,
             Equals("required function 'streams.wait_event' is NULL; a group given must have "
                    "every function (or leave the group NULL)"));
}

TEST_CASE("a present optional group whose struct_size is short is skipped, naming the group") {
  CHECK_THAT(skipped_fixture_report("short_group").reason,
             Equals("optional group 'events' has a struct_size smaller than ABI " +
                    std::to_string(HX_ABI_VERSION_MAJOR) + "." +
                    std::to_string(HX_ABI_VERSION_MINOR) +
                    " defines; set it to its HX_<GROUP>_API_STRUCT_SIZE, or leave the group "
                    "NULL"));
}

TEST_CASE("a kernel for an unknown op fails registration, and init passes that failure on") {
  const std::string reason = skipped_fixture_report("unknown_op").reason;
  CHECK_THAT(reason, StartsWith("init failed: INVALID_ARGUMENT: "));
  CHECK_THAT(reason, Contains("Frobnicate"));
}
