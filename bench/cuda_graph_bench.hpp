// A graph of tiny ops on a GPU (issue 32): a chain of 1,000 Adds of 256 floats on GPU:0 run as
// a compiled graph, which the runtime replays as one CUDA graph from its second run, against
// the same chain as eager calls and as a CUDA graph this program captures from the plugin's
// own kernel launcher. Each reports ns_per_node; every iteration ends when its work has.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kCudaChainGraph[] = "CudaAddChain_1000/graph_run";
inline constexpr char kCudaChainEager[] = "CudaAddChain_1000/eager_execute";
inline constexpr char kCudaChainDirectGraph[] = "CudaAddChain_1000/direct_cuda_graph";

// Registers the three benchmarks; `runtime` (with a GPU:0) must outlive the benchmark run.
void register_cuda_graph_benchmarks(hxrt::Runtime& runtime);

}  // namespace hxrt_bench
