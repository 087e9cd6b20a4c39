// What the dynamic placer knows of costs (docs/dynamic-placer.md): kernel seconds per
// (op, device, size class) and copy seconds per (source, destination, size class), each the
// median of its recent measurements; before any, the device's and the link's calibrated speed
// (cost/calibration.hpp). Devices are named by their index among the runtime's devices.
// Thread-safe: runs add samples while compiles read estimates.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cost/sample_window.hpp"
#include "cost/work_size.hpp"

namespace hxrt::detail {

// A device's speed before any measurement of an op on it.
struct DeviceSpeed {
  double flops_per_second = 0;  // MatMul
  double bytes_per_second = 0;  // every other kernel, by the bytes it reads and writes
  double latency = 0;           // seconds any kernel call costs
};

// A copy's speed from one device to another.
struct LinkSpeed {
  double bytes_per_second = 0;
  double latency = 0;
};

// Where an estimate came from, for the placer's explanations.
enum class CostSource { kMeasured, kScaled, kCalibrated, kDefault };
const char* cost_source_name(CostSource source);

// "4.10 ms": seconds as the placer's explanations and logs print them.
std::string milliseconds_text(double seconds);

struct CostEstimate {
  double seconds = 0;
  CostSource source = CostSource::kDefault;
};

class CostModel {
 public:
  // Kernel seconds of `op` on `device` for `work`: the median of its size class; else the
  // nearest measured class's, scaled by the work; else the device's calibrated speed; else a
  // default speed.
  CostEstimate kernel(const std::string& op, size_t device, const WorkSize& work) const;
  // Seconds to copy `bytes` from `from` to `to` (different devices): as kernel, by size class,
  // then the link's calibrated speed, then through the host (`host`, when both legs are
  // known), else a default speed.
  CostEstimate transfer(size_t from, size_t to, uint64_t bytes) const;

  void add_kernel(const std::string& op, size_t device, const WorkSize& work, double seconds);
  void add_transfer(size_t from, size_t to, uint64_t bytes, double seconds);

  bool has_speed(size_t device) const;
  void set_speed(size_t device, const DeviceSpeed& speed);
  bool has_link(size_t from, size_t to) const;
  void set_link(size_t from, size_t to, const LinkSpeed& speed);
  // The device copies between unrelated devices go through (the CPU); SIZE_MAX: none.
  // Locked like the rest: every dynamic compile sets it while runs read it.
  void set_host(size_t host);

  // Measurements and speeds as JSON text, devices by `names` (index -> canonical name)...
  std::string to_json(const std::vector<std::string>& names) const;
  // ...and back (cost/cost_model_json.cpp), merged into this model: entries of devices not in
  // `names` are skipped. Error(kInvalidArgument) from `source` (what gave the text, for
  // messages) names the JSON path of what is malformed; a malformed text changes nothing.
  void merge_json(const std::string& text, const std::string& source,
                  const std::vector<std::string>& names);

 private:
  using KernelKey = std::tuple<std::string, size_t, bool, int>;  // op, device, flops?, class
  using TransferKey = std::tuple<size_t, size_t, int>;            // from, to, class
  struct Measured {
    SampleWindow seconds;
    double work = 0;  // of the last sample, for scaling to another size
  };

  mutable std::mutex mutex_;
  std::map<KernelKey, Measured> kernels_;
  std::map<TransferKey, Measured> transfers_;
  std::map<size_t, DeviceSpeed> speeds_;
  std::map<std::pair<size_t, size_t>, LinkSpeed> links_;
  size_t host_ = SIZE_MAX;
};

}  // namespace hxrt::detail
