// Logical devices on real plugins: a sim GPU split in two, a split CPU, visible devices and
// device counts, and the mapping logged at start-up.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "devices_runtime.hpp"

namespace {

using namespace devices_test;

constexpr const char* kFourSimGpus = R"({"device_type":"GPU","device_count":4,"memory_mb":64})";

std::vector<std::string> short_names(const std::vector<hxrt::DeviceInfo>& devices) {
  std::vector<std::string> names;
  for (const auto& device : devices) names.push_back(device.short_name);
  return names;
}

}  // namespace

TEST_CASE("One sim GPU split into two logical GPUs: both listed, each with its own limit",
          "[devices][logical]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  rt.set_logical_devices("GPU:0", {{32}, {32}});
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  CHECK(short_names(devices) == std::vector<std::string>{"CPU:0", "GPU:0", "GPU:1"});
  CHECK(find_device(devices, "GPU:0").physical == "GPU:0");
  CHECK(find_device(devices, "GPU:1").physical == "GPU:0");
  CHECK(find_device(devices, "GPU:1").name == "/job:localhost/replica:0/task:0/device:GPU:1");
  CHECK(find_device(devices, "GPU:1").memory_policy == "growth, limit 32.00 MiB");
  CHECK(find_physical(rt.physical_devices(), "GPU:0").logical ==
        std::vector<std::string>{"GPU:0", "GPU:1"});
  CHECK(rt.memory_stats("GPU:0").bytes_limit == 32 * kMiB);
  CHECK(rt.memory_stats("/device:GPU:1").bytes_limit == 32 * kMiB);

  // Ops run on either; a copy between them stays on the physical device.
  const hxrt::Tensor a = rt.tensor<float>({2, 2}, {1, 2, 3, 4}, "GPU:1");
  const hxrt::Tensor b = rt.tensor<float>({2, 2}, {1, 0, 0, 1}, "GPU:0");
  const uint64_t d2d_before = sim_counts(0).device_to_device;
  const hxrt::Tensor c = rt.execute("MatMul", {a, b}, {}, "/GPU:1");
  CHECK(c.device() == "/job:localhost/replica:0/task:0/device:GPU:1");
  CHECK(c.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  CHECK(sim_counts(0).device_to_device == d2d_before + 1);
}

TEST_CASE("Each logical device's limit is enforced on its own", "[devices][logical][memory]") {
  hxrt::Runtime rt = make_runtime(kOneSimGpu);
  rt.set_logical_devices("GPU:0", {{16}, {16}});
  std::vector<hxrt::Tensor> held;
  std::optional<hxrt::Error> error;
  for (int i = 0; i < 16 && !error; ++i) {
    error = error_from([&] { held.push_back(counting_tensor(rt, 2 * kMiB, float(i), "GPU:0")); });
  }
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kOutOfMemory);
  CHECK_THAT(error->what(), Catch::Contains("device:GPU:0") && Catch::Contains("limit 16.00 MiB"));
  CHECK(held.size() >= 4);
  CHECK(held.size() <= 8);
  CHECK(rt.memory_stats("GPU:0").bytes_reserved <= 16 * kMiB);

  // GPU:1 has all of its own 16 MiB.
  std::vector<hxrt::Tensor> other;
  for (int i = 0; i < static_cast<int>(held.size()); ++i) {
    other.push_back(counting_tensor(rt, 2 * kMiB, float(100 + i), "GPU:1"));
  }
  for (size_t i = 0; i < held.size(); ++i) CHECK(holds_counting(held[i], float(i)));
  for (size_t i = 0; i < other.size(); ++i) CHECK(holds_counting(other[i], float(100 + i)));
}

