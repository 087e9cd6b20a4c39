// A device that does not exist is one status code everywhere it can be named: INVALID_ARGUMENT,
// as TensorFlow's "unknown device" (an op's device, a tensor's, a scope's, the memory calls',
// visible devices).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime_fixture.hpp"

TEST_CASE("every call naming a device that does not exist fails with INVALID_ARGUMENT") {
  hxrt::Runtime rt = runtime_test::cpu_runtime();
  const hxrt::Tensor x = rt.tensor<float>({2}, {-1, 1}, "CPU:0");
  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"execute", [&] { rt.execute("Relu", {x}, {}, "GPU:3"); }},
      {"from_host", [&] { rt.tensor<float>({1}, {1}, "GPU:3"); }},
      {"to_device", [&] { rt.to_device(x, "GPU:3"); }},
      {"execute in a scope",
       [&] {
         auto scope = rt.device("/GPU:3");
         rt.execute("Relu", {x});
       }},
      {"from_host in a scope",
       [&] {
         auto scope = rt.device("/GPU:3");
         rt.tensor<float>({1}, {1});
       }},
      {"memory_stats", [&] { rt.memory_stats("GPU:3"); }},
      {"reset_peak_memory", [&] { rt.reset_peak_memory("GPU:3"); }},
      {"release_unused_memory", [&] { rt.release_unused_memory("GPU:3"); }},
      {"set_visible_devices", [&] { rt.set_visible_devices({"GPU:3"}); }},
  };
  for (const auto& call : calls) {
    INFO(call.first);
    const auto error = runtime_test::error_from(call.second);
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
    CHECK_THAT(error->what(), Catch::Contains("GPU:3"));
  }
}
