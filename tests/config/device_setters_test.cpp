// The device setters that Runtime calls with the source "API": the same checks and messages
// as the file, canonical names, layers merged field by field, origins replaced, and nothing
// changed by a call that fails.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "config/config.hpp"
#include "error_from.hpp"

using Catch::Matchers::Contains;
using hxrt::LogicalDeviceConfig;
using hxrt::MemoryPolicy;
using hxrt::detail::Config;
using hxrt_test::error_from;

namespace {

std::string api_error(const std::function<void(Config&)>& call) {
  Config config;
  auto error = error_from([&] { call(config); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK(config.origins.empty());  // a failed call sets nothing
  CHECK(config.devices.memory.empty());
  CHECK(config.devices.logical.empty());
  CHECK(config.devices.device_count.empty());
  CHECK_FALSE(config.devices.visible_devices);
  return error->what();
}

MemoryPolicy limit(uint64_t mib) {
  MemoryPolicy policy;
  policy.limit_mb = mib;
  return policy;
}

}  // namespace

TEST_CASE("set_visible_devices takes the guide's forms in any case and stores them canonical") {
  Config config;
  set_visible_devices(config, {"/physical_device:GPU:1", "gpu:0", "/SIM:2", "/device:cpu:0"},
                      "API");
  CHECK(config.devices.visible_devices ==
        std::vector<std::string>{"GPU:1", "GPU:0", "SIM:2", "CPU:0"});
  CHECK(config.origins.at("/visible_devices") == "API");
  set_visible_devices(config, {}, "API");  // no device named: every device stays visible
  CHECK(config.devices.visible_devices == std::vector<std::string>{});
}

TEST_CASE("set_visible_devices rejects partial names, malformed names and repeats") {
  using hxrt::detail::set_visible_devices;
  CHECK_THAT(api_error([](Config& c) { set_visible_devices(c, {"GPU:0", "GPU"}, "API"); }),
             Contains("API: /visible_devices/1: expected a physical device like \"GPU:0\", got "
                      "\"GPU\", which names a whole device type"));
  CHECK_THAT(api_error([](Config& c) { set_visible_devices(c, {"GPU:-1"}, "API"); }),
             Contains("API: /visible_devices/0: expected a physical device like \"GPU:0\""));
  CHECK_THAT(api_error([](Config& c) { set_visible_devices(c, {""}, "API"); }),
             Contains("API: /visible_devices/0: expected a physical device"));
  CHECK_THAT(api_error([](Config& c) { set_visible_devices(c, {"GPU:0", "/gpu:00"}, "API"); }),
             Contains("API: /visible_devices/1: \"/gpu:00\" names GPU:0 again (as "
                      "/visible_devices/0 does)"));
}

TEST_CASE("set_device_count takes a type and a count from 0, and hints where a device's goes") {
  Config config;
  set_device_count(config, "/device:gpu", 0, "API");
  CHECK(config.devices.device_count.at("GPU") == 0);
  CHECK(config.origins.at("/devices/GPU/device_count") == "API");

  using hxrt::detail::set_device_count;
  CHECK_THAT(api_error([](Config& c) { set_device_count(c, "GPU", -2, "API"); }),
             Contains("API: /devices/GPU/device_count: expected an integer from 0 to 2147483647, "
                      "got number -2"));
  CHECK_THAT(api_error([](Config& c) { set_device_count(c, "GPU:1", 1, "API"); }),
             Contains("API: /devices/GPU:1/device_count: device_count limits how many devices "
                      "of a type are used, so it belongs under the type"));
  CHECK_THAT(api_error([](Config& c) { set_device_count(c, "G PU", 1, "API"); }),
             Contains("API: /devices/G PU: expected a device type like \"GPU\" or a physical "
                      "device like \"GPU:0\""));
}

TEST_CASE("set_memory_policy checks every field as the file does") {
  using hxrt::detail::set_memory_policy;
  CHECK_THAT(api_error([](Config& c) { set_memory_policy(c, "GPU:0", limit(0), "API"); }),
             Contains("API: /devices/GPU:0/memory/limit_mb: expected a positive integer, got "
                      "number 0"));
  CHECK_THAT(api_error([](Config& c) {
               set_memory_policy(c, "GPU", limit(uint64_t{1} << 44), "API");
             }),
             Contains("API: /devices/GPU/memory/limit_mb: expected a positive integer of at most "
                      "17592186044415"));
  for (double fraction : {0.0, -0.5, 1.01, std::nan(""), std::numeric_limits<double>::infinity()}) {
    MemoryPolicy policy;
    policy.fraction = fraction;
    INFO(fraction);
    CHECK_THAT(api_error([&](Config& c) { set_memory_policy(c, "GPU", policy, "API"); }),
               Contains("API: /devices/GPU/memory/fraction: expected a number in (0, 1], got "
                        "number "));
  }
  MemoryPolicy contradiction;
  contradiction.growth = false;
  contradiction.preallocate = false;
  CHECK_THAT(api_error([&](Config& c) { set_memory_policy(c, "/gpu:1", contradiction, "API"); }),
             Contains("API: /devices/~1gpu:1/memory: growth false and preallocate false "
                      "contradict each other"));
  CHECK_THAT(api_error([](Config& c) { set_memory_policy(c, "GPU:0:1", limit(1), "API"); }),
             Contains("API: /devices/GPU:0:1: expected a device type like \"GPU\""));
}

TEST_CASE("set_memory_policy merges a layer field by field, a limit replacing both limits") {
  Config config;
  MemoryPolicy file;
  file.growth = false;
  file.limit_mb = 1024;
  file.release_unused = true;
  set_memory_policy(config, "GPU", file, "file hxrt.json");

  MemoryPolicy api;
  api.fraction = 0.25;
  set_memory_policy(config, "gpu", api, "API");
  const MemoryPolicy& merged = config.devices.memory.at("GPU");
  CHECK(merged.preallocate == true);  // the file's, untouched
  CHECK(merged.release_unused == true);
  CHECK(merged.fraction == 0.25);
  CHECK_FALSE(merged.limit_mb);  // replaced by the API's fraction, not kept beside it
  CHECK(config.origins.at("/devices/GPU/memory/growth") == "file hxrt.json");
  CHECK(config.origins.at("/devices/GPU/memory/fraction") == "API");
  CHECK(config.origins.count("/devices/GPU/memory/limit_mb") == 0);

  MemoryPolicy mode;
  mode.preallocate = false;
  set_memory_policy(config, "GPU", mode, "API");
  CHECK(config.devices.memory.at("GPU").preallocate == false);
  CHECK(config.origins.count("/devices/GPU/memory/growth") == 0);
  CHECK(config.origins.at("/devices/GPU/memory/preallocate") == "API");

  set_memory_policy(config, "CPU", MemoryPolicy{}, "API");  // nothing to set
  CHECK(config.devices.memory.count("CPU") == 0);
}

TEST_CASE("set_logical_devices: a non-empty list for one physical device") {
  Config config;
  std::vector<LogicalDeviceConfig> two(2);
  two[0].memory_limit_mb = 1024;
  set_logical_devices(config, "/physical_device:sim:0", two, "API");
  REQUIRE(config.devices.logical.at("SIM:0").size() == 2);
  CHECK(config.devices.logical.at("SIM:0")[0].memory_limit_mb == 1024u);
  CHECK(config.origins.at("/devices/SIM:0/logical") == "API");
  set_logical_devices(config, "SIM:0", std::vector<LogicalDeviceConfig>(3), "API");
  CHECK(config.devices.logical.at("SIM:0").size() == 3);  // replaced, not appended

  using hxrt::detail::set_logical_devices;
  CHECK_THAT(api_error([&](Config& c) { set_logical_devices(c, "SIM", two, "API"); }),
             Contains("API: /devices/SIM/logical: logical devices split one physical device, so "
                      "\"logical\" belongs under a device: \"devices\": {\"SIM:0\""));
  CHECK_THAT(api_error([](Config& c) { set_logical_devices(c, "GPU:0", {}, "API"); }),
             Contains("API: /devices/GPU:0/logical: expected a non-empty list of logical "
                      "devices"));
  std::vector<LogicalDeviceConfig> zero(2);
  zero[1].memory_limit_mb = 0;
  CHECK_THAT(api_error([&](Config& c) { set_logical_devices(c, "GPU:0", zero, "API"); }),
             Contains("API: /devices/GPU:0/logical/1/memory_limit_mb: expected a positive "
                      "integer, got number 0"));
}
