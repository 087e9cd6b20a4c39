// What the graph executor costs per node: graphs of a trivial kernel (a Relu of one float) and
// a chain of 2x2 MatMuls, compiled once and run repeatedly, against the same ops called one by
// one through Runtime::execute. Each benchmark reports ns_per_node.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kReluChainGraph[] = "GraphOverhead/relu_chain_10000/graph_run";
inline constexpr char kReluChainEager[] = "GraphOverhead/relu_chain_10000/eager_execute";
inline constexpr char kReluWideGraph[] = "GraphOverhead/relu_wide_10000/graph_run";
inline constexpr char kReluWideEager[] = "GraphOverhead/relu_wide_10000/eager_execute";
inline constexpr char kMatMulChainGraph[] = "GraphMatMul_2x2/chain_100/graph_run";
inline constexpr char kMatMulChainEager[] = "GraphMatMul_2x2/chain_100/eager_execute";
// The counter: wall time per op node of the graph, or per op call of the eager side.
inline constexpr char kNsPerNode[] = "ns_per_node";

// Registers the six benchmarks; `runtime` (the CPU is enough) must outlive the benchmark run.
void register_overhead_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
