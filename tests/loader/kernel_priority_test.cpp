// Kernels of one op and device type from two plugins: the higher priority wins, and an equal
// priority is refused when the second plugin registers it, naming both plugins.
#include <catch2/catch.hpp>

#include "loader_support.hpp"

using Catch::Matchers::Contains;
using loader_test::check_cpu_plugin_works;
using loader_test::cpu_plugin_path;
using loader_test::fixture_file;
using loader_test::fixture_path;
using loader_test::report_for;
using loader_test::runtime_with;

TEST_CASE("an equal-priority kernel for a taken op, device type and dtype is refused, naming both "
          "plugins") {
  hxrt::Runtime runtime = runtime_with({cpu_plugin_path(), fixture_path("cpu_kernel_tie")});
  hxrt::PluginReport report = report_for(runtime, fixture_file("cpu_kernel_tie"));
  CHECK_FALSE(report.loaded);
  CHECK_THAT(report.reason, Contains("init failed: ALREADY_EXISTS"));
  CHECK_THAT(report.reason, Contains("'fixture_cpu_kernel_tie'"));
  CHECK_THAT(report.reason, Contains("plugin 'cpu'"));
  CHECK_THAT(report.reason, Contains("Relu"));
  check_cpu_plugin_works(runtime);
}

TEST_CASE("a higher-priority kernel from another plugin wins within the device type") {
  hxrt::Runtime runtime =
      runtime_with({cpu_plugin_path(), fixture_path("cpu_kernel_override")});
  REQUIRE(report_for(runtime, fixture_file("cpu_kernel_override")).loaded);
  hxrt::Tensor x = runtime.tensor<float>({3}, {-1, 0, 5});
  hxrt::Tensor y = runtime.execute("Relu", {x});
  CHECK(y.device() == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(y.to_vector<float>() == std::vector<float>{42, 42, 42});
  // Other dtypes still have only the CPU plugin's kernel.
  hxrt::Tensor xd = runtime.tensor<double>({2}, {-1, 3});
  CHECK(runtime.execute("Relu", {xd}).to_vector<double>() == std::vector<double>{0, 3});

  bool listed = false;
  for (const hxrt::KernelInfo& kernel : runtime.kernels()) {
    listed = listed || (kernel.op == "Relu" && kernel.device_type == "CPU" &&
                        kernel.priority == 10 && kernel.plugin == "fixture_cpu_kernel_override");
  }
  CHECK(listed);
}
