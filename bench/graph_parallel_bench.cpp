#include "graph_parallel_bench.hpp"

#include <benchmark/benchmark.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "graph_runtime.hpp"

namespace hxrt_bench {
namespace {

constexpr int kReplicas = 4;
constexpr int64_t kReplicaSize = 64;  // 20 ms per MatMul under kTimedSimGpus
// A 384x384 MatMul takes about a millisecond on one core here (2 x 384^3 flops).
constexpr int64_t kBranchSize = 384;
constexpr int kBranchLength = 4;  // MatMuls per branch

hxrt::Tensor filled(hxrt::Runtime& runtime, int64_t n, float value, const std::string& device) {
  return runtime.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), value),
                               device);
}

// Replica i's MatMul on GPU:(i % gpus), the products summed by AddN on the CPU; a and b go
// with their first consumer, to GPU:0, where they are fed.
hxrt::Graph replication(hxrt::Runtime& runtime, int gpus) {
  hxrt::GraphBuilder builder(runtime);
  const hxrt::NodeOutput a =
      builder.input("a", hxrt::DType::kF32, {kReplicaSize, kReplicaSize});
  const hxrt::NodeOutput b =
      builder.input("b", hxrt::DType::kF32, {kReplicaSize, kReplicaSize});
  std::vector<hxrt::NodeOutput> products;
  for (int i = 0; i < kReplicas; ++i) {
    const auto scope = runtime.device("/GPU:" + std::to_string(i % gpus));
    products.push_back(builder.add("MatMul_" + std::to_string(i), "MatMul", {a, b}));
  }
  const auto cpu = runtime.device("/CPU:0");
  builder.add("AddN", "AddN", products);
  return builder.build();
}

// Each iteration is one run: it returns once the sum is on the CPU.
void replication_run(benchmark::State& state, hxrt::Runtime& runtime, int gpus) {
  try {
    const hxrt::Executable exe = runtime.compile(replication(runtime, gpus), {{"AddN", 0}});
    const std::vector<hxrt::Tensor> feeds = {filled(runtime, kReplicaSize, 1.0f, "/GPU:0"),
                                             filled(runtime, kReplicaSize, 1.0f, "/GPU:0")};
    exe.run(feeds);
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run(feeds);
      benchmark::DoNotOptimize(fetched);
    }
  } catch (const hxrt::Error& error) {
    state.SkipWithError(error.what());
    return;
  }
  state.counters["gpus"] = gpus;
}

// x -> MatMul(., w) x kBranchLength, twice, from the same x: two branches that share nothing
// but their inputs, both fetched.
hxrt::Graph two_branches(hxrt::Runtime& runtime) {
  hxrt::GraphBuilder builder(runtime);
  const auto cpu = runtime.device("/CPU:0");
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kBranchSize, kBranchSize});
  const hxrt::NodeOutput w = builder.input("w", hxrt::DType::kF32, {kBranchSize, kBranchSize});
  for (const char* branch : {"left", "right"}) {
    hxrt::NodeOutput last = x;
    for (int i = 0; i < kBranchLength; ++i) {
      last = builder.add(std::string(branch) + std::to_string(i), "MatMul", {last, w});
    }
  }
  return builder.build();
}

// A runtime of its own per call: the inter-op threads are a runtime's setting. Kernels get one
// intra-op thread each, so that two branches need two cores.
void branches_run(benchmark::State& state, int inter_op_threads) {
  try {
    hxrt::Runtime runtime = runtime_with_threads({inter_op_threads, 1});
    const std::string last = std::to_string(kBranchLength - 1);
    const hxrt::Executable exe =
        runtime.compile(two_branches(runtime), {{"left" + last, 0}, {"right" + last, 0}});
    // x . w = x when w holds 1/n everywhere and x ones: every product stays ones.
    const std::vector<hxrt::Tensor> feeds = {
        filled(runtime, kBranchSize, 1.0f, "/CPU:0"),
        filled(runtime, kBranchSize, 1.0f / static_cast<float>(kBranchSize), "/CPU:0")};
    exe.run(feeds);
    for (auto _ : state) {
      std::vector<hxrt::Tensor> fetched = exe.run(feeds);
      benchmark::DoNotOptimize(fetched);
    }
  } catch (const std::exception& error) {  // hxrt::Error, or the config file's
    state.SkipWithError(error.what());
    return;
  }
  state.counters["inter_op_threads"] = inter_op_threads;
}

}  // namespace

void register_parallel_benchmarks(hxrt::Runtime& gpus) {
  // Wall time: the work runs on the sim's stream threads and the inter-op threads.
  benchmark::RegisterBenchmark(kReplicationOneGpu, replication_run, std::ref(gpus), 1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kReplicationFourGpus, replication_run, std::ref(gpus), kReplicas)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kBranchesOneThread, branches_run, 1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kBranchesTwoThreads, branches_run, 2)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace hxrt_bench
