// Runtimes with the CPU plugin and the simulated accelerator, and the sim's copy counters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "error_from.hpp"
#include "hxrt/runtime.hpp"
#include "hxrt/sim_counters.h"

namespace placement_test {

using hxrt_test::error_from;

inline const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
inline const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";
inline const std::string kGpu2 = "/job:localhost/replica:0/task:0/device:GPU:2";
inline const std::string kGpu3 = "/job:localhost/replica:0/task:0/device:GPU:3";
inline const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";

// CPU plugin plus the sim with `sim_options` (JSON text).
hxrt::RuntimeOptions sim_options(const std::string& sim_options_json);
// CPU plus four simulated GPUs, as in the guide.
hxrt::Runtime four_gpus();

// Every log line the runtime writes, in order.
struct LogCapture {
  std::vector<std::string> lines;
  void attach(hxrt::Runtime& runtime);
  bool contains(const std::string& line) const;
  size_t count_starting_with(const std::string& prefix) const;
};

// The sim plugin's transfer counts for one device ordinal.
hx_sim_transfer_counts_t sim_counts(int32_t ordinal);
void reset_sim_counts();

}  // namespace placement_test
