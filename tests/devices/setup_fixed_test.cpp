// The device setup may change until initialisation and never after, with TensorFlow's errors;
// a setup that cannot be applied leaves the runtime uninitialised and fixable.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "devices_runtime.hpp"

namespace {

using namespace devices_test;

hxrt::MemoryPolicy growth() {
  hxrt::MemoryPolicy policy;
  policy.growth = true;
  return policy;
}

// Each setter with the guide's text it must throw once the runtime is initialised.
struct Setter {
  const char* name;
  std::function<void(hxrt::Runtime&)> call;
  const char* guide_error;
};

std::vector<Setter> setters() {
  return {
      {"set_visible_devices", [](hxrt::Runtime& rt) { rt.set_visible_devices({"GPU:1"}); },
       "Visible devices cannot be modified after being initialized"},
      {"set_device_count", [](hxrt::Runtime& rt) { rt.set_device_count("GPU", 1); },
       "Visible devices cannot be modified after being initialized"},
      {"set_logical_devices",
       [](hxrt::Runtime& rt) { rt.set_logical_devices("GPU:0", {{8}, {8}}); },
       "Virtual devices cannot be modified after being initialized"},
      {"set_memory_policy", [](hxrt::Runtime& rt) { rt.set_memory_policy("GPU", growth()); },
       "Physical devices cannot be modified after being initialized"},
  };
}

// Calls that initialise the runtime, as TensorFlow's first op or device listing does.
std::vector<std::pair<const char*, std::function<void(hxrt::Runtime&)>>> initialisers() {
  return {
      {"initialize", [](hxrt::Runtime& rt) { rt.initialize(); }},
      {"devices", [](hxrt::Runtime& rt) { rt.devices(); }},
      {"from_host", [](hxrt::Runtime& rt) { rt.tensor<float>({1}, {1}); }},
      {"execute", [](hxrt::Runtime& rt) {
         rt.execute("Fill", {}, {{"shape", std::vector<int64_t>{2}}, {"value", 1.0}});
       }},
      {"memory_stats", [](hxrt::Runtime& rt) { rt.memory_stats("CPU:0"); }},
      {"release_unused_memory", [](hxrt::Runtime& rt) { rt.release_unused_memory(); }},
      {"device_priority", [](hxrt::Runtime& rt) { rt.device_priority(); }},
  };
}

}  // namespace

TEST_CASE("Every setter works before initialisation", "[devices][setup]") {
  for (const Setter& setter : setters()) {
    INFO(setter.name);
    hxrt::Runtime rt = make_runtime(kTwoSimGpus);
    CHECK_NOTHROW(setter.call(rt));
    CHECK_FALSE(rt.initialized());
    CHECK_NOTHROW(rt.initialize());
    CHECK(rt.initialized());
  }
}

TEST_CASE("After initialisation every setter throws the guide's error and changes nothing",
          "[devices][setup]") {
  for (const auto& [how, initialise] : initialisers()) {
    for (const Setter& setter : setters()) {
      INFO(how << " then " << setter.name);
      hxrt::Runtime rt = make_runtime(kTwoSimGpus);
      initialise(rt);
      CHECK(rt.initialized());
      const auto error = error_from([&] { setter.call(rt); });
      REQUIRE(error);
      CHECK(error->code() == hxrt::StatusCode::kFailedPrecondition);
      CHECK_THAT(error->what(), Catch::StartsWith(setter.guide_error) &&
                                    Catch::Contains("make this call before it"));
      CHECK(rt.devices().size() == 3);
    }
  }
}

TEST_CASE("Looking at plugins, physical devices, kernels and the config does not initialise",
          "[devices][setup]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  CHECK(rt.load_report().size() == 2);
  CHECK(rt.physical_devices().size() == 3);
  CHECK_FALSE(rt.kernels().empty());
  CHECK_FALSE(rt.effective_config().empty());
  auto scope = rt.device("/GPU:1");
  CHECK_FALSE(rt.initialized());
  CHECK_NOTHROW(rt.set_visible_devices({"GPU:1"}));
}

TEST_CASE("A setup that cannot be applied leaves the runtime uninitialised and fixable",
          "[devices][setup]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  hxrt::MemoryPolicy policy;
  policy.preallocate = true;  // without a limit: no budget to take
  rt.set_memory_policy("GPU:1", policy);
  auto error = error_from([&] { rt.initialize(); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("preallocate needs a budget"));
  CHECK_FALSE(rt.initialized());
  // Ops report the same error rather than running on a half-made setup.
  error = error_from([&] { rt.tensor<float>({1}, {1}); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("preallocate needs a budget"));

  policy.limit_mb = 8;
  rt.set_memory_policy("GPU:1", policy);
  CHECK_NOTHROW(rt.initialize());
  CHECK(rt.memory_stats("GPU:1").bytes_reserved == 8 * kMiB);
}

TEST_CASE("A preallocation the device cannot hold fails at initialisation, naming the device",
          "[devices][setup][memory]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);  // 64 MiB each
  hxrt::MemoryPolicy policy;
  policy.preallocate = true;
  policy.limit_mb = 128;
  rt.set_memory_policy("GPU", policy);
  const auto error = error_from([&] { rt.initialize(); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("GPU:0") && Catch::Contains("128.00 MiB"));
  CHECK_FALSE(rt.initialized());
  // What was preallocated before the failure went back: the devices are whole again.
  policy.limit_mb = 64;
  rt.set_memory_policy("GPU", policy);
  CHECK_NOTHROW(rt.initialize());
  CHECK(rt.memory_stats("GPU:0").bytes_reserved == 64 * kMiB);
  CHECK(rt.memory_stats("GPU:1").bytes_reserved == 64 * kMiB);
}

TEST_CASE("A bad setter argument is an invalid-argument error, before or after nothing changes",
          "[devices][setup]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  auto error = error_from([&] { rt.set_visible_devices({"GPU"}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  error = error_from([&] { rt.set_device_count("GPU", -1); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  error = error_from([&] { rt.set_logical_devices("GPU:0", {}); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  hxrt::MemoryPolicy contradiction;
  contradiction.growth = true;
  contradiction.preallocate = true;
  error = error_from([&] { rt.set_memory_policy("GPU", contradiction); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK(rt.devices().size() == 3);
}

TEST_CASE("effective_config shows setters and run-time switches as set by the API",
          "[devices][setup]") {
  hxrt::Runtime rt = make_runtime(kTwoSimGpus);
  rt.set_visible_devices({"gpu:1"});
  rt.initialize();
  rt.set_soft_placement(hxrt::SoftPlacement::kSoft);
  rt.set_log_device_placement(true);
  auto setting = [&](const std::string& path) {
    for (const hxrt::ConfigSetting& each : rt.effective_config()) {
      if (each.path == path) return each.value + " (" + each.source + ")";
    }
    return std::string("absent");
  };
  CHECK(setting("/visible_devices") == R"(["GPU:1"] (API))");
  CHECK(setting("/placement/soft_placement") == R"("soft" (API))");
  CHECK(setting("/log_device_placement") == "true (API)");
  CHECK(setting("/log_level") == R"("warning" (default))");
}
