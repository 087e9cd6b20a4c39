// Runtimes with the CPU plugin and the simulated accelerator, for the device setup tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "error_from.hpp"
#include "hxrt/runtime.hpp"
#include "hxrt/sim_counters.h"

namespace devices_test {

using hxrt_test::error_from;

constexpr size_t kMiB = size_t{1} << 20;

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
