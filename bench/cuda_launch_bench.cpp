#include "cuda_launch_bench.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "cuda_support.hpp"
#include "kernels/launchers.hpp"

namespace hxrt_bench {
namespace {

constexpr int64_t kOpElements = 256;
// Ops per timed batch. The device is waited for between batches, with the timer paused, so
// the time is what the host spends to enqueue an op, and the launch queue never fills up
// (a full queue would make the host wait for the GPU and measure the kernel instead).
constexpr int kBatch = 100;

void count_ops(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kBatch);
}

// Each op allocates its output from the device's allocator (a cached block) and frees it when
// the result goes, as an application would see it.
void add_through_runtime(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const std::vector<float> values(kOpElements, 1.0f);
    const hxrt::Tensor x = runtime.tensor<float>({kOpElements}, values, kGpu);
    const hxrt::Tensor y = runtime.tensor<float>({kOpElements}, values, kGpu);
    runtime.execute("Add", {x, y}, {}, kGpu);  // placement decided and cached, untimed
    synchronize_device();
    for (auto _ : state) {
      for (int i = 0; i < kBatch; ++i) {
        hxrt::Tensor sum = runtime.execute("Add", {x, y}, {}, kGpu);
        benchmark::DoNotOptimize(sum);
      }
      state.PauseTiming();
      synchronize_device();
      state.ResumeTiming();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_ops(state);
}

// The plugin's own launcher (plugins/cuda/kernels/elementwise.cu, compiled into this program)
// on buffers allocated once: the kernel launch and its error check, nothing else.
void add_direct(benchmark::State& state) {
  using namespace hxcuda::kernels;
  try {
    const DeviceBuffer x(kOpElements * sizeof(float)), y(kOpElements * sizeof(float)),
        sum(kOpElements * sizeof(float));
    const Stream stream;
    const auto add = [&] {
      check_cuda(launch_binary(BinaryOp::kAdd, HX_DTYPE_F32, Broadcast::kNone, x.get(), y.get(),
                               sum.get(), kOpElements, stream.get()),
                 "launch_binary");
    };
    add();
    synchronize_device();
    for (auto _ : state) {
      for (int i = 0; i < kBatch; ++i) add();
      state.PauseTiming();
      synchronize_device();
      state.ResumeTiming();
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
    return;
  }
  count_ops(state);
}

}  // namespace

void register_cuda_launch_benchmarks(hxrt::Runtime& runtime) {
  benchmark::RegisterBenchmark(kSmallAddRuntime, add_through_runtime, std::ref(runtime))
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(kSmallAddDirect, add_direct)
      ->Unit(benchmark::kMicrosecond)
      ->UseRealTime();
}

}  // namespace hxrt_bench
