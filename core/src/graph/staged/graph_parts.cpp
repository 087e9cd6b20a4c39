#include "graph/staged/graph_parts.hpp"

#include <map>
#include <utility>

#include "graph/compile/compile_phases.hpp"

namespace hxrt::detail {

Graph GraphParts::part(const Graph& graph, const std::vector<bool>& members,
                       const std::vector<PartInput>& inputs, const OpRegistry& ops) {
  Graph part;
  std::map<std::pair<std::string, int>, NodeOutput> fed;  // source -> the part's input
  const auto append = [&part](GraphNode node) {
    part.index_.emplace(node.name, part.nodes_.size());
    part.nodes_.push_back(std::move(node));
  };
  for (const PartInput& input : inputs) {
    GraphNode node;
    node.kind = GraphNode::Kind::kInput;
    node.name = input.name;
    node.output_dtypes = {input.dtype};
    node.output_shapes = {input.shape};
    append(std::move(node));
    fed[{input.source.node, input.source.index}] = NodeOutput{input.name, 0};
  }
  const std::vector<GraphNode>& nodes = graph.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!members[i]) continue;
    GraphNode node = nodes[i];
    node.shapes_at_run = false;
    if (node.kind != GraphNode::Kind::kOp) {
      append(std::move(node));
      continue;
    }
    std::vector<TensorMeta> metas;
    for (NodeOutput& input : node.inputs) {
      if (!members[graph_index(graph, input.node)]) input = fed.at({input.node, input.index});
      const GraphNode& producer = *part.find(input.node);
      const auto index = static_cast<size_t>(input.index);
      metas.push_back({producer.output_dtypes[index], producer.output_shapes[index]});
    }
    std::vector<std::string> controls;
    for (const std::string& control : node.control_inputs) {
      if (members[graph_index(graph, control)]) controls.push_back(control);
    }
    node.control_inputs = std::move(controls);
    const OpSchema& schema = *ops.find(node.op);
    std::vector<TensorMeta> outputs(node.output_dtypes.size());
    try {
      infer_outputs(schema, {node.op, metas.data(), metas.size(), node.attrs}, outputs.data());
    } catch (const Error& error) {
      throw Error(error.code(), "graph node '" + node.name + "' (" + node.op + "), for the " +
                                    "shapes this run computed: " + error.what());
    }
    for (size_t o = 0; o < outputs.size(); ++o) node.output_shapes[o] = outputs[o].shape;
    append(std::move(node));
  }
  return part;
}

}  // namespace hxrt::detail
