// Identity and inference-time Dropout pass their input through: their readers can read the
// input itself, and a run saves a copy per node. An Identity that asks for a device its input's
// producer does not ask for may be how a graph moves a value there: it stays.
#include "graph/optimize/graph_passes.hpp"

namespace hxrt::detail {

std::vector<std::string> remove_identities(GraphRewrite& graph) {
  std::vector<std::string> removed;
  for (size_t i = 0; i < graph.size(); ++i) {
    const GraphNode& node = graph.node(i);
    if (graph.erased(i) || node.kind != GraphNode::Kind::kOp || graph.kept(i)) continue;
    const bool identity = node.op == "Identity";
    const bool dropout = node.op == "Dropout" && graph.reads_of(i, 1) == 0;
    if (!identity && !dropout) continue;
    const GraphNode& input = graph.node(graph.producer(node.inputs[0]));
    if (node.requested_device != input.requested_device) continue;
    removed.push_back(node.name);
    graph.bypass(i, node.inputs[0]);
  }
  return removed;
}

}  // namespace hxrt::detail
