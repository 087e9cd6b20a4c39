#include "cuda_graph_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "cuda_support.hpp"
#include "graph_overhead_bench.hpp"
#include "kernels/launchers.hpp"

namespace hxrt_bench {
namespace {

constexpr int kNodes = 1000;
constexpr int64_t kNodeElements = 256;

using Clock = std::chrono::steady_clock;

void count_ns_per_node(benchmark::State& state, Clock::time_point start) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  state.counters[kNsPerNode] = ns / (static_cast<double>(state.iterations()) * kNodes);
}

hxrt::Tensor ones(hxrt::Runtime& runtime) {
  return runtime.tensor<float>({kNodeElements}, std::vector<float>(kNodeElements, 1.0f), kGpu);
}

void graph_run(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    hxrt::GraphBuilder builder(runtime);
    const auto scope = runtime.device(kGpu);
    const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kNodeElements});
    hxrt::NodeOutput last = x;
    for (int i = 0; i < kNodes; ++i) {
      last = builder.add("add" + std::to_string(i), "Add", {last, x});
    }
    const hxrt::Executable exe = runtime.compile(builder.graph(), {last});
    const hxrt::Tensor input = ones(runtime);
    for (int warm = 0; warm < 3; ++warm) (void)exe.run({input});  // the second run records
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run({input});
      benchmark::DoNotOptimize(fetched);
    }
    count_ns_per_node(state, start);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

void eager_execute(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const hxrt::Tensor x = ones(runtime);
    (void)runtime.execute("Add", {x, x}, {}, kGpu);
    synchronize_device();
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      hxrt::Tensor last = x;
      for (int i = 0; i < kNodes; ++i) last = runtime.execute("Add", {last, x}, {}, kGpu);
      last.wait();
    }
    count_ns_per_node(state, start);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

// The plugin's own Add launcher captured 1,000 times into one CUDA graph, ping-ponging between
// two buffers, replayed with cudaGraphLaunch: the floor a replay through the runtime can reach.
void direct_cuda_graph(benchmark::State& state) {
  using namespace hxcuda::kernels;
  try {
    const size_t bytes = kNodeElements * sizeof(float);
    const DeviceBuffer x(bytes), a(bytes), b(bytes);
    const Stream stream;
    cudaGraph_t graph = nullptr;
    check_cuda(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal),
               "cudaStreamBeginCapture");
    const void* from = x.get();
    for (int i = 0; i < kNodes; ++i) {
      void* to = (i % 2 == 0) ? a.get() : b.get();
      check_cuda(launch_binary(BinaryOp::kAdd, HX_DTYPE_F32, Broadcast::kNone, from, x.get(), to,
                               kNodeElements, stream.get()),
                 "launch_binary");
      from = to;
    }
    check_cuda(cudaStreamEndCapture(stream.get(), &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    check_cuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    cudaGraphDestroy(graph);
    check_cuda(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
    check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      check_cuda(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
      check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    }
    count_ns_per_node(state, start);
    cudaGraphExecDestroy(exec);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace

void register_cuda_graph_benchmarks(hxrt::Runtime& runtime) {
  benchmark::RegisterBenchmark(kCudaChainGraph, graph_run, std::ref(runtime))
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(kCudaChainEager, eager_execute, std::ref(runtime))
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(kCudaChainDirectGraph, direct_cuda_graph)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace hxrt_bench
