// The planner alone: visible filter, device counts, logical splits and memory policies,
// on made-up physical devices.
#include "devices/device_plan.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "byte_sizes.hpp"
#include "error_from.hpp"

namespace {

using hxrt::detail::DevicePlan;
using hxrt::detail::DeviceSettings;
using hxrt::detail::LogicalDevicePlan;
using hxrt::detail::plan_devices;

using hxrt_test::kMiB;
constexpr uint64_t kGiB = uint64_t{1} << 30;

hxrt::PhysicalDeviceInfo physical(const std::string& type, int id, uint64_t memory_total) {
  hxrt::PhysicalDeviceInfo device;
  device.type = type;
  device.id = id;
  device.short_name = type + ":" + std::to_string(id);
  device.name = "/physical_device:" + device.short_name;
  device.plugin = type == "CPU" ? "cpu" : "sim";
  device.memory_total = memory_total;
  return device;
}

// CPU:0 (16 GiB), then GPU:0..3 (8 GiB each).
std::vector<hxrt::PhysicalDeviceInfo> machine() {
  std::vector<hxrt::PhysicalDeviceInfo> devices{physical("CPU", 0, 16 * kGiB)};
  for (int i = 0; i < 4; ++i) devices.push_back(physical("GPU", i, 8 * kGiB));
  return devices;
}

// "GPU:1<-2" for a logical GPU:1 cut from physical index 2, one per planned device.
std::vector<std::string> mapping(const DevicePlan& plan,
                                 const std::vector<hxrt::PhysicalDeviceInfo>& devices) {
  std::vector<std::string> out;
  for (const auto& logical : plan.devices) {
    const auto& source = devices[logical.physical];
    out.push_back(source.type + ":" + std::to_string(logical.id) + "<-" + source.short_name);
  }
  return out;
}

hxrt::MemoryPolicy limit_mb(uint64_t mb) {
  hxrt::MemoryPolicy policy;
  policy.limit_mb = mb;
  return policy;
}

}  // namespace

TEST_CASE("With no settings every physical device is one logical device with growth and no limit",
          "[devices][plan]") {
  const auto devices = machine();
  const DevicePlan plan = plan_devices(devices, {});
  CHECK(mapping(plan, devices) == std::vector<std::string>{"CPU:0<-CPU:0", "GPU:0<-GPU:0",
                                                          "GPU:1<-GPU:1", "GPU:2<-GPU:2",
                                                          "GPU:3<-GPU:3"});
  for (const auto& logical : plan.devices) {
    CHECK_FALSE(logical.memory.preallocate);
    CHECK_FALSE(logical.memory.release_unused);
    CHECK(logical.memory.limit_bytes == SIZE_MAX);
    CHECK(logical.policy == "growth, no limit");
  }
  CHECK(plan.warnings.empty());
}

TEST_CASE("visible_devices keeps the named devices of a type in the order given, renumbered",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.visible_devices = std::vector<std::string>{"GPU:3", "GPU:1"};
  const DevicePlan plan = plan_devices(devices, settings);
  // CPU is not named, so all of it stays.
  CHECK(mapping(plan, devices) ==
        std::vector<std::string>{"CPU:0<-CPU:0", "GPU:0<-GPU:3", "GPU:1<-GPU:1"});
}

TEST_CASE("device_count keeps the first visible devices of a type, 0 hides the type",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.device_count["GPU"] = 2;
  CHECK(mapping(plan_devices(devices, settings), devices) ==
        std::vector<std::string>{"CPU:0<-CPU:0", "GPU:0<-GPU:0", "GPU:1<-GPU:1"});

  settings.visible_devices = std::vector<std::string>{"GPU:2", "GPU:3", "GPU:0"};
  CHECK(mapping(plan_devices(devices, settings), devices) ==
        std::vector<std::string>{"CPU:0<-CPU:0", "GPU:0<-GPU:2", "GPU:1<-GPU:3"});

  settings.device_count["GPU"] = 0;
  CHECK(mapping(plan_devices(devices, settings), devices) ==
        std::vector<std::string>{"CPU:0<-CPU:0"});
}

