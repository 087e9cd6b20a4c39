// The three soft-placement modes, their errors and their log lines.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "sim_runtime.hpp"

using namespace placement_test;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const char* const kNoKernel =
    "Could not satisfy explicit device specification "
    "'/job:localhost/replica:0/task:0/device:GPU:0' because no supported kernel for GPU devices "
    "is available.";
const std::string kGpu7 = "/job:localhost/replica:0/task:0/device:GPU:7";
const std::string kUnknown = kGpu7 + " unknown device.";

}  // namespace

TEST_CASE("strict: a device without a kernel and a missing device are both errors") {
  hxrt::Runtime rt = four_gpus();
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  hxrt::Tensor i = rt.tensor<int32_t>({2}, {1, 2});
  auto no_kernel = error_from([&] { rt.execute("Add", {i, i}, {}, "/GPU:0"); });
  REQUIRE(no_kernel);
  CHECK(no_kernel->code() == hxrt::StatusCode::kNotFound);
  CHECK_THAT(no_kernel->what(), StartsWith(kNoKernel));
  CHECK_THAT(no_kernel->what(), Contains("Registered kernels:"));
  CHECK_THAT(no_kernel->what(),
             Contains("device='CPU'; T in [float32, float64, float16, bfloat16, int32, int64, "
                      "int8, uint8, int16, uint16, uint32, uint64]"));
  CHECK_THAT(no_kernel->what(), Contains("device='GPU'; T in [float32]"));

  hxrt::Tensor f = rt.tensor<float>({1, 1}, {1});
  auto unknown = error_from([&] { rt.execute("MatMul", {f, f}, {}, "/GPU:7"); });
  REQUIRE(unknown);
  CHECK(unknown->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(unknown->what(), StartsWith(kUnknown));
  CHECK_THAT(unknown->what(), Contains(kGpu3));
  CHECK_THAT(unknown->what(), Contains(kCpu0));
}

TEST_CASE("the default falls back when the kernel is missing, and says why") {
  hxrt::Runtime rt = four_gpus();
  CHECK(rt.soft_placement() == hxrt::SoftPlacement::kFallbackOnMissingKernel);
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor i = rt.tensor<int32_t>({2}, {1, 2});
  hxrt::Tensor sum = rt.execute("Add", {i, i}, {}, "/GPU:0");
  CHECK(sum.device() == kCpu0);
  CHECK(sum.to_vector<int32_t>() == std::vector<int32_t>{2, 4});
  CHECK(log.contains("Executing op Add in device " + kCpu0));
  CHECK(log.contains("  requested " + kGpu0 +
                     ", but no supported kernel for GPU devices is available for T=int32; "
                     "fell back to " + kCpu0));

  hxrt::Tensor f = rt.tensor<float>({1, 1}, {1});
  auto unknown = error_from([&] { rt.execute("MatMul", {f, f}, {}, "/GPU:7"); });
  REQUIRE(unknown);
  CHECK_THAT(unknown->what(), StartsWith(kUnknown));
}

TEST_CASE("soft: a missing device falls back to the best device too") {
  hxrt::RuntimeOptions options = sim_options(R"({"device_type": "GPU", "device_count": 4})");
  options.soft_placement = hxrt::SoftPlacement::kSoft;
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  LogCapture log;
  log.attach(rt);
  hxrt::Tensor f = rt.tensor<float>({1, 1}, {3});
  hxrt::Tensor c = rt.execute("MatMul", {f, f}, {}, "/GPU:7");
  CHECK(c.device() == kGpu0);
  CHECK(c.to_vector<float>() == std::vector<float>{9});
  CHECK(log.contains("  requested " + kGpu7 +
                     ", which does not exist; soft placement chose " + kGpu0));
  hxrt::Tensor i = rt.tensor<int32_t>({1}, {5});
  CHECK(rt.execute("Add", {i, i}, {}, "/GPU:7").device() == kCpu0);
}

TEST_CASE("the mode can change at run time, cached decisions follow it") {
  hxrt::Runtime rt = four_gpus();
  hxrt::Tensor i = rt.tensor<int32_t>({1}, {5});
  CHECK(rt.execute("Add", {i, i}, {}, "/GPU:0").device() == kCpu0);
  rt.set_soft_placement(hxrt::SoftPlacement::kStrict);
  CHECK(error_from([&] { rt.execute("Add", {i, i}, {}, "/GPU:0"); }));
  rt.set_soft_placement(hxrt::SoftPlacement::kFallbackOnMissingKernel);
  CHECK(rt.execute("Add", {i, i}, {}, "/GPU:0").device() == kCpu0);
}

TEST_CASE("placement.soft_placement in the config file sets the mode, a bad value names the path") {
  hxrt::detail::Config config;
  hxrt::detail::apply_config_text(R"({"placement": {"soft_placement": "soft"}})", "test.json",
                                  config);
  CHECK(config.soft_placement == hxrt::SoftPlacement::kSoft);
  hxrt::detail::apply_config_text(R"({"placement": {"soft_placement": "strict"}})", "test.json",
                                  config);
  CHECK(config.soft_placement == hxrt::SoftPlacement::kStrict);
  auto error = error_from([&] {
    hxrt::detail::apply_config_text(R"({"placement": {"soft_placement": "sometimes"}})",
                                    "test.json", config);
  });
  REQUIRE(error);
  CHECK_THAT(error->what(), Contains("test.json: /placement/soft_placement: expected one of "
                                     "\"strict\", \"missing_kernel\", \"soft\", got string "
                                     "\"sometimes\""));
}
