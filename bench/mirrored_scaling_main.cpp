// hxrt_mirrored_bench, under mpirun -np 2: a MirroredStrategy over two tasks of two simulated
// GPUs each (four replicas) against one replica on one GPU of task 0, each replica doing the
// same work: ideally the four take as long as the one. The sim GPUs' modelled time (a MatMul
// of 64x64 at 0.05 GFLOP/s: 10 ms) stands for the work, so that two cores can run four GPUs;
// rounds of the two alternate, each keeps its best.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kSize = 64;
constexpr int kChain = 4;  // MatMuls per replica: 40 ms of modelled time

// x @ w four times on each replica's GPU, the results reduced over the replicas.
hxrt::Executable replicated(hxrt::Runtime& rt, const hxrt::MirroredStrategy& strategy) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kSize, kSize});
  const hxrt::Tensor w_value = rt.tensor<float>(
      {kSize, kSize}, std::vector<float>(static_cast<size_t>(kSize * kSize), 1.0f / kSize),
      "/CPU:0");
  const std::vector<hxrt::NodeOutput> mean = strategy.reduce(
      builder,
      [&](hxrt::GraphBuilder& replica_builder, const hxrt::MirroredStrategy::Replica& replica) {
        const hxrt::NodeOutput w = replica_builder.constant(replica.prefix + "w", w_value);
        hxrt::NodeOutput y = x;
        for (int i = 0; i < kChain; ++i) {
          y = replica_builder.add(replica.prefix + "mm" + std::to_string(i), "MatMul", {y, w});
        }
        return std::vector<hxrt::NodeOutput>{y};
      },
      "mean");
  return rt.compile(builder.graph(), mean);
}

double best_seconds(const hxrt::Executable& executable, const hxrt::Tensor& x, int runs) {
  double best = 1e30;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    executable.run({x});
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main() {
  try {
    hxrt::RuntimeOptions options;
    options.log_level = hxrt::LogLevel::kWarning;
    options.plugin_options["sim"] =
        R"({"device_type": "GPU", "device_count": 2, "matmul_gflops": 0.05})";
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    if (rt.cluster().rank != 0) return 0;  // its runtime serves task 0's graphs
    const hxrt::MirroredStrategy one(rt, {"GPU:0"});
    const hxrt::MirroredStrategy all(rt);
    const hxrt::Executable alone = replicated(rt, one);
    const hxrt::Executable mirrored = replicated(rt, all);
    const hxrt::Tensor x = rt.tensor<float>(
        {kSize, kSize}, std::vector<float>(static_cast<size_t>(kSize * kSize), 1.0f), "/CPU:0");
    double one_best = 1e30;
    double all_best = 1e30;
    for (int round = 0; round < 5; ++round) {
      one_best = std::min(one_best, best_seconds(alone, x, 3));
      all_best = std::min(all_best, best_seconds(mirrored, x, 3));
    }
    std::printf("MirroredStrategy, each replica 4 MatMuls of 40 ms modelled in all:\n");
    std::printf("  1 replica on 1 GPU of 1 task:    %7.2f ms\n", one_best * 1e3);
    std::printf("  %d replicas on %d GPUs of %zu tasks: %7.2f ms   %.3fx  (target <= 1.15x)\n",
                all.num_replicas_in_sync(), all.num_replicas_in_sync(),
                rt.cluster().tasks.size(), all_best * 1e3, all_best / one_best);
  } catch (const hxrt::Error& error) {
    std::fprintf(stderr, "hxrt_mirrored_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