TEST_CASE("A logical split makes consecutive ids, and later devices of the type follow",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.logical["GPU:0"] = {{1024}, {1024}};
  settings.logical["CPU:0"] = {{}, {}};
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK(mapping(plan, devices) ==
        std::vector<std::string>{"CPU:0<-CPU:0", "CPU:1<-CPU:0", "GPU:0<-GPU:0", "GPU:1<-GPU:0",
                                 "GPU:2<-GPU:1", "GPU:3<-GPU:2", "GPU:4<-GPU:3"});
  CHECK(plan.devices[2].memory.limit_bytes == 1024 * kMiB);
  CHECK(plan.devices[3].memory.limit_bytes == 1024 * kMiB);
  CHECK(plan.devices[2].policy == "growth, limit 1.00 GiB");
  // Without limits of their own or of the physical device, CPU parts have none.
  CHECK(plan.devices[0].memory.limit_bytes == SIZE_MAX);
}

TEST_CASE("Logical devices without a limit share what the others leave of the physical limit",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.memory["GPU:1"] = limit_mb(4096);
  settings.logical["GPU:1"] = {{1024}, {}, {}};
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK(plan.devices[2].memory.limit_bytes == 1024 * kMiB);
  CHECK(plan.devices[3].memory.limit_bytes == 1536 * kMiB);
  CHECK(plan.devices[4].memory.limit_bytes == 1536 * kMiB);
}

