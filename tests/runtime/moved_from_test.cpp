// A moved-from Runtime: every method says it is empty instead of following a null pointer.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime_fixture.hpp"

using Catch::Matchers::Contains;
using runtime_test::cpu_runtime;
using runtime_test::error_from;

TEST_CASE("every method of a moved-from Runtime throws FAILED_PRECONDITION") {
  hxrt::Runtime rt = cpu_runtime();
  hxrt::Runtime moved_to = std::move(rt);
  const hxrt::Tensor x = moved_to.tensor<float>({1}, {1});
  const float value = 1;

  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"load_report", [&] { rt.load_report(); }},
      {"physical_devices", [&] { rt.physical_devices(); }},
      {"devices", [&] { rt.devices(); }},
      {"kernels", [&] { rt.kernels(); }},
      {"set_visible_devices", [&] { rt.set_visible_devices({"CPU:0"}); }},
      {"set_device_count", [&] { rt.set_device_count("CPU", 1); }},
      {"set_logical_devices", [&] { rt.set_logical_devices("CPU:0", {{}, {}}); }},
      {"set_memory_policy", [&] { rt.set_memory_policy("CPU", {}); }},
      {"initialize", [&] { rt.initialize(); }},
      {"initialized", [&] { rt.initialized(); }},
      {"memory_stats", [&] { rt.memory_stats("CPU:0"); }},
      {"reset_peak_memory", [&] { rt.reset_peak_memory("CPU:0"); }},
      {"release_unused_memory", [&] { rt.release_unused_memory(); }},
      {"effective_config", [&] { rt.effective_config(); }},
      {"execute", [&] { rt.execute("Relu", {x}); }},
      {"execute (vector)", [&] { rt.execute("Relu", std::vector<hxrt::Tensor>{x}); }},
      {"execute_multi", [&] { rt.execute_multi("Relu", {x}); }},
      {"from_host", [&] { rt.from_host(hxrt::DType::kF32, {1}, &value, sizeof value); }},
      {"tensor", [&] { rt.tensor<float>({1}, {1}); }},
      {"to_device", [&] { rt.to_device(x, "CPU:0"); }},
      {"to_device (empty tensor)", [&] { rt.to_device(hxrt::Tensor(), "CPU:0"); }},
      {"device", [&] { auto scope = rt.device("CPU:0"); }},
      {"set_placement_function", [&] { rt.set_placement_function({}); }},
      {"set_soft_placement", [&] { rt.set_soft_placement(hxrt::SoftPlacement::kSoft); }},
      {"soft_placement", [&] { rt.soft_placement(); }},
      {"device_priority", [&] { rt.device_priority(); }},
      {"set_log_device_placement", [&] { rt.set_log_device_placement(true); }},
      {"log_device_placement", [&] { rt.log_device_placement(); }},
      {"set_log_sink", [&] { rt.set_log_sink({}); }},
  };
  for (const auto& call : calls) {
    INFO(call.first);
    auto error = error_from(call.second);
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
    CHECK_THAT(error->what(), Contains("this Runtime is empty (moved from)"));
  }

  // The state moved with it, and a Runtime assigned to the empty one makes it usable again.
  CHECK(moved_to.execute("Relu", {x}).to_vector<float>() == std::vector<float>{1});
  rt = std::move(moved_to);
  CHECK(rt.execute("Relu", {x}).to_vector<float>() == std::vector<float>{1});
}
