// The performance model that lets a simulated device stand in for a GPU's timing: each item of
// work takes the time the model gives it on its stream (work_queue.hpp sleeps until then), so
// devices overlap in wall time as real ones would. Every figure defaults to 0, which means
// "no modelled time": the defaults keep the work as fast as the host runs it. The random
// delay, seeded, lengthens items at random to flush out ordering bugs in tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>

namespace hxsim {

// The figures, as options (plugins.options.sim) give them.
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
  uint64_t random_seed = 0;
};

enum class Transfer { kHostToDevice, kDeviceToHost, kDeviceToDevice };

class PerfModel {
 public:
  explicit PerfModel(const PerfOptions& options)
      : options_(options), random_(options.random_seed) {}

  // A MatMul of m x k by k x n: 2mnk floating-point operations.
  std::chrono::nanoseconds matmul(int64_t m, int64_t n, int64_t k) const;
  // A kernel (or memset) that reads and writes `bytes` in all.
  std::chrono::nanoseconds elementwise(uint64_t bytes) const;
  std::chrono::nanoseconds transfer(Transfer direction, uint64_t bytes) const;

 private:
  // `latency_us` plus `amount` at `per_second` (none when 0), plus the random delay.
  std::chrono::nanoseconds time(double latency_us, double amount, double per_second) const;

  const PerfOptions options_;
  mutable std::mutex random_mutex_;
  mutable std::mt19937_64 random_;
};

}  // namespace hxsim
