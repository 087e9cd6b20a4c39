// Runtimes with the CPU plugin and the simulated accelerator, for the device setup tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "byte_sizes.hpp"
#include "error_from.hpp"
#include "hxrt/runtime.hpp"
#include "hxrt/sim_counters.h"

namespace devices_test {

using hxrt_test::error_from;

using hxrt_test::kMiB;

// Sim options: one or two 64 MiB GPUs.
inline constexpr const char* kOneSimGpu =
    R"({"device_type":"GPU","device_count":1,"memory_mb":64})";
inline constexpr const char* kTwoSimGpus =
    R"({"device_type":"GPU","device_count":2,"memory_mb":64})";

// The fixture plugin (device type QUEUED) whose work counts as queued until synchronised.
inline const std::string kQueuedWork =
    std::string(HXRT_TEST_FIXTURE_DIR) + "/memory/libhx_fixture_queued_work.so";

// CPU plugin plus the sim with `sim_options_json`, e.g. {"device_type":"GPU","device_count":2}.
hxrt::RuntimeOptions cpu_and_sim(const std::string& sim_options_json);
hxrt::Runtime make_runtime(const std::string& sim_options_json);

// Collects every log line (info and above) from start-up on.
struct LogLines {
  std::vector<std::string> lines;
  void attach(hxrt::RuntimeOptions& options);
  bool contains(const std::string& line) const;
};

// A tensor of `bytes` / 4 floats on `device`, counting up from `first`.
hxrt::Tensor counting_tensor(hxrt::Runtime& rt, size_t bytes, float first,
                             const std::string& device);
// Whether `tensor` still holds what counting_tensor put in it.
bool holds_counting(const hxrt::Tensor& tensor, float first);

// The sim plugin's transfer counts for one physical ordinal.
hx_sim_transfer_counts_t sim_counts(int32_t ordinal);

const hxrt::DeviceInfo& find_device(const std::vector<hxrt::DeviceInfo>& devices,
                                    const std::string& short_name);
const hxrt::PhysicalDeviceInfo& find_physical(const std::vector<hxrt::PhysicalDeviceInfo>& devices,
                                              const std::string& short_name);

}  // namespace devices_test
