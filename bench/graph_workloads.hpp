// The graphs the graph-mode benchmarks run, built on CPU:0, shared by hxrt_graph_bench and
// hxrt_graph_loop (the instruction counts): graphs of a trivial kernel, whose run time is the
// executor's own cost per node, and a chain of tiny MatMuls.
#pragma once

#include <vector>

#include "hxrt/hxrt.hpp"

namespace hxrt_bench {

// The device every workload's nodes are placed on.
inline constexpr char kCpu[] = "/CPU:0";
// The node count of the executor-overhead graphs.
inline constexpr int kOverheadNodes = 10000;
// The 2x2 MatMul chain's length: short, as a model's graph is, so that what a run costs
// besides its nodes shows.
inline constexpr int kMatMulChainNodes = 100;

// A graph to compile for one fetch, with what its runs are fed and how many op nodes a run
// executes (its graph inputs aside).
struct Workload {
  hxrt::Graph graph;
  hxrt::NodeOutput fetch;
  std::vector<hxrt::Tensor> feeds;  // in the order of the graph's inputs
  int nodes = 0;
};

// What the Relu graphs are fed, and the eager side given: a 1-element f32 tensor on CPU:0.
hxrt::Tensor relu_input(hxrt::Runtime& runtime);
// What the MatMul chain is fed: x and w, 2x2 f32 on CPU:0, w the identity (so that every
// product equals x: no overflow, no denormals).
std::vector<hxrt::Tensor> matmul_2x2_inputs(hxrt::Runtime& runtime);

// x -> Relu -> Relu -> ... (`nodes` Relus), x a 1-element f32 tensor.
Workload relu_chain(hxrt::Runtime& runtime, int nodes);
// `nodes` Relus of x side by side, then one AddN of them all (the fetch): nodes + 1 op nodes.
Workload relu_wide(hxrt::Runtime& runtime, int nodes);
// x -> MatMul(., w) -> MatMul(., w) ... (`nodes` MatMuls).
Workload matmul_2x2_chain(hxrt::Runtime& runtime, int nodes);

}  // namespace hxrt_bench
