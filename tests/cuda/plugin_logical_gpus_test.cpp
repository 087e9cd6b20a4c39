// One physical GPU split into four logical GPUs, with a computation replicated over them: the
// guide's multi-GPU pattern, MatMul on each GPU and AddN of the results on the CPU. Needs a GPU.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "plugin_test_support.hpp"

TEST_CASE("One GPU split into four logical GPUs runs a replicated MatMul on each",
          "[cuda][logical][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  hxrt::LogicalDeviceConfig quarter;
  quarter.memory_limit_mb = 1024;
  runtime.set_logical_devices("GPU:0", {quarter, quarter, quarter, quarter});

  std::vector<std::string> gpus;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type != "GPU") continue;
    CHECK(device.physical == "GPU:0");
    CHECK(device.plugin == "cuda");
    gpus.push_back(device.name);
  }
  REQUIRE(gpus.size() == 4);

  constexpr int64_t n = 128;
  std::vector<float> a_values(n * n), b_values(n * n);
  for (int64_t i = 0; i < n * n; ++i) {
    a_values[i] = static_cast<float>(i % 17) / 8.0f - 1.0f;
    b_values[i] = static_cast<float>(i % 13) / 6.0f - 1.0f;
  }
  const hxrt::Tensor a = runtime.tensor<float>({n, n}, a_values);
  const hxrt::Tensor b = runtime.tensor<float>({n, n}, b_values);
  std::vector<hxrt::Tensor> products;
  for (const std::string& gpu : gpus) {
    products.push_back(runtime.execute("MatMul", {a, b}, {}, gpu));
    CHECK(products.back().device() == gpu);
  }
  const hxrt::Tensor sum = runtime.execute("AddN", products, {}, "/CPU:0");
  CHECK(sum.device() == "/job:localhost/replica:0/task:0/device:CPU:0");

  const hxrt::Tensor on_cpu = runtime.execute("MatMul", {a, b}, {}, "/CPU:0");
  const std::vector<float> want = on_cpu.to_vector<float>();
  const std::vector<float> got = sum.to_vector<float>();
  REQUIRE(got.size() == want.size());
  size_t wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    // Four f32 GEMMs of 128 products each, summed: a few units in the last place of f32.
    if (std::fabs(got[i] - 4 * want[i]) > 1e-4f * (1 + std::fabs(4 * want[i]))) ++wrong;
  }
  CHECK(wrong == 0);
}
