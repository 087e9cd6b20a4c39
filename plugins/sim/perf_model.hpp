// The performance model that lets a simulated device stand in for a GPU's timing: each item of
// work takes the time the model gives it on its stream (work_queue.hpp sleeps until then), so
// devices overlap in wall time as real ones would. Each device has a model of its own, so that
// devices can differ (option "devices"). Every figure defaults to 0, which means "no modelled
// time": the defaults keep the work as fast as the host runs it. The random delay, seeded,
// lengthens items at random to flush out ordering bugs in tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>

namespace hxsim {

// The bounds of every figure: rates in GFLOP/s or GB/s, times in microseconds, so that a typo
// cannot make one item sleep for hours.
constexpr double kMaxRate = 1e9;
constexpr double kMaxMicroseconds = 1e7;  // 10 s

// One op's own figures (option "op_models"), each negative where the op takes the device's:
// a device that is fast at products and slow at the rest, or the reverse, as real ones are.
struct OpFigures {
  double gflops = -1;             // an op timed by its arithmetic (MatMul, Gemm)
  double gbps = -1;               // an op timed by the bytes it reads and writes
  double launch_latency_us = -1;
};

// The figures, as options (plugins.options.sim, or one device's entry in its "devices") give
// them.
struct PerfOptions {
  double matmul_gflops = 0;      // MatMul throughput; 0: no modelled time
  double elementwise_gbps = 0;   // bytes read + written per second by the other kernels, memset
  double launch_latency_us = 0;  // added to every kernel and memset
  struct Link {
    double gbps = 0;
    double latency_us = 0;
  };
  Link h2d, d2h, d2d;
  double random_delay_us = 0;  // each item takes up to this much longer, uniformly at random
  // The host's side of a launch, which a GPU's driver spends in the caller's thread: each call
  // that queues or records work (a kernel, memset or copy) keeps its caller this long, and
  // each replay of a recording this long once, whatever it holds (CUDA graphs' gain).
  double host_launch_us = 0;
  double host_replay_us = 0;
  // Plugin-wide: each device's generator is seeded with random_seed + its ordinal, so that the
  // devices do not all draw the same delays.
  uint64_t random_seed = 0;
  // By op: figures that replace the ones above for that op's kernels.
  std::map<std::string, OpFigures> ops;
};

// The copies between the host and a device; copies between devices are PerfModel::copy_from.
enum class Transfer { kHostToDevice, kDeviceToHost };

class PerfModel {
 public:
  PerfModel(const PerfOptions& options, int32_t ordinal)
      : options_(options), random_(options.random_seed + static_cast<uint64_t>(ordinal)) {}

  // A kernel of `op`: one that does `flops` floating-point operations (more than 0: a product)
  // is timed by them at matmul_gflops, any other by the `bytes` it reads and writes at
  // elementwise_gbps, each plus launch_latency_us; the op's own figures (OpFigures) replace
  // those where set.
  std::chrono::nanoseconds kernel(const std::string& op, double flops, uint64_t bytes) const;
  // A memset of `bytes`, timed as element-wise work.
  std::chrono::nanoseconds memset(uint64_t bytes) const;
  std::chrono::nanoseconds transfer(Transfer direction, uint64_t bytes) const;
  // The host time of one launch, and of one replay (no random delay: the host's own time).
  std::chrono::nanoseconds host_launch() const;
  std::chrono::nanoseconds host_replay() const;
  // A copy of `bytes` into this device from `source` (this same model for a copy within the
  // device), queued on this device: the longer of the times the two devices' d2d figures give
  // it, as a copy between two devices runs no faster than its slower end. The random delay is
  // this device's.
  std::chrono::nanoseconds copy_from(const PerfModel& source, uint64_t bytes) const;

 private:
  // `seconds` plus the random delay.
  std::chrono::nanoseconds with_random_delay(double seconds) const;

  const PerfOptions options_;
  mutable std::mutex random_mutex_;
  mutable std::mt19937_64 random_;
};

}  // namespace hxsim
