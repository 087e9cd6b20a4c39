// Visible devices as TensorFlow's set_visible_devices takes them: a name that matches no
// physical device is refused when it is set (by the API, the config file or
// $HXRT_VISIBLE_DEVICES), and naming the visible devices again after initialisation is no
// change, while naming others is the guide's error.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "devices_runtime.hpp"

namespace {

using namespace devices_test;

constexpr const char* kPhysical = "the physical devices are CPU:0, GPU:0, GPU:1";

std::vector<std::string> logical_names(const hxrt::Runtime& rt) {
  std::vector<std::string> names;
  for (const hxrt::DeviceInfo& device : rt.devices()) names.push_back(device.short_name);
  return names;
}

}  // namespace

TEST_CASE("set_visible_devices refuses a name that matches no physical device, listing them",
          "[devices][visible]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  const auto error = error_from([&] { rt.set_visible_devices({"GPU:1", "/physical_device:gpu:5"}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("API: /visible_devices/1: GPU:5 matches no "
                                              "physical device; ") &&
                                Catch::Contains(kPhysical));
  // Nothing changed: both GPUs stay visible.
  CHECK(logical_names(rt) == std::vector<std::string>{"CPU:0", "GPU:0", "GPU:1"});
}

TEST_CASE("A config file's visible device that matches no physical device fails create",
          "[devices][visible]") {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "hxrt_visible_devices_test.json";
  std::ofstream(file) << R"({"visible_devices": ["GPU:0", "TPU:0"]})";
  hxrt::RuntimeOptions options = cpu_and_sim(kTwoSimGpus);
  options.config_path = file.string();
  const auto error = error_from([&] { hxrt::Runtime::create(options); });
  std::filesystem::remove(file);
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(),
             Catch::StartsWith("file " + file.string() +
                               ": /visible_devices/1: TPU:0 matches no physical device; ") &&
                 Catch::Contains(kPhysical));
}

TEST_CASE("An $HXRT_VISIBLE_DEVICES name that matches no physical device fails create",
          "[devices][visible]") {
  setenv("HXRT_VISIBLE_DEVICES", "GPU:2", 1);
  const auto error = error_from([] { make_runtime(kTwoSimGpus); });
  unsetenv("HXRT_VISIBLE_DEVICES");
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("environment HXRT_VISIBLE_DEVICES: "
                                              "/visible_devices/0: GPU:2 matches no physical "
                                              "device; ") &&
                                Catch::Contains(kPhysical));
}

TEST_CASE("After initialisation, naming the visible devices again is no change",
          "[devices][visible]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  SECTION("every device visible by default, then named") {
    rt.initialize();
    CHECK_NOTHROW(rt.set_visible_devices({"GPU:0", "GPU:1"}));
    CHECK_NOTHROW(rt.set_visible_devices({"CPU:0", "/physical_device:gpu:0", "GPU:1"}));
  }
  SECTION("a visible list set before, then named again in another spelling") {
    rt.set_visible_devices({"GPU:1"});
    rt.initialize();
    CHECK_NOTHROW(rt.set_visible_devices({"/physical_device:GPU:1"}));
  }
  CHECK(rt.initialized());
}

TEST_CASE("After initialisation, other visible devices, or another order, are the guide's "
          "error, a name that matches none is still an invalid argument",
          "[devices][visible]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  rt.initialize();
  const std::vector<std::string> before = logical_names(rt);
  for (const std::vector<std::string>& other :
       {std::vector<std::string>{"GPU:1"}, std::vector<std::string>{"GPU:1", "GPU:0"}}) {
    const auto error = error_from([&] { rt.set_visible_devices(other); });
    REQUIRE(error);
    CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
    CHECK_THAT(error->what(),
               Catch::StartsWith("Visible devices cannot be modified after being initialized"));
  }
  const auto unknown = error_from([&] { rt.set_visible_devices({"GPU:7"}); });
  REQUIRE(unknown);
  CHECK(unknown->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK(logical_names(rt) == before);
}
