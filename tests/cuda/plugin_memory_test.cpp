// Out of memory, from the driver and under the runtime's hard limit; pinned host memory. All
// need a GPU.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "error_from.hpp"
#include "plugin_direct.hpp"
#include "plugin_test_support.hpp"

using Catch::Matchers::Contains;
using cuda_direct::DirectPlugin;
using cuda_direct::require_ok;

TEST_CASE("An allocation the GPU cannot hold is OUT_OF_MEMORY naming the size and the device",
          "[cuda][memory][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  const hx_plugin_api& api = plugin.api();
  uint64_t free = 0, total = 0;
  require_ok(DirectPlugin::outcome(api.memory_info(device, &free, &total)));
  const size_t too_much = static_cast<size_t>(total) * 2;
  hx_buffer* buffer = nullptr;
  const cuda_direct::Outcome refused =
      DirectPlugin::outcome(api.allocate(device, too_much, 256, &buffer));
  CHECK(refused.code == HX_OUT_OF_MEMORY);
  CHECK_THAT(refused.message, Contains("CUDA device 0 (") &&
                                  Contains("out of memory: cannot allocate " +
                                           std::to_string(too_much) + " bytes") &&
                                  Contains("cudaMalloc: cudaErrorMemoryAllocation"));
  // The failure does not linger: the next allocation that fits succeeds.
  require_ok(DirectPlugin::outcome(api.allocate(device, 1 << 20, 256, &buffer)));
  api.deallocate(device, buffer, 1 << 20);
}

TEST_CASE("Pinned host memory is host memory the plugin hands out and takes back",
          "[cuda][memory][gpu]") {
  const DirectPlugin plugin;
  require_ok(plugin.init_outcome());
  CUDA_DIRECT_REQUIRE_GPU(plugin);
  hx_device* device = plugin.device(0);
  void* ptr = nullptr;
  require_ok(DirectPlugin::outcome(plugin.api().host_memory->allocate(device, 4096, &ptr)));
  REQUIRE(ptr != nullptr);
  static_cast<uint8_t*>(ptr)[4095] = 7;  // writable from the host
  plugin.api().host_memory->deallocate(device, ptr);
  require_ok(DirectPlugin::outcome(plugin.api().host_memory->allocate(device, 0, &ptr)));
  plugin.api().host_memory->deallocate(device, ptr);
  CHECK(plugin.warnings().empty());
}

TEST_CASE("Under a hard limit the GPU runs out of memory with its tensors intact",
          "[cuda][memory][gpu]") {
  hxrt::Runtime runtime = cuda_plugin_test::make_runtime();
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime);
  hxrt::MemoryPolicy policy;
  policy.limit_mb = 64;
  runtime.set_memory_policy("GPU:0", policy);
  constexpr size_t kCount = (size_t{24} << 20) / sizeof(float);  // 24 MiB of floats
  std::vector<hxrt::Tensor> kept;
  for (float value : {1.0f, 2.0f}) {
    kept.push_back(runtime.tensor<float>({static_cast<int64_t>(kCount)},
                                         std::vector<float>(kCount, value), "/GPU:0"));
  }
  const auto error = hxrt_test::error_from([&] {
    runtime.tensor<float>({static_cast<int64_t>(kCount)}, std::vector<float>(kCount, 3.0f),
                          "/GPU:0");
  });
  REQUIRE(error.has_value());
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Contains("/job:localhost/replica:0/task:0/device:GPU:0") &&
                                Contains("cannot allocate 25165824 bytes"));
  CHECK(kept[0].to_vector<float>() == std::vector<float>(kCount, 1.0f));
  CHECK(kept[1].to_vector<float>() == std::vector<float>(kCount, 2.0f));
  const hxrt::Tensor small = runtime.tensor<float>({static_cast<int64_t>(kCount / 3)},
                                                   std::vector<float>(kCount / 3, 4.0f), "/GPU:0");
  CHECK(small.to_vector<float>() == std::vector<float>(kCount / 3, 4.0f));
}
