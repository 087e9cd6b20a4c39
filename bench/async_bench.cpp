#include "async_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <vector>

namespace hxrt_bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(std::chrono::nanoseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

// The names of the first `count` GPUs; Error when there are fewer.
std::vector<std::string> first_gpus(const hxrt::Runtime& runtime, int count) {
  std::vector<std::string> gpus;
  for (const hxrt::DeviceInfo& device : runtime.devices()) {
    if (device.type == "GPU" && static_cast<int>(gpus.size()) < count) gpus.push_back(device.name);
  }
  if (static_cast<int>(gpus.size()) < count) {
    throw hxrt::Error(hxrt::StatusCode::kNotFound,
                      "asked for " + std::to_string(count) + " GPUs, found " +
                          std::to_string(gpus.size()) + "; is the sim plugin built and loaded?");
  }
  return gpus;
}

// n x n ones, on `device`.
hxrt::Tensor ones(hxrt::Runtime& runtime, int64_t n, const std::string& device) {
  return runtime.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), 1.0f),
                               device);
}

// One MatMul on each of `devices` GPUs, operands already there; the iteration ends when
// every product has been computed.
void replication(benchmark::State& state, hxrt::Runtime& runtime, const AsyncConfig& config,
                 int devices) {
  const int64_t n = config.replication.matmul_size;
  try {
    const std::vector<std::string> gpus = first_gpus(runtime, devices);
    std::vector<hxrt::Tensor> operands;
    for (const std::string& gpu : gpus) operands.push_back(ones(runtime, n, gpu));
    runtime.synchronize();
    for (auto _ : state) {
      std::vector<hxrt::Tensor> products;
      for (size_t d = 0; d < gpus.size(); ++d) {
        products.push_back(runtime.execute("MatMul", {operands[d], operands[d]}, {}, gpus[d]));
      }
      for (const hxrt::Tensor& product : products) product.wait();
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  const hxsim::PerfModel model(config.model, 0);  // device 0's model: the bench gives every device one
  state.counters["devices"] = devices;
  state.counters["model_ms"] = 1e3 * seconds(model.kernel("MatMul", 2.0 * n * n * n, 0));
}

// Per device, chain_length steps of (upload the left operand, MatMul it by a resident right
// operand), issued device after device as a program feeding several GPUs would. The model's
// serial time is every item one after another; its ideal is one device's chain, since the
// devices run at once but each runs its own stream in order.
void overlap(benchmark::State& state, hxrt::Runtime& runtime, const AsyncConfig& config) {
  const Workload& workload = config.overlap;
  const int64_t n = workload.matmul_size;
  const size_t bytes = static_cast<size_t>(n * n) * sizeof(float);
  const std::vector<float> upload(static_cast<size_t>(n * n), 1.0f);
  const hxsim::PerfModel model(config.model, 0);  // device 0's model: the bench gives every device one
  const double step = seconds(model.transfer(hxsim::Transfer::kHostToDevice, bytes)) +
                      seconds(model.kernel("MatMul", 2.0 * n * n * n, 0));
  const double ideal = workload.chain_length * step;
  const double serial = workload.devices * ideal;
  if (!(serial > ideal)) {
    state.SkipWithError("overlap needs at least 2 devices and a model with time in it");
    return;
  }
  double measured = 0;
  int64_t iterations = 0;
  try {
    const std::vector<std::string> gpus = first_gpus(runtime, workload.devices);
    std::vector<hxrt::Tensor> right;
    for (const std::string& gpu : gpus) right.push_back(ones(runtime, n, gpu));
    runtime.synchronize();
    for (auto _ : state) {
      const Clock::time_point start = Clock::now();
      std::vector<hxrt::Tensor> products;
      for (int link = 0; link < workload.chain_length; ++link) {
        for (size_t d = 0; d < gpus.size(); ++d) {
          const hxrt::Tensor left =
              runtime.from_host(hxrt::DType::kF32, {n, n}, upload.data(), bytes, gpus[d]);
          products.push_back(runtime.execute("MatMul", {left, right[d]}, {}, gpus[d]));
        }
      }
      for (const hxrt::Tensor& product : products) product.wait();
      measured += std::chrono::duration<double>(Clock::now() - start).count();
      ++iterations;
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  const double actual = measured / static_cast<double>(iterations);
  state.counters[kOverlapCounter] = (serial - actual) / (serial - ideal);
  state.counters["serial_ms"] = 1e3 * serial;
  state.counters["ideal_ms"] = 1e3 * ideal;
}

}  // namespace

void register_async_benchmarks(hxrt::Runtime& runtime, const AsyncConfig& config) {
  // Wall time throughout: the work runs on the sim's stream threads, not the timing one.
  benchmark::RegisterBenchmark(
      kReplicationOne,
      [&runtime, &config](benchmark::State& state) { replication(state, runtime, config, 1); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kReplicationMany,
                               [&runtime, &config](benchmark::State& state) {
                                 replication(state, runtime, config, config.replication.devices);
                               })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(
      kOverlap, [&runtime, &config](benchmark::State& state) { overlap(state, runtime, config); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace hxrt_bench
