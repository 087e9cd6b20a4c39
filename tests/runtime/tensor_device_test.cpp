// Where a tensor made with no device and outside every scope goes: the first device of the
// highest-priority type, as TensorFlow puts it, unless placement.tensor_device says otherwise.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "runtime_fixture.hpp"

namespace {

// The CPU plugin and one sim device of type GPU in `placement_class`.
hxrt::RuntimeOptions cpu_and_sim_gpu(const std::string& placement_class) {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.plugin_paths.push_back(std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_sim.so");
  options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 2, "memory_mb": 8,
                                      "placement_class": ")" + placement_class + R"("})";
  return options;
}

std::string device_of_new_tensor(hxrt::Runtime& rt) {
  return rt.tensor<float>({2}, {1, 2}).device();
}

std::string full(const std::string& short_name) {
  return "/job:localhost/replica:0/task:0/device:" + short_name;
}

std::string setting(const hxrt::Runtime& rt, const std::string& path) {
  for (const hxrt::ConfigSetting& each : rt.effective_config()) {
    if (each.path == path) return each.value + " (" + each.source + ")";
  }
  return "<absent>";
}

}  // namespace

TEST_CASE("a tensor made with no device goes to the first device of the highest-priority type") {
  SECTION("a discrete GPU comes before the CPU") {
    hxrt::Runtime rt = hxrt::Runtime::create(cpu_and_sim_gpu("discrete_accelerator"));
    CHECK(device_of_new_tensor(rt) == full("GPU:0"));
  }
  SECTION("the CPU comes before an accelerator on the host's own processors") {
    hxrt::Runtime rt = hxrt::Runtime::create(cpu_and_sim_gpu("host_accelerator"));
    CHECK(device_of_new_tensor(rt) == full("CPU:0"));
  }
  SECTION("placement.device_priority overrides the class order") {
    hxrt::RuntimeOptions options = cpu_and_sim_gpu("discrete_accelerator");
    options.device_priority = std::vector<std::string>{"CPU"};
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    CHECK(device_of_new_tensor(rt) == full("CPU:0"));
  }
}

TEST_CASE("placement.tensor_device puts such tensors elsewhere, a scope or a device still wins") {
  hxrt::RuntimeOptions options = cpu_and_sim_gpu("discrete_accelerator");
  options.tensor_device = "/gpu:1";
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  CHECK(setting(rt, "/placement/tensor_device") == R"("/gpu:1" (API))");
  CHECK(device_of_new_tensor(rt) == full("GPU:1"));
  {
    auto scope = rt.device("CPU:0");
    CHECK(device_of_new_tensor(rt) == full("CPU:0"));
  }
  CHECK(rt.tensor<float>({1}, {1}, "GPU:0").device() == full("GPU:0"));
}

TEST_CASE("a placement.tensor_device that does not exist is an unknown device naming the "
          "setting, or the default device under soft placement") {
  hxrt::RuntimeOptions options = cpu_and_sim_gpu("discrete_accelerator");
  options.tensor_device = "GPU:5";
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  const auto error = runtime_test::error_from([&] { device_of_new_tensor(rt); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             Catch::StartsWith(full("GPU:5") +
                               " unknown device (placement.tensor_device, set by API).") &&
                 Catch::Contains("Existing devices: "));
  rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
  CHECK(device_of_new_tensor(rt) == full("GPU:0"));
}

TEST_CASE("a malformed placement.tensor_device is refused by create, naming its path") {
  hxrt::RuntimeOptions options = runtime_test::cpu_only_options();
  options.tensor_device = "GPU:-1";
  const auto error = runtime_test::error_from([&] { hxrt::Runtime::create(options); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("API: /placement/tensor_device: Invalid device name"));
}
