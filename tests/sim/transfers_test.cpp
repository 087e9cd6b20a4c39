// The sim plugin counts every copy in and out of each device; the counts show which transfers
// the core made.
#include <catch2/catch.hpp>
#include <vector>

#include "sim_test_support.hpp"

namespace {

struct Expected {
  uint64_t host_to_device = 0;
  uint64_t device_to_host = 0;
  uint64_t device_to_device = 0;
};

void check_counts(const sim_test::TransferCounts& counts, int32_t ordinal, const Expected& expected,
                  uint64_t bytes_each) {
  INFO("ordinal " << ordinal);
  const hx_sim_transfer_counts_t actual = counts.of(ordinal);
  CHECK(actual.host_to_device == expected.host_to_device);
  CHECK(actual.host_to_device_bytes == expected.host_to_device * bytes_each);
  CHECK(actual.device_to_host == expected.device_to_host);
  CHECK(actual.device_to_host_bytes == expected.device_to_host * bytes_each);
  CHECK(actual.device_to_device == expected.device_to_device);
  CHECK(actual.device_to_device_bytes == expected.device_to_device * bytes_each);
}

}  // namespace

TEST_CASE("Creating, reading and moving a tensor on sim devices counts one copy each",
          "[sim][transfers]") {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const sim_test::TransferCounts counts;
  counts.reset();
  const uint64_t bytes = 4 * sizeof(float);

  const hxrt::Tensor on_gpu1 = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "/GPU:1");
  check_counts(counts, 1, {1, 0, 0}, bytes);

  CHECK(on_gpu1.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  check_counts(counts, 1, {1, 1, 0}, bytes);

  const hxrt::Tensor on_gpu2 = rt.to_device(on_gpu1, "/GPU:2");
  CHECK(on_gpu2.device() == "/job:localhost/replica:0/task:0/device:GPU:2");
  // One copy between the devices, not a round trip through the host; counted on the
  // destination.
  check_counts(counts, 2, {0, 0, 1}, bytes);
  check_counts(counts, 1, {1, 1, 0}, bytes);
  check_counts(counts, 0, {}, bytes);
  check_counts(counts, 3, {}, bytes);

  CHECK(on_gpu2.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  check_counts(counts, 2, {0, 1, 1}, bytes);
}

TEST_CASE("An op whose inputs already live on its sim device copies nothing", "[sim][transfers]") {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const sim_test::TransferCounts counts;
  const hxrt::Tensor a = rt.tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}, "/GPU:3");
  const hxrt::Tensor b = rt.tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}, "/GPU:3");
  counts.reset();
  const hxrt::Tensor c = rt.execute("MatMul", {a, b}, {}, "/GPU:3");
  check_counts(counts, 3, {}, 0);
  CHECK(c.to_vector<float>() == std::vector<float>{22, 28, 49, 64});
  check_counts(counts, 3, {0, 1, 0}, 4 * sizeof(float));
}

TEST_CASE("The transfer counters refuse a missing output or an unknown device",
          "[sim][transfers]") {
  sim_test::four_gpus();  // loads the plugin
  const sim_test::TransferCounts counts;
  hx_sim_transfer_counts_t out{};
  out.struct_size = HX_SIM_TRANSFER_COUNTS_STRUCT_SIZE;
  CHECK(counts.read_function()(0, nullptr) == -1);
  CHECK(counts.read_function()(-1, &out) == -1);
  CHECK(counts.read_function()(1 << 20, &out) == -1);
  CHECK(counts.read_function()(3, &out) == 0);
}

TEST_CASE("The transfer counters write only the fields the caller's struct_size covers",
          "[sim][transfers]") {
  hxrt::Runtime& rt = sim_test::four_gpus();
  const sim_test::TransferCounts counts;
  counts.reset();
  const hxrt::Tensor on_gpu0 = rt.tensor<float>({1}, {7}, "/GPU:0");
  hx_sim_transfer_counts_t out{};
  out.struct_size = HX_STRUCT_SIZE(hx_sim_transfer_counts_t, host_to_device);
  out.host_to_device_bytes = 12345;
  REQUIRE(counts.read_function()(0, &out) == 0);
  CHECK(out.host_to_device == 1);
  CHECK(out.host_to_device_bytes == 12345);
}
