#include "async_support.hpp"

#include <catch2/catch.hpp>

namespace cuda_async_test {

std::vector<std::string> two_logical_gpus(hxrt::Runtime& runtime, uint64_t limit_mb) {
  hxrt::LogicalDeviceConfig half;
  half.memory_limit_mb = limit_mb;
  runtime.set_logical_devices("GPU:0", {half, half});
  std::vector<std::string> gpus;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == "GPU" && device.plugin == "cuda" && device.physical == "GPU:0") {
      gpus.push_back(device.name);
    }
  }
  REQUIRE(gpus.size() == 2);
  return gpus;
}

hxrt::Tensor big_matrix(hxrt::Runtime& runtime, const std::string& device) {
  std::vector<float> values(static_cast<size_t>(kBig * kBig));
  // Rows of a b with entries 1/kBig keep every product's entries at the size of a's.
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<float>(i % 7) / (3.0f * static_cast<float>(kBig));
  }
  hxrt::Tensor matrix = runtime.tensor<float>({kBig, kBig}, values, device);
  matrix.wait();
  return matrix;
}

hxrt::Tensor queue_matmuls(hxrt::Runtime& runtime, const std::string& device,
                           const hxrt::Tensor& a, const hxrt::Tensor& b, int count) {
  hxrt::Tensor product = a;
  for (int i = 0; i < count; ++i) product = runtime.execute("MatMul", {product, b}, {}, device);
  return product;
}

void warm_up(hxrt::Runtime& runtime, const std::string& device) {
  const hxrt::Tensor a = runtime.tensor<float>({2, 2}, {1, 2, 3, 4}, device);
  runtime.execute("MatMul", {a, a}, {}, device).wait();
}

}  // namespace cuda_async_test
