// Graphs replayed (plugin_api.h, "Recorded work"): a chain of 1,000 Adds of 256 floats on a
// sim GPU whose every launch keeps the host 5 us, as a GPU driver's does (the H200's direct
// launch measured 5.2 us), and each replay 5 us once. The same chain as a replayed graph, as a
// graph run kernel by kernel (the sim without its recording group) and as eager calls. Each
// reports ns_per_node.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kRecordedChainReplay[] = "RecordedAdd_256/chain_1000/graph_replayed";
inline constexpr char kRecordedChainByKernel[] =
    "RecordedAdd_256/chain_1000/graph_kernel_by_kernel";
inline constexpr char kRecordedChainEager[] = "RecordedAdd_256/chain_1000/eager_execute";

// Registers the three benchmarks; they make runtimes of their own.
void register_recorded_benchmarks();

}  // namespace hxrt_bench
