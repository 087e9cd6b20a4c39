// Two plugins of one device type (ABI 2.0): both load, their devices are numbered in load order,
// and each op runs on the kernel of the plugin that owns the device it is placed on, even when
// the two registered the same op, dtype and priority.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loader_support.hpp"

using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::physical_devices_of_type;
using loader_test::report_for;
using loader_test::runtime_with;

namespace {

// What Relu gives on `device`: each twin's kernel fills its output with its marker (twin_a 1,
// twin_b 2).
std::vector<float> relu_on(hxrt::Runtime& runtime, const std::string& device) {
  hxrt::Tensor x = runtime.tensor<float>({3}, {-1, 0, 5});
  return runtime.execute("Relu", {x}, {}, device).to_vector<float>();
}

}  // namespace

TEST_CASE("two plugins of one device type both load, numbered in load order, each running its "
          "own kernel") {
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("twin_a"), fixture_path("twin_b")});
  for (const char* twin : {"twin_a", "twin_b"}) {
    const hxrt::PluginReport report = report_for(runtime, fixture_file(twin));
    INFO(twin << " skipped: " << report.reason);
    REQUIRE(report.loaded);
    CHECK(report.note.empty());
  }
  CHECK(physical_devices_of_type(runtime, "TWIN") ==
        std::vector<std::string>{"TWIN:0 from fixture_twin_a", "TWIN:1 from fixture_twin_b"});
  CHECK(relu_on(runtime, "/device:TWIN:0") == std::vector<float>{1, 1, 1});
  CHECK(relu_on(runtime, "/device:TWIN:1") == std::vector<float>{2, 2, 2});

  // The same op, dtype and priority from two plugins is no tie: both kernels are listed.
  std::vector<std::string> relu_kernels;
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    if (kernel.op == "Relu" && kernel.device_type == "TWIN") {
      relu_kernels.push_back(kernel.plugin + " priority " + std::to_string(kernel.priority));
    }
  }
  CHECK(relu_kernels == std::vector<std::string>{"fixture_twin_a priority 0",
                                                 "fixture_twin_b priority 0"});
  check_cpu_plugin_works(runtime);
}

TEST_CASE("the load order, not the plugin, decides which twin's device is TWIN:0") {
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("twin_b"), fixture_path("twin_a")});
  CHECK(physical_devices_of_type(runtime, "TWIN") ==
        std::vector<std::string>{"TWIN:0 from fixture_twin_b", "TWIN:1 from fixture_twin_a"});
  CHECK(relu_on(runtime, "/device:TWIN:0") == std::vector<float>{2, 2, 2});
  CHECK(relu_on(runtime, "/device:TWIN:1") == std::vector<float>{1, 1, 1});
}
