// The dynamic placer's list scheduler on its own (no runtime, no plugins): how close it comes
// to the best assignment on small random graphs (found by exhaustive search), how fast it
// schedules 10,000-task graphs of four shapes over four devices, and what it gains over the
// simple placer (every task on the device fastest on average) where spreading work pays.
#pragma once

namespace hxrt_bench {

// Benchmark names and their counters, for the budget table.
inline constexpr char kPlacerQuality[] = "PlacerQuality/random_3_to_10_tasks_3_devices";
inline constexpr char kWorstRatio[] = "worst_ratio";  // makespan over the optimum's, the worst
inline constexpr char kMeanRatio[] = "mean_ratio";
inline constexpr char kPlacerChain[] = "PlacerSpeed/chain_10000_tasks_4_devices";
inline constexpr char kPlacerWide[] = "PlacerSpeed/wide_10000_tasks_4_devices";
inline constexpr char kPlacerRandomDag[] = "PlacerSpeed/random_dag_10000_tasks_4_devices";
inline constexpr char kPlacerLayered[] = "PlacerSpeed/layered_10000_tasks_4_devices";
inline constexpr char kMsPerSchedule[] = "ms_per_schedule";
inline constexpr char kFastAndSlow[] = "PlacerVsSimple/one_fast_three_slow_wide_200";
inline constexpr char kBranches[] = "PlacerVsSimple/independent_branches_4x25";
inline constexpr char kOverSimple[] = "over_simple";  // makespan over the simple placer's

void register_placer_benchmarks();

}  // namespace hxrt_bench
