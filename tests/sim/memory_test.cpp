// Each simulated device spends its own memory budget (memory_mb). The core's caching allocator
// sits in front of the plugin and asks it for regions, so the tests use tensors large enough
// that the regions they need pass the budget.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "byte_sizes.hpp"
#include "error_from.hpp"
#include "sim_test_support.hpp"

namespace {

using hxrt_test::kMiB;
constexpr const char* kTwoSmallGpus = R"({"device_type":"GPU","device_count":2,"memory_mb":8})";

hxrt::DeviceInfo device_info(const hxrt::Runtime& rt, const std::string& short_name) {
  for (const hxrt::DeviceInfo& device : rt.devices()) {
    if (device.short_name == short_name) return device;
  }
  FAIL("no device " << short_name);
  return {};
}

// A tensor of `bytes` / 4 floats counting up from `first`.
hxrt::Tensor counting_tensor(hxrt::Runtime& rt, size_t bytes, float first,
                             const std::string& device) {
  std::vector<float> values(bytes / sizeof(float));
  for (size_t i = 0; i < values.size(); ++i) values[i] = first + static_cast<float>(i % 1000);
  return rt.tensor<float>({static_cast<int64_t>(values.size())}, values, device);
}

}  // namespace

TEST_CASE("A tensor larger than a sim device's memory is an out-of-memory error", "[sim][memory]") {
  hxrt::Runtime rt = sim_test::make_runtime(kTwoSmallGpus);
  REQUIRE(sim_test::sim_report(rt).loaded);
  const std::vector<float> big(16 * kMiB / sizeof(float), 1.0f);

  const auto error = hxrt_test::error_from(
      [&] { rt.tensor<float>({static_cast<int64_t>(big.size())}, big, "/GPU:1"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  // The core names the device; the plugin's own message, with its figures, is kept inside.
  CHECK_THAT(error->what(),
             Catch::Contains("GPU:1") && Catch::Contains("simulated GPU device 1: out of memory") &&
                 Catch::Contains("8388608 bytes are free") && Catch::Contains("memory_mb is 8"));

  // The device keeps working, and its budget is untouched.
  CHECK(device_info(rt, "GPU:1").memory_free == 8 * kMiB);
  const hxrt::Tensor x = rt.tensor<float>({3}, {1, 2, 3}, "/GPU:1");
  const hxrt::Tensor sum = rt.execute("Add", {x, x}, {}, "/GPU:1");
  CHECK(sum.device() == "/job:localhost/replica:0/task:0/device:GPU:1");
  CHECK(sum.to_vector<float>() == std::vector<float>{2, 4, 6});
}

TEST_CASE("Tensors on one sim device share its budget, other devices keep theirs",
          "[sim][memory]") {
  hxrt::Runtime rt = sim_test::make_runtime(kTwoSmallGpus);
  REQUIRE(sim_test::sim_report(rt).loaded);
  const size_t three_mib = 3 * kMiB;
  const hxrt::Tensor first = counting_tensor(rt, three_mib, 0, "/GPU:0");
  const hxrt::Tensor second = counting_tensor(rt, three_mib, 5000, "/GPU:0");
  const hxrt::DeviceInfo gpu0 = device_info(rt, "GPU:0");
  CHECK(gpu0.memory_total == 8 * kMiB);
  CHECK(gpu0.memory_free <= 2 * kMiB);  // both tensors are charged to GPU:0

  const auto error = hxrt_test::error_from([&] { counting_tensor(rt, three_mib, 0, "/GPU:0"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  // The live tensors are intact.
  CHECK(first.to_vector<float>() == counting_tensor(rt, three_mib, 0, "/CPU:0").to_vector<float>());
  CHECK(second.to_vector<float>() ==
        counting_tensor(rt, three_mib, 5000, "/CPU:0").to_vector<float>());

  // GPU:1 has its own 8 MiB.
  CHECK(device_info(rt, "GPU:1").memory_free == 8 * kMiB);
  const hxrt::Tensor elsewhere = counting_tensor(rt, three_mib, 0, "/GPU:1");
  CHECK(elsewhere.to_vector<float>() == first.to_vector<float>());
}
