#include "placer_scenarios.hpp"

#include <utility>

namespace hxrt_bench {
namespace {

constexpr int64_t kMatrix = 32;  // the MatMuls' n: the sim's host-side arithmetic stays small

// The sim's kernels compute on the host after their modelled time, so the real CPU would
// outrun every simulated accelerator; scenarios about accelerators leave its plugin out.
hxrt::RuntimeOptions gpus_only(const std::string& sim_options) {
  hxrt::RuntimeOptions options;
  options.disabled_plugins = std::vector<std::string>{"cpu", "opencl"};
  options.plugin_options["sim"] = sim_options;
  return options;
}

hxrt::RuntimeOptions from_file(const std::string& path_in_source_tree) {
  hxrt::RuntimeOptions options;
  options.config_path = std::string(HXRT_BENCH_SOURCE_DIR) + "/" + path_in_source_tree;
  return options;
}

// x . w . w . w, `chains` times from the same x and w: independent MatMul chains, each fetched.
ScenarioGraph matmul_chains(hxrt::Runtime& rt, int chains, int length) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kMatrix, kMatrix});
  const hxrt::NodeOutput w = builder.input("w", hxrt::DType::kF32, {kMatrix, kMatrix});
  std::vector<hxrt::NodeOutput> fetches;
  for (int chain = 0; chain < chains; ++chain) {
    hxrt::NodeOutput last = x;
    for (int i = 0; i < length; ++i) {
      last = builder.add("chain" + std::to_string(chain) + "/mm" + std::to_string(i), "MatMul",
                         {last, w});
    }
    fetches.push_back(last);
  }
  return {builder.build(), std::move(fetches)};
}

// relu(relu(x . w1) . w2), as samples/dynamic/slow_copies.cpp builds it.
ScenarioGraph two_layers(hxrt::Runtime& rt) {
  hxrt::GraphBuilder builder(rt);
  hxrt::NodeOutput last = builder.input("x", hxrt::DType::kF32, {kMatrix, kMatrix});
  for (const std::string layer : {"layer1", "layer2"}) {
    const hxrt::NodeOutput w = builder.input(layer + "/w", hxrt::DType::kF32, {kMatrix, kMatrix});
    const hxrt::NodeOutput product = builder.add(layer + "/MatMul", "MatMul", {last, w});
    last = builder.add(layer + "/Relu", "Relu", {product});
  }
  return {builder.build(), {last}};
}

// `count` Relus of one input of `floats` elements, each fetched: few nodes, much memory.
ScenarioGraph wide_relus(hxrt::Runtime& rt, int count, int64_t floats) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {floats});
  std::vector<hxrt::NodeOutput> fetches;
  for (int i = 0; i < count; ++i) {
    fetches.push_back(builder.add("relu" + std::to_string(i), "Relu", {x}));
  }
  return {builder.build(), std::move(fetches)};
}

// Issue 32's case, smaller: four branches of a MatMul then Relu on x and w, and four of a
// MatMul of a small s by itself.
ScenarioGraph matmul_relu_branches(hxrt::Runtime& rt) {
  hxrt::GraphBuilder builder(rt);
  const hxrt::NodeOutput x = builder.input("x", hxrt::DType::kF32, {kMatrix, kMatrix});
  const hxrt::NodeOutput w = builder.input("w", hxrt::DType::kF32, {kMatrix, kMatrix});
  const hxrt::NodeOutput s = builder.input("s", hxrt::DType::kF32, {8, 8});
  std::vector<hxrt::NodeOutput> fetches;
  for (int i = 0; i < 4; ++i) {
    const std::string big = "big" + std::to_string(i);
    fetches.push_back(builder.add(big + "/relu", "Relu", {builder.add(big, "MatMul", {x, w})}));
    fetches.push_back(builder.add("small" + std::to_string(i), "MatMul", {s, s}));
  }
  return {builder.build(), std::move(fetches)};
}

}  // namespace

