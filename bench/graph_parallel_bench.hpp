// Graph nodes that do not depend on each other run at once: the guide's replication on four
// timed sim GPUs against the same graph with every MatMul on GPU:0, and two independent chains
// of CPU MatMuls run on two inter-op threads against one.
#pragma once

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// Benchmark names, for the ratio table.
inline constexpr char kReplicationOneGpu[] = "GraphParallel/replication_1_gpu";
inline constexpr char kReplicationFourGpus[] = "GraphParallel/replication_4_gpus";
inline constexpr char kBranchesOneThread[] = "GraphParallel/cpu_branches_1_inter_op_thread";
inline constexpr char kBranchesTwoThreads[] = "GraphParallel/cpu_branches_2_inter_op_threads";

// The sim plugin's options for the replication: four GPUs whose 64x64 MatMul takes 20 ms
// (2 * 64^3 flops at 0.0262144 GFLOP/s), as in samples/async.
inline constexpr char kTimedSimGpus[] =
    R"({"device_type": "GPU", "device_count": 4, "matmul_gflops": 0.0262144,)"
    R"( "launch_latency_us": 5})";

// Registers the four benchmarks. `gpus` has the sim's GPUs of kTimedSimGpus and must outlive
// the benchmark run; the CPU benchmarks make runtimes of their own (graph_runtime.hpp).
void register_parallel_benchmarks(hxrt::Runtime& gpus);

}  // namespace hxrt_bench