TEST_CASE("The CPU splits into logical devices too", "[devices][logical]") {
  hxrt::Runtime rt = make_runtime(R"({"device_count":0})");
  rt.set_logical_devices("/physical_device:CPU:0", {{}, {}});
  CHECK(short_names(rt.devices()) == std::vector<std::string>{"CPU:0", "CPU:1"});
  const hxrt::Tensor a = rt.tensor<float>({3}, {1, 2, 3}, "CPU:0");
  const hxrt::Tensor b = rt.to_device(a, "CPU:1");
  CHECK(b.device() == "/job:localhost/replica:0/task:0/device:CPU:1");
  const hxrt::Tensor c = rt.execute("Add", {a, b}, {}, "CPU:1");
  CHECK(c.device() == "/job:localhost/replica:0/task:0/device:CPU:1");
  CHECK(c.to_vector<float>() == std::vector<float>{2, 4, 6});
  CHECK(rt.memory_stats("CPU:1").allocation_count >= 2);
}

TEST_CASE("Visible devices pick physical devices in the order given and renumber them",
          "[devices][visible]") {
  hxrt::Runtime rt = make_runtime(kFourSimGpus);
  rt.set_visible_devices({"GPU:2", "/physical_device:GPU:0"});
  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  CHECK(short_names(devices) == std::vector<std::string>{"CPU:0", "GPU:0", "GPU:1"});
  CHECK(find_device(devices, "GPU:0").physical == "GPU:2");
  CHECK(find_device(devices, "GPU:1").physical == "GPU:0");
  const auto physical = rt.physical_devices();
  CHECK(find_physical(physical, "GPU:1").logical.empty());
  CHECK(find_physical(physical, "GPU:3").logical.empty());

  // Logical GPU:0 is physical ordinal 2: the copy lands there.
  const uint64_t before = sim_counts(2).host_to_device;
  rt.tensor<float>({2}, {1, 2}, "GPU:0");
  CHECK(sim_counts(2).host_to_device == before + 1);
}

TEST_CASE("HXRT_VISIBLE_DEVICES filters devices like visible_devices", "[devices][visible]") {
  setenv("HXRT_VISIBLE_DEVICES", "GPU:3, GPU:1", 1);
  hxrt::Runtime runtime = [] {
    struct Unset {
      ~Unset() { unsetenv("HXRT_VISIBLE_DEVICES"); }
    } unset;
    return make_runtime(kFourSimGpus);
  }();
  const std::vector<hxrt::DeviceInfo> devices = runtime.devices();
  CHECK(short_names(devices) == std::vector<std::string>{"CPU:0", "GPU:0", "GPU:1"});
  CHECK(find_device(devices, "GPU:0").physical == "GPU:3");
  CHECK(find_device(devices, "GPU:1").physical == "GPU:1");
}

TEST_CASE("device_count 0 hides a type, and placement goes on without it", "[devices][visible]") {
  hxrt::Runtime rt = make_runtime(kFourSimGpus);
  rt.set_device_count("GPU", 0);
  CHECK(short_names(rt.devices()) == std::vector<std::string>{"CPU:0"});
  const hxrt::Tensor a = rt.tensor<float>({1, 1}, {3});
  CHECK(rt.execute("MatMul", {a, a}).device() == "/job:localhost/replica:0/task:0/device:CPU:0");
}

TEST_CASE("The physical -> visible -> logical mapping is logged at initialisation",
          "[devices][logical]") {
  LogLines log;
  hxrt::RuntimeOptions options = cpu_and_sim(R"({"device_type":"GPU","device_count":2,"memory_mb":64})");
  log.attach(options);
  hxrt::Runtime rt = hxrt::Runtime::create(options);
  rt.set_visible_devices({"GPU:1"});
  rt.set_logical_devices("GPU:1", {{8}, {8}});
  CHECK_FALSE(log.contains("physical device GPU:1 (plugin 'sim') -> logical GPU:0, GPU:1"));
  rt.initialize();
  CHECK(log.contains("physical device CPU:0 (plugin 'cpu') -> logical CPU:0"));
  CHECK(log.contains("physical device GPU:0 (plugin 'sim') -> not visible"));
  CHECK(log.contains("physical device GPU:1 (plugin 'sim') -> logical GPU:0, GPU:1"));
  CHECK(log.contains("device GPU:1 = /job:localhost/replica:0/task:0/device:GPU:1: growth, "
                     "limit 8.00 MiB"));
}
