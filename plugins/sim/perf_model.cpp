#include "perf_model.hpp"

#include <algorithm>

namespace hxsim {
namespace {

// `latency_us` plus `amount` at `per_second` (none when 0), in seconds.
double modelled_seconds(double latency_us, double amount, double per_second) {
  double seconds = latency_us * 1e-6;
  if (per_second > 0) seconds += amount / per_second;
  return seconds;
}

double link_seconds(const PerfOptions::Link& link, uint64_t bytes) {
  return modelled_seconds(link.latency_us, static_cast<double>(bytes), link.gbps * 1e9);
}

}  // namespace

std::chrono::nanoseconds PerfModel::kernel(const std::string& op, double flops,
                                           uint64_t bytes) const {
  const auto own = options_.ops.find(op);
  const OpFigures figures = own == options_.ops.end() ? OpFigures{} : own->second;
  const auto pick = [](double own_figure, double device_figure) {
    return own_figure >= 0 ? own_figure : device_figure;
  };
  const double latency_us = pick(figures.launch_latency_us, options_.launch_latency_us);
  if (flops > 0) {
    return with_random_delay(modelled_seconds(
        latency_us, flops, pick(figures.gflops, options_.matmul_gflops) * 1e9));
  }
  return with_random_delay(modelled_seconds(latency_us, static_cast<double>(bytes),
                                            pick(figures.gbps, options_.elementwise_gbps) * 1e9));
}

std::chrono::nanoseconds PerfModel::memset(uint64_t bytes) const {
  return with_random_delay(modelled_seconds(
      options_.launch_latency_us, static_cast<double>(bytes), options_.elementwise_gbps * 1e9));
}

std::chrono::nanoseconds PerfModel::transfer(Transfer direction, uint64_t bytes) const {
  const PerfOptions::Link& link =
      direction == Transfer::kHostToDevice ? options_.h2d : options_.d2h;
  return with_random_delay(link_seconds(link, bytes));
}

std::chrono::nanoseconds PerfModel::host_launch() const {
  return std::chrono::nanoseconds(static_cast<int64_t>(options_.host_launch_us * 1e3));
}

std::chrono::nanoseconds PerfModel::host_replay() const {
  return std::chrono::nanoseconds(static_cast<int64_t>(options_.host_replay_us * 1e3));
}

std::chrono::nanoseconds PerfModel::copy_from(const PerfModel& source, uint64_t bytes) const {
  return with_random_delay(
      std::max(link_seconds(options_.d2d, bytes), link_seconds(source.options_.d2d, bytes)));
}

std::chrono::nanoseconds PerfModel::with_random_delay(double seconds) const {
  if (options_.random_delay_us > 0) {
    std::uniform_real_distribution<double> extra(0.0, options_.random_delay_us * 1e-6);
    std::lock_guard<std::mutex> lock(random_mutex_);
    seconds += extra(random_);
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(seconds * 1e9));
}

}  // namespace hxsim