TEST_CASE("Logical limits may not add up to more than the physical limit or memory",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.memory["GPU"] = limit_mb(1024);
  settings.logical["GPU:0"] = {{1024}, {512}};
  auto error = hxrt_test::error_from([&] { plan_devices(devices, settings); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("the logical devices of GPU:0 ask for 1.50 GiB in all") &&
                                Catch::Contains("limit of 1.00 GiB"));

  settings.memory.clear();
  settings.logical["GPU:0"] = {{8192}, {1}};
  error = hxrt_test::error_from([&] { plan_devices(devices, settings); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("more than the 8.00 GiB the device has"));
}

TEST_CASE("A device's policy overrides its type's field by field, a limit replaces both limits",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  hxrt::MemoryPolicy type_policy;
  type_policy.fraction = 0.5;
  type_policy.release_unused = true;
  settings.memory["GPU"] = type_policy;
  settings.memory["GPU:2"] = limit_mb(6144);  // above the type's fraction: still the limit
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK(plan.devices[1].memory.limit_bytes == 4 * kGiB);
  CHECK(plan.devices[1].memory.release_unused);
  CHECK(plan.devices[1].policy == "growth, limit 4.00 GiB, release unused");
  CHECK(plan.devices[3].memory.limit_bytes == 6 * kGiB);
  CHECK(plan.devices[3].memory.release_unused);
  CHECK(plan.devices[0].memory.limit_bytes == SIZE_MAX);  // CPU untouched
}

TEST_CASE("limit_mb and fraction in one policy: the smaller holds", "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  hxrt::MemoryPolicy policy;
  policy.limit_mb = 2048;
  policy.fraction = 0.125;  // 1 GiB of 8
  settings.memory["GPU"] = policy;
  CHECK(plan_devices(devices, settings).devices[1].memory.limit_bytes == 1 * kGiB);
  settings.memory["GPU"].fraction = 0.75;
  CHECK(plan_devices(devices, settings).devices[1].memory.limit_bytes == 2 * kGiB);
}

TEST_CASE("preallocate takes the limit as the budget and needs one", "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  hxrt::MemoryPolicy policy;
  policy.preallocate = true;
  settings.memory["GPU:0"] = policy;
  auto error = hxrt_test::error_from([&] { plan_devices(devices, settings); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("memory policy of GPU:0: preallocate needs a budget") &&
                                Catch::Contains("limit_mb or fraction"));

  settings.memory["GPU:0"].limit_mb = 512;
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK(plan.devices[1].memory.preallocate);
  CHECK(plan.devices[1].memory.limit_bytes == 512 * kMiB);
  CHECK(plan.devices[1].policy == "preallocate, limit 512.00 MiB");
  CHECK_FALSE(plan.devices[2].memory.preallocate);
}

TEST_CASE("HXRT_FORCE_MEMORY_GROWTH turns preallocation into growth, with a warning",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  hxrt::MemoryPolicy policy;
  policy.preallocate = true;
  policy.limit_mb = 512;
  settings.memory["GPU"] = policy;
  settings.force_memory_growth = true;
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK_FALSE(plan.devices[1].memory.preallocate);
  CHECK(plan.devices[1].memory.limit_bytes == 512 * kMiB);  // the limit still holds
  REQUIRE(plan.warnings.size() == 4);
  CHECK(plan.warnings[0] ==
        "HXRT_FORCE_MEMORY_GROWTH=true: GPU:0 grows its memory instead of preallocating as "
        "configured");
}

TEST_CASE("Logical limits that add up past 64 bits are refused, not wrapped round",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.logical["GPU:0"] = {{uint64_t{1} << 43}, {uint64_t{1} << 43}};  // 2^63 bytes each
  const auto error = hxrt_test::error_from([&] { plan_devices(devices, settings); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::Contains("more than the 8.00 GiB the device has"));
}

TEST_CASE("All of a device that reports UINT64_MAX bytes limits nothing", "[devices][plan]") {
  std::vector<hxrt::PhysicalDeviceInfo> devices{physical("NPU", 0, UINT64_MAX)};
  DeviceSettings settings;
  hxrt::MemoryPolicy policy;
  policy.fraction = 1.0;
  settings.memory["NPU"] = policy;
  const DevicePlan plan = plan_devices(devices, settings);
  REQUIRE(plan.devices.size() == 1);
  CHECK(plan.devices[0].memory.limit_bytes == SIZE_MAX);
}

TEST_CASE("A fraction of a device whose plugin reports no memory is an error", "[devices][plan]") {
  std::vector<hxrt::PhysicalDeviceInfo> devices{physical("NPU", 0, 0)};
  DeviceSettings settings;
  hxrt::MemoryPolicy policy;
  policy.fraction = 0.5;
  settings.memory["NPU"] = policy;
  const auto error = hxrt_test::error_from([&] { plan_devices(devices, settings); });
  REQUIRE(error);
  CHECK_THAT(error->what(), Catch::Contains("memory fraction 0.5") &&
                                Catch::Contains("reports no total memory for NPU:0") &&
                                Catch::Contains("set limit_mb instead"));
}

TEST_CASE("Settings naming absent devices of a present type are warnings, absent types are quiet",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.visible_devices = std::vector<std::string>{"GPU:7", "GPU:0", "TPU:0"};
  settings.memory["GPU:9"] = limit_mb(1);
  settings.memory["TPU:0"] = limit_mb(1);
  settings.logical["GPU:5"] = {{1}, {1}};
  const DevicePlan plan = plan_devices(devices, settings);
  CHECK(mapping(plan, devices) == std::vector<std::string>{"CPU:0<-CPU:0", "GPU:0<-GPU:0"});
  CHECK(plan.warnings == std::vector<std::string>{
                             "visible_devices names GPU:7, which does not exist; ignored",
                             "devices.GPU:9.memory names GPU:9, which does not exist; ignored",
                             "devices.GPU:5.logical names GPU:5, which does not exist; ignored"});
}

TEST_CASE("thread_caches false reaches every logical device's allocator and its policy text",
          "[devices][plan]") {
  const auto devices = machine();
  DeviceSettings settings;
  settings.logical["GPU:0"] = {{1024}, {1024}};
  for (const LogicalDevicePlan& logical : plan_devices(devices, settings).devices) {
    CHECK(logical.memory.thread_caches);
    CHECK_THAT(logical.policy, !Catch::Contains("thread caches"));
  }
  settings.thread_caches = false;
  const DevicePlan plan = plan_devices(devices, settings);
  REQUIRE(plan.devices.size() == devices.size() + 1);
  for (const LogicalDevicePlan& logical : plan.devices) {
    CHECK_FALSE(logical.memory.thread_caches);
    CHECK_THAT(logical.policy, Catch::EndsWith(", no thread caches"));
  }
}
