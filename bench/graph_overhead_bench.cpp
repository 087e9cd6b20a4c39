#include "graph_overhead_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <functional>
#include <vector>

#include "graph_workloads.hpp"

namespace hxrt_bench {
namespace {

using MakeWorkload = Workload (*)(hxrt::Runtime&, int);

using Clock = std::chrono::steady_clock;

// Wall time per node in ns, over the whole timed loop (`start` is taken just before it).
void count_ns_per_node(benchmark::State& state, Clock::time_point start, int nodes) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  state.counters[kNsPerNode] = ns / (static_cast<double>(state.iterations()) * nodes);
}

// Compiled once, outside the timing; each iteration is one Executable::run, which returns
// once every node has run.
void graph_run(benchmark::State& state, hxrt::Runtime& runtime, MakeWorkload make, int nodes) {
  try {
    const Workload workload = make(runtime, nodes);
    const hxrt::Executable exe = runtime.compile(workload.graph, {workload.fetch});
    exe.run(workload.feeds);  // the first run makes the inter-op threads
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run(workload.feeds);
      benchmark::DoNotOptimize(fetched);
    }
    count_ns_per_node(state, start, workload.nodes);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

// The eager sides: the same ops on CPU:0, one Runtime::execute each.
void eager_relu_chain(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const hxrt::Tensor x = relu_input(runtime);
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      hxrt::Tensor last = x;
      for (int i = 0; i < kOverheadNodes; ++i) last = runtime.execute("Relu", {last}, {}, kCpu);
      benchmark::DoNotOptimize(last);
    }
    count_ns_per_node(state, start, kOverheadNodes);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

void eager_relu_wide(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const hxrt::Tensor x = relu_input(runtime);
    std::vector<hxrt::Tensor> relus(kOverheadNodes);
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      for (hxrt::Tensor& relu : relus) relu = runtime.execute("Relu", {x}, {}, kCpu);
      hxrt::Tensor sum = runtime.execute("AddN", relus, {}, kCpu);
      benchmark::DoNotOptimize(sum);
    }
    count_ns_per_node(state, start, kOverheadNodes + 1);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

void eager_matmul_chain(benchmark::State& state, hxrt::Runtime& runtime) {
  try {
    const std::vector<hxrt::Tensor> inputs = matmul_2x2_inputs(runtime);
    const hxrt::Tensor& x = inputs[0];
    const hxrt::Tensor& w = inputs[1];
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      hxrt::Tensor last = x;
      for (int i = 0; i < kMatMulChainNodes; ++i) {
        last = runtime.execute("MatMul", {last, w}, {}, kCpu);
      }
      benchmark::DoNotOptimize(last);
    }
    count_ns_per_node(state, start, kMatMulChainNodes);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace

void register_overhead_benchmarks(hxrt::Runtime& runtime) {
  const auto graph = [&runtime](const char* name, MakeWorkload make, int nodes) {
    benchmark::RegisterBenchmark(name, graph_run, std::ref(runtime), make, nodes)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  };
  const auto eager = [&runtime](const char* name, void (*run)(benchmark::State&, hxrt::Runtime&)) {
    benchmark::RegisterBenchmark(name, run, std::ref(runtime))
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  };
  graph(kReluChainGraph, relu_chain, kOverheadNodes);
  eager(kReluChainEager, eager_relu_chain);
  graph(kReluWideGraph, relu_wide, kOverheadNodes);
  eager(kReluWideEager, eager_relu_wide);
  graph(kMatMulChainGraph, matmul_2x2_chain, kMatMulChainNodes);
  eager(kMatMulChainEager, eager_matmul_chain);
}

}  // namespace hxrt_bench
