#include "graph_recorded_bench.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "graph_overhead_bench.hpp"

namespace hxrt_bench {
namespace {

constexpr int kNodes = 1000;
constexpr int64_t kElements = 256;
constexpr char kGpu[] = "/GPU:0";

using Clock = std::chrono::steady_clock;

// One sim GPU with a GPU's host launch cost; `recording` offers the recording group.
std::unique_ptr<hxrt::Runtime> sim_gpu(bool recording) {
  hxrt::RuntimeOptions options;
  options.plugin_options["sim"] =
      std::string(R"({"device_type": "GPU", "device_count": 1, "host_launch_us": 5,)") +
      R"( "host_replay_us": 5, "recording": )" + (recording ? "true" : "false") + "}";
  return std::make_unique<hxrt::Runtime>(hxrt::Runtime::create(options));
}

hxrt::Executable add_chain(hxrt::Runtime& rt) {
  hxrt::GraphBuilder builder(rt);
  const auto scope = rt.device(kGpu);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kElements});
  hxrt::NodeOutput last = x;
  for (int i = 0; i < kNodes; ++i) last = builder.add("add" + std::to_string(i), "Add", {last, x});
  return rt.compile(builder.graph(), {last});
}

void count_ns_per_node(benchmark::State& state, Clock::time_point start) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  state.counters[kNsPerNode] = ns / (static_cast<double>(state.iterations()) * kNodes);
}

// Each run returns once its work has completed, as Executable::run does.
void graph_chain(benchmark::State& state, bool recording) {
  try {
    const std::unique_ptr<hxrt::Runtime> rt = sim_gpu(recording);
    const hxrt::Executable exe = add_chain(*rt);
    const hxrt::Tensor x =
        rt->tensor<float>({kElements}, std::vector<float>(kElements, 1.0f), kGpu);
    for (int warm = 0; warm < 2; ++warm) (void)exe.run({x});  // the second run records
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run({x});
      benchmark::DoNotOptimize(fetched);
    }
    count_ns_per_node(state, start);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

// The same chain, one Runtime::execute per Add, waited for at the end as a run is.
void eager_chain(benchmark::State& state) {
  try {
    const std::unique_ptr<hxrt::Runtime> rt = sim_gpu(true);
    const hxrt::Tensor x =
        rt->tensor<float>({kElements}, std::vector<float>(kElements, 1.0f), kGpu);
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      hxrt::Tensor last = x;
      for (int i = 0; i < kNodes; ++i) last = rt->execute("Add", {last, x}, {}, kGpu);
      last.wait();
    }
    count_ns_per_node(state, start);
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace

void register_recorded_benchmarks() {
  benchmark::RegisterBenchmark(kRecordedChainReplay, graph_chain, true)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(kRecordedChainByKernel, graph_chain, false)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(kRecordedChainEager, eager_chain)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace hxrt_bench