std::vector<PlacerScenario> placer_scenarios() {
  std::vector<PlacerScenario> scenarios;
  // a. GPU:3 does a 32x32 MatMul in 1 ms, GPU:0 to GPU:2 in 16 ms (the config file of
  // samples/dynamic/one_fast_three_slow.cpp, which builds this graph): the simple placer puts
  // the six MatMuls on GPU:0; the fast device alone does them all before a slow one would
  // finish one.
  scenarios.push_back({"one_fast_three_slow", "1 fast 3 slow",
                       from_file("samples/dynamic/one_fast_three_slow_gpus.json"), "/GPU:0",
                       [](hxrt::Runtime& rt) { return matmul_chains(rt, 2, 3); }, 1.5});
  // b. The CPU and two GPUs whose kernels are fast by their model but whose copies to or from
  // the host take 2 ms and more (samples/dynamic/slow_copies.cpp): fed on the CPU, a small
  // model is best kept there.
  scenarios.push_back({"slow_copies", "slow copies",
                       from_file("config/examples/sim_slow_copies.json"), "/CPU:0", two_layers});
  // c. GPU:3 runs a Relu of 640 KiB in 5.2 ms, GPU:0 to GPU:2 in 21 ms, but GPU:3 has 2 MiB
  // of memory: by time alone the three Relus belong on GPU:3 (15.7 ms), but their input's
  // copy and their three outputs (2.5 MiB) do not fit there; one or two on GPU:3 and the rest
  // on slow GPUs at once take 21 ms, where the simple placer's GPU:0 takes 63. (GPU:3's rate
  // is low enough that calibration's Add stops growing before a size 2 MiB cannot hold.)
  scenarios.push_back(
      {"memory_bound", "memory-bound",
       gpus_only(R"({"device_type": "GPU", "elementwise_gbps": 0.0625, "launch_latency_us": 20,)"
                 R"( "d2d_gbps": 8, "d2d_latency_us": 10,)"
                 R"( "devices": [{}, {}, {}, {"elementwise_gbps": 0.25, "memory_mb": 2}]})"),
       "/GPU:0", [](hxrt::Runtime& rt) { return wide_relus(rt, 3, 160 * 1024); }});
  // d. Four equal GPUs (a 32x32 MatMul in 4 ms) and four independent chains of two MatMuls:
  // the simple placer runs all eight on GPU:0, one after another; spread, they take two.
  scenarios.push_back(
      {"independent_branches", "indep. branches",
       gpus_only(R"({"device_type": "GPU", "device_count": 4, "matmul_gflops": 0.016384,)"
                 R"( "launch_latency_us": 20, "d2d_gbps": 8, "d2d_latency_us": 10})"),
       "/GPU:0", [](hxrt::Runtime& rt) { return matmul_chains(rt, 4, 2); }, 1.5});
  // e. As a, with the fast device first: the simple placer's GPU:0 is already the best place
  // for every node, and the dynamic placer must do as well.
  scenarios.push_back(
      {"simple_is_right", "simple is right",
       gpus_only(R"({"device_type": "GPU", "matmul_gflops": 0.004096, "launch_latency_us": 20,)"
                 R"( "d2d_gbps": 8, "d2d_latency_us": 10,)"
                 R"( "devices": [{"matmul_gflops": 0.065536}, {}, {}, {}]})"),
       "/GPU:0", [](hxrt::Runtime& rt) { return matmul_chains(rt, 2, 3); }});
  // f. Issue 32's case: the feeds live on GPU:1, the fast one, not on the device the dynamic
  // placer assumes feeds come from (GPU:0, the first, with no CPU), and copies between the
  // GPUs take 3 ms. Until a run shows where the feeds are, it places the inputs on GPU:0 and
  // copies them back and forth; after the first run, where they live.
  scenarios.push_back(
      {"feeds_on_the_fast_gpu", "feeds elsewhere",
       gpus_only(R"({"device_type": "GPU", "matmul_gflops": 0.008192, "launch_latency_us": 20,)"
                 R"( "d2d_gbps": 8, "d2d_latency_us": 3000,)"
                 R"( "devices": [{}, {"matmul_gflops": 0.065536}]})"),
       "/GPU:1", matmul_relu_branches});
  return scenarios;
}

std::map<std::string, hxrt::Tensor> scenario_feeds(hxrt::Runtime& rt, const hxrt::Graph& graph,
                                                   const std::string& device) {
  std::map<std::string, hxrt::Tensor> feeds;
  for (const hxrt::GraphNode& node : graph.nodes()) {
    if (node.kind != hxrt::GraphNode::Kind::kInput) continue;
    const hxrt::Shape& shape = node.output_shapes[0];
    const float value = 1.0f / static_cast<float>(shape[shape.rank() - 1]);
    feeds.emplace(node.name, rt.tensor<float>(shape, std::vector<float>(
                                                         static_cast<size_t>(shape.num_elements()),
                                                         value),
                                              device));
  }
  return feeds;
}

}  // namespace hxrt_bench
