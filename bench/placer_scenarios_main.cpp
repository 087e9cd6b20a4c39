// hxrt_placer_scenarios_bench: the dynamic placer against the simple one on the placer
// scenarios (placer_scenarios.hpp), side by side in one run; then, per scenario, the ratio of
// the two run times, and the speedup asked of the scenarios where placing by cost must win.
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "bench_run.hpp"
#include "placer_scenarios.hpp"
#include "placer_scenarios_bench.hpp"

namespace {

// The dynamic placer may be slower than the simple one by this much at most, anywhere.
constexpr double kNeverSlowerThan = 1.05;

}  // namespace

int main(int argc, char** argv) {
  if (!hxrt_bench::initialize(argc, argv)) return 2;
  return hxrt_bench::run_program("hxrt_placer_scenarios_bench", [&] {
    const std::vector<hxrt_bench::PlacerScenario> scenarios = hxrt_bench::placer_scenarios();
    std::vector<hxrt::Runtime> runtimes;
    for (const hxrt_bench::PlacerScenario& scenario : scenarios) {
      runtimes.push_back(hxrt::Runtime::create(scenario.options));
    }
    hxrt_bench::register_placer_benchmarks(scenarios, runtimes);

    // The budgets name benchmarks and label rows by pointer: the texts live here (a deque
    // never moves what it holds).
    std::deque<std::string> texts;
    const auto kept = [&texts](std::string text) {
      return texts.emplace_back(std::move(text)).c_str();
    };
    std::vector<hxrt_bench::RatioBudget> speedups;
    std::vector<hxrt_bench::RatioBudget> slowdowns;
    for (const hxrt_bench::PlacerScenario& scenario : scenarios) {
      const char* simple =
          kept(hxrt_bench::placer_benchmark_name(scenario, hxrt::GraphPlacer::kSimple));
      const char* dynamic =
          kept(hxrt_bench::placer_benchmark_name(scenario, hxrt::GraphPlacer::kDynamic));
      // Throughput: the simple placer's time over the dynamic placer's.
      if (scenario.speedup_target > 0) {
        speedups.push_back({kept(std::string(scenario.label) + " speedup"), dynamic, simple,
                            true, scenario.speedup_target});
      }
      slowdowns.push_back({kept(std::string(scenario.label) + " time"), dynamic, simple, false,
                           kNeverSlowerThan});
    }
    speedups.insert(speedups.end(), slowdowns.begin(), slowdowns.end());
    hxrt_bench::run_and_report(speedups);
  });
}
