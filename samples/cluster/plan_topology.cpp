// A cluster planned rather than started: a model of 64 towers (eight 2048x2048 MatMul layers
// each, read from one input, their results summed) placed by the dynamic placer over the 64
// tasks that topology_64_tasks.json describes, each task's devices like this process's. The
// devices' speeds are those of a GPU node, as a saved cost model gives them
// (gpu_node_costs.json: Runtime::cost_model_json of such a node), so that the plan is the same
// on any machine. Prints where the layers go and why, and the estimated run time against the
// first task alone. Nothing is compiled or run: the cluster costs nothing.
//
//   build/bin/cluster_plan_topology samples/cluster config/examples/sim_2_gpus.json
//
//   1027 nodes planned over 64 tasks in 387.3 ms
//     512 MatMul layers on GPU devices, on 13 tasks
//   tower63/layer0 runs on /job:worker/replica:0/task:12/device:GPU:3
//     task:12/GPU:3: MatMul 0.35 ms there vs 0.35 ms on task:13/GPU:0; 2.03 ms of copies in; ...
//   Estimated run: 14.446 ms on 13 tasks, against 49.914 ms on the first task alone
//
// Each tower's input (16 MiB) takes 1.3 ms over the network, four of its layers' time on a GPU:
// the placer fills the first task's four GPUs, then sends towers as far as it pays.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hxrt/hxrt.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: cluster_plan_topology SAMPLE_FOLDER CONFIG.json (a config with a GPU)\n";
    return 2;
  }
  const auto text_of = [&](const std::string& file_name) {
    std::ifstream file(std::string(argv[1]) + "/" + file_name);
    std::stringstream text;
    text << file.rdbuf();
    if (!file) {
      throw hxrt::Error(hxrt::StatusCode::kNotFound,
                        "cannot read " + file_name + " in " + std::string(argv[1]));
    }
    return text.str();
  };
  try {
    hxrt::RuntimeOptions options;
    options.config_path = argv[2];
    hxrt::Runtime rt = hxrt::Runtime::create(options);
    rt.load_cost_model_json(text_of("gpu_node_costs.json"));

    const int64_t n = 2048;
    const int kTowers = 64;
    hxrt::GraphBuilder builder(rt);
    const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {n, n});
    const hxrt::NodeOutput w = builder.constant(
        "w", rt.tensor<float>({n, n}, std::vector<float>(static_cast<size_t>(n * n), 1.0f / n)));
    std::vector<hxrt::NodeOutput> towers;
    for (int tower = 0; tower < kTowers; ++tower) {
      hxrt::NodeOutput value = x;
      for (int layer = 0; layer < 8; ++layer) {
        const std::string name = "tower" + std::to_string(tower) + "/layer" + std::to_string(layer);
        value = builder.add(name + "/relu", "Relu", {builder.add(name, "MatMul", {value, w})});
      }
      towers.push_back(value);
    }
    const hxrt::NodeOutput sum = builder.add("sum", "AddN", towers);

    const auto start = std::chrono::steady_clock::now();
    const hxrt::PlacementPlan plan =
        rt.plan_placement(builder.graph(), {sum}, text_of("topology_64_tasks.json"));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("%zu nodes planned over 64 tasks in %.1f ms\n", plan.nodes.size(), ms);
    // Where the layers went: by device kind, and on how many tasks.
    std::map<std::string, int> layers_on;
    std::set<std::string> tasks;
    for (const hxrt::NodePlacement& node : plan.nodes) {
      if (node.op != "MatMul") continue;
      ++layers_on[node.device.substr(node.device.rfind("device:") + 7, 3)];
      tasks.insert(node.device.substr(0, node.device.find("/device:")));
    }
    for (const auto& [kind, count] : layers_on) {
      std::printf("  %d MatMul layers on %s devices, on %zu tasks\n", count, kind.c_str(),
                  tasks.size());
    }
    for (const hxrt::NodePlacement& node : plan.nodes) {
      if (node.node != "tower63/layer0") continue;
      std::printf("tower63/layer0 runs on %s\n  %s\n", node.device.c_str(), node.reason.c_str());
    }
    std::printf("Estimated run: %.3f ms on %d tasks, against %.3f ms on the first task alone\n",
                plan.makespan_ms, plan.tasks_used, plan.one_task_makespan_ms);
  } catch (const hxrt::Error& error) {
    std::cerr << "cluster_plan_topology: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
