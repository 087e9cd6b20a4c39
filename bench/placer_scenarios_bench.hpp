// Each placer scenario run under the simple placer and under the dynamic one, as a pair of
// benchmarks of one runtime: PlacerScenario/<name>/simple and PlacerScenario/<name>/dynamic.
#pragma once

#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"
#include "placer_scenarios.hpp"

namespace hxrt_bench {

std::string placer_benchmark_name(const PlacerScenario& scenario, hxrt::GraphPlacer placer);

// Registers both benchmarks of each scenario, run on `runtimes[i]` for `scenarios[i]`; both
// vectors must outlive the benchmark run.
void register_placer_benchmarks(const std::vector<PlacerScenario>& scenarios,
                                std::vector<hxrt::Runtime>& runtimes);

}  // namespace hxrt_bench
