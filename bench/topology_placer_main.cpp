// hxrt_topology_placer_bench: the dynamic placer planning over a described cluster of 64 tasks
// (Runtime::plan_placement, docs/cluster.md "Planning on a topology"), each task a CPU of 512 GiB
// and four GPUs of 80 GiB like this process's sim GPU, 100 Gb/s and 5 us between tasks. Per graph:
// how long a plan takes (the fastest of five), the estimated run time it finds against the same
// graph kept on the first task, and how many tasks it uses. The devices' speeds are fixed (a saved
// cost model of a GPU node), so that the plans are the same on any machine; only the planning time
// varies.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using hxrt::NodeOutput;

// A CPU of 100 GFLOP/s and 20 GB/s; GPUs of 50 TFLOP/s and 2 TB/s; PCIe at 25 GB/s.
hxrt::CompileOptions gpu_node_speeds() {
  const std::string cpu = "/job:localhost/replica:0/task:0/device:CPU:0";
  const std::string gpu = "/job:localhost/replica:0/task:0/device:GPU:0";
  hxrt::CompileOptions options;
  options.cost_model_json = R"({"format": "hxrt cost model", "version": 1, "devices": {
    ")" + cpu + R"(": {"speed": {"flops_per_second": 1e11, "bytes_per_second": 2e10,
                               "latency": 1e-6}},
    ")" + gpu + R"(": {"speed": {"flops_per_second": 5e13, "bytes_per_second": 2e12,
                               "latency": 5e-6}}},
    "links": [{"from": ")" + cpu + R"(", "to": ")" + gpu + R"(", "bytes_per_second": 2.5e10,
               "latency": 1e-5},
              {"from": ")" + gpu + R"(", "to": ")" + cpu + R"(", "bytes_per_second": 2.5e10,
               "latency": 1e-5}],
    "copies": []})";
  return options;
}

std::string topology(int tasks) {
  return R"({"tasks": [{"count": )" + std::to_string(tasks) +
         R"(, "devices": [{"like": "/CPU:0", "memory_mb": 524288},
                                 {"like": "/GPU:0", "count": 4, "memory_mb": 81920}]}],
             "network": {"gigabytes_per_second": 12.5, "latency_us": 5}})";
}

struct BenchGraph {
  std::string name;
  hxrt::Graph graph;
  std::vector<NodeOutput> fetches;
};

hxrt::Tensor weights(hxrt::Runtime& rt, int64_t n) {
  return rt.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), 1.0f / n));
}

// `count` branches of `depth` MatMul + Relu each from one input, each fetched: work that
// spreads.
BenchGraph branches(hxrt::Runtime& rt, int count, int depth, int64_t n) {
  hxrt::GraphBuilder builder(rt);
  const NodeOutput x = builder.input("x", hxrt::DType::kF32, {n, n});
  const NodeOutput w = builder.constant("w", weights(rt, n));
  std::vector<NodeOutput> fetches;
  for (int b = 0; b < count; ++b) {
    NodeOutput value = x;
    for (int d = 0; d < depth; ++d) {
      const std::string name = "b" + std::to_string(b) + "_" + std::to_string(d);
      value = builder.add(name + "_relu", "Relu", {builder.add(name, "MatMul", {value, w})});
    }
    fetches.push_back(value);
  }
  return {std::to_string(count) + " branches x " + std::to_string(depth) + " layers, " +
              std::to_string(n),
          builder.graph(), fetches};
}

// `layers` layers of `width` MatMuls, each reading two of the layer before: work that spreads
// but talks at every layer.
BenchGraph layered(hxrt::Runtime& rt, int layers, int width, int64_t n) {
  hxrt::GraphBuilder builder(rt);
  const NodeOutput w = builder.constant("w", weights(rt, n));
  std::vector<NodeOutput> previous;
  for (int j = 0; j < width; ++j) {
    previous.push_back(builder.input("x" + std::to_string(j), hxrt::DType::kF32, {n, n}));
  }
  for (int l = 0; l < layers; ++l) {
    std::vector<NodeOutput> next;
    for (int j = 0; j < width; ++j) {
      const std::string name = "l" + std::to_string(l) + "_" + std::to_string(j);
      const NodeOutput sum = builder.add(name + "_add", "Add",
                                         {previous[static_cast<size_t>(j)],
                                          previous[static_cast<size_t>((j + 1) % width)]});
      next.push_back(builder.add(name, "MatMul", {sum, w}));
    }
    previous = next;
  }
  return {std::to_string(layers) + " layers x " + std::to_string(width) + " wide, " +
              std::to_string(n),
          builder.graph(), previous};
}

// One chain of `depth` MatMuls: nothing to spread; the plan should stay on one device.
BenchGraph chain(hxrt::Runtime& rt, int depth, int64_t n) {
  hxrt::GraphBuilder builder(rt);
  NodeOutput value = builder.input("x", hxrt::DType::kF32, {n, n});
  const NodeOutput w = builder.constant("w", weights(rt, n));
  for (int d = 0; d < depth; ++d) {
    value = builder.add("m" + std::to_string(d), "MatMul", {value, w});
  }
  return {"chain of " + std::to_string(depth) + ", " + std::to_string(n), builder.graph(),
          {value}};
}

void report(hxrt::Runtime& rt, const BenchGraph& bench, int tasks) {
  const std::string described = topology(tasks);
  const hxrt::CompileOptions options = gpu_node_speeds();
  double best = 1e30;
  hxrt::PlacementPlan plan;
  for (int round = 0; round < 5; ++round) {
    const Clock::time_point start = Clock::now();
    plan = rt.plan_placement(bench.graph, bench.fetches, described, options);
    best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::printf("  %-34s %5zu nodes %3d tasks %9.1f ms %9.3f ms %9.3f ms %7.2fx %5d\n",
              bench.name.c_str(), plan.nodes.size(), tasks, best * 1e3, plan.makespan_ms,
              plan.one_task_makespan_ms, plan.one_task_makespan_ms / plan.makespan_ms,
              plan.tasks_used);
}

}  // namespace

int main() {
  try {
    hxrt::RuntimeOptions options;
    options.use_installed_plugins = false;
    options.plugin_paths = {std::string(HXRT_PLUGIN_DIR) + "/libhx_cpu.so",
                            std::string(HXRT_PLUGIN_DIR) + "/libhx_sim.so"};
    options.plugin_options["sim"] = R"({"device_type": "GPU", "device_count": 1})";
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    std::printf("The dynamic placer over a described cluster, each task 1 CPU + 4 GPUs, "
                "100 Gb/s between tasks:\n");
    std::printf("  %-34s %11s %9s %12s %12s %12s %8s %5s\n", "graph", "", "", "plan takes",
                "run (est.)", "one task", "gain", "used");
    const BenchGraph spread = branches(rt, 256, 4, 2048);
    for (int tasks : {8, 16, 32, 64}) report(rt, spread, tasks);
    report(rt, layered(rt, 16, 64, 2048), 64);
    report(rt, chain(rt, 256, 1024), 64);
    report(rt, branches(rt, 64, 1, 64), 64);
  } catch (const hxrt::Error& error) {
    std::fprintf(stderr, "hxrt_topology_placer_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
