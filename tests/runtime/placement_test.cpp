// Where ops run when a device is requested, and the errors when it cannot be honoured.
#include <catch2/catch.hpp>

#include <algorithm>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

namespace {
const char* const kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
}

TEST_CASE("every accepted spelling of CPU:0 places the op on CPU:0") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({2}, {-1, 2});
  for (const char* name : {"", "/device:CPU:0", "/CPU:0", "/cpu:0", "CPU:0", "/CPU",
                           "/job:localhost/replica:0/task:0/device:CPU:0"}) {
    INFO(name);
    CHECK(rt.execute("Relu", {x}, {}, name).device() == kCpu0);
  }
}

TEST_CASE("a device that does not exist gives TensorFlow's unknown-device error") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({2}, {-1, 2});
  auto error = error_from([&] { rt.execute("Relu", {x}, {}, "/GPU:2"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             StartsWith("/job:localhost/replica:0/task:0/device:GPU:2 unknown device."));
  CHECK_THAT(error->what(), Contains(std::string("Existing devices: ") + kCpu0));

  auto other_job = error_from([&] { rt.execute("Relu", {x}, {}, "/job:worker/device:CPU:0"); });
  REQUIRE(other_job);
  CHECK_THAT(other_job->what(), Contains("unknown device."));
}

TEST_CASE("in strict mode a device without a kernel for the dtype gives the explicit-specification error") {
  hxrt::Runtime rt = cpu_runtime();
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  // The CPU plugin has MatMul for float32 and float64 only.
  hxrt::Tensor a = rt.tensor<int32_t>({1, 1}, {2});
  auto error = error_from([&] { rt.execute("MatMul", {a, a}, {}, "/CPU:0"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(),
             StartsWith(std::string("Could not satisfy explicit device specification '") + kCpu0 +
                        "' because no supported kernel for CPU devices is available."));
  CHECK_THAT(error->what(), Contains("Registered kernels:"));
  CHECK_THAT(error->what(), Contains("device='CPU'; T in [float32, float64, float16, bfloat16]"));
}

TEST_CASE("strict-mode errors list only the kernels of device types that have devices") {
  // The sim plugin loads with no device (none configured) but registers its kernels.
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_paths.push_back(std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so");
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  const std::vector<hxrt::KernelInfo> kernels = rt.kernels();
  REQUIRE(std::any_of(kernels.begin(), kernels.end(), [](const hxrt::KernelInfo& kernel) {
    return kernel.op == "MatMul" && kernel.device_type == "SIM";
  }));

  hxrt::Tensor a = rt.tensor<int32_t>({1, 1}, {2});
  auto error = error_from([&] { rt.execute("MatMul", {a, a}, {}, "/CPU:0"); });
  REQUIRE(error);
  CHECK_THAT(error->what(), StartsWith("Could not satisfy explicit device specification"));
  CHECK_THAT(error->what(), Contains("device='CPU'; T in [float32, float64, float16, bfloat16]"));
  CHECK_THAT(error->what(), !Contains("SIM"));
}

TEST_CASE("with nothing requested and no kernel anywhere the error lists kernels and devices") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor a = rt.tensor<int32_t>({1, 1}, {2});
  auto error = error_from([&] { rt.execute("MatMul", {a, a}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(error->what(), Contains("T=int32"));
  CHECK_THAT(error->what(), Contains("device='CPU'; T in [float32, float64, float16, bfloat16]"));
  CHECK_THAT(error->what(), Contains(kCpu0));
}

TEST_CASE("a malformed device name is an invalid argument, not a placement decision") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Tensor x = rt.tensor<float>({1}, {1});
  auto error = error_from([&] { rt.execute("Relu", {x}, {}, "/CPU:zero"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Contains("/CPU:zero"));
}

TEST_CASE("placement logging writes the guide's line to a replaceable sink, switchable at run time") {
  hxrt::Runtime rt = cpu_runtime();
  std::vector<std::string> lines;
  rt.set_log_sink([&](hxrt::LogLevel, std::string_view line) { lines.emplace_back(line); });
  hxrt::Tensor x = rt.tensor<float>({1}, {1});

  rt.execute("Relu", {x});
  CHECK(lines.empty());

  rt.set_log_device_placement(true);
  rt.execute("Relu", {x});
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == std::string("Executing op Relu in device ") + kCpu0);

  rt.set_log_device_placement(false);
  rt.execute("Relu", {x});
  CHECK(lines.size() == 1);
}
