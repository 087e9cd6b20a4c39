// Shared pieces of the sim plugin tests: runtimes that load the freshly built CPU and sim
// plugins, seeded random data, and the sim plugin's transfer counters.
#pragma once

#include <hxrt/sim_counters.h>

#include <cstdint>
#include <hxrt/hxrt.hpp>
#include <string>
#include <vector>

namespace sim_test {

// The options of the guide's set-up: four simulated devices standing in for GPUs.
inline constexpr const char* kFourGpus = R"({"device_type":"GPU","device_count":4})";

std::string cpu_plugin_path();
std::string sim_plugin_path();

// A runtime with exactly the CPU and sim plugins; the sim plugin gets `sim_options` (none when
// empty).
hxrt::Runtime make_runtime(const std::string& sim_options);
// One runtime with kFourGpus per test process, created on first use; fails the test unless
// both plugins loaded.
hxrt::Runtime& four_gpus();

// The load report of the sim plugin's file; fails the test when there is none.
const hxrt::PluginReport& sim_report(const hxrt::Runtime& rt);

// `count` floats in [-10, 10] drawn with a fixed seed.
std::vector<float> random_floats(size_t count, uint32_t seed);

// The counters of the sim plugin a live runtime has loaded (the library is looked up, not
// loaded again).
class TransferCounts {
 public:
  TransferCounts();
  ~TransferCounts();
  TransferCounts(const TransferCounts&) = delete;
  TransferCounts& operator=(const TransferCounts&) = delete;

  hx_sim_transfer_counts_t of(int32_t ordinal) const;
  void reset() const;
  // The exported function itself, for its error returns.
  hx_sim_transfer_counts_fn read_function() const { return read_; }

 private:
  void* library_ = nullptr;
  hx_sim_transfer_counts_fn read_ = nullptr;
  hx_sim_reset_transfer_counts_fn reset_ = nullptr;
};

}  // namespace sim_test
