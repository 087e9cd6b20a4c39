#include "placer_scenarios_bench.hpp"

#include <benchmark/benchmark.h>

#include <functional>
#include <set>

namespace hxrt_bench {
namespace {

// Runs before the timed ones: they make the kernel instances, fill the allocators' caches and
// give the cost model its measurements of the kernels and copies runs time.
constexpr int kWarmUpRuns = 3;
// Then, for the dynamic placer's executable, three windows of placement.replace_every_runs
// (10): its placement checked against the cost model and against the simple placer's.
constexpr int kSettleRuns = 30;

hxrt::Executable compiled(hxrt::Runtime& rt, const ScenarioGraph& scenario,
                          hxrt::GraphPlacer placer) {
  hxrt::CompileOptions options;
  options.placer = placer;
  return rt.compile(scenario.graph, scenario.fetches, options);
}

size_t devices_used(const hxrt::Executable& exe) {
  std::set<std::string> devices;
  for (const hxrt::NodePlacement& node : exe.placement()) devices.insert(node.device);
  return devices.size();
}

// Each iteration is one run, which returns once the work of every node has completed.
void placer_run(benchmark::State& state, hxrt::Runtime& rt, const PlacerScenario& scenario,
                hxrt::GraphPlacer placer) {
  size_t devices = 0;
  try {
    const ScenarioGraph graph = scenario.graph(rt);
    const std::map<std::string, hxrt::Tensor> feeds =
        scenario_feeds(rt, graph.graph, scenario.feed_device);
    hxrt::Executable exe = compiled(rt, graph, placer);
    for (int run = 0; run < kWarmUpRuns; ++run) exe.run(feeds);
    if (placer == hxrt::GraphPlacer::kDynamic) {
      // Settled, as a long-running program's would be: placed again on what runs measured,
      // the simple placer's placement compared with it over a window of runs.
      for (int run = 0; run < kSettleRuns; ++run) exe.run(feeds);
    }
    devices = devices_used(exe);
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run(feeds);
      benchmark::DoNotOptimize(fetched);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters["devices"] = static_cast<double>(devices);
}

}  // namespace

std::string placer_benchmark_name(const PlacerScenario& scenario, hxrt::GraphPlacer placer) {
  return std::string("PlacerScenario/") + scenario.name +
         (placer == hxrt::GraphPlacer::kSimple ? "/simple" : "/dynamic");
}

void register_placer_benchmarks(const std::vector<PlacerScenario>& scenarios,
                                std::vector<hxrt::Runtime>& runtimes) {
  for (size_t i = 0; i < scenarios.size(); ++i) {
    for (hxrt::GraphPlacer placer : {hxrt::GraphPlacer::kSimple, hxrt::GraphPlacer::kDynamic}) {
      // Wall time: the work runs on the sim's stream threads and the inter-op threads.
      benchmark::RegisterBenchmark(placer_benchmark_name(scenarios[i], placer).c_str(),
                                   placer_run, std::ref(runtimes[i]), std::cref(scenarios[i]),
                                   placer)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace hxrt_bench
