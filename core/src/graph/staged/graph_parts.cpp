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

Graph GraphParts::assemble(std::vector<GraphNode> nodes, const OpRegistry& ops) {
  Graph graph;
  for (GraphNode& node : nodes) {
    const auto refuse = [&node](const std::string& why) {
      throw Error(StatusCode::kInvalidArgument, "graph node '" + node.name + "': " + why);
    };
    if (node.name.empty() || graph.find(node.name) != nullptr) {
      refuse("its name is empty or taken by an earlier node");
    }
    if (!node.attr_inputs.empty()) refuse("a part of a graph has no attribute inputs");
    for (const std::string& control : node.control_inputs) {
      if (graph.find(control) == nullptr) refuse("control input '" + control + "' is no node");
    }
    if (node.kind == GraphNode::Kind::kOp) {
      const OpSchema* schema = ops.find(node.op);
      if (schema == nullptr) refuse("its op " + node.op + " is not one of this runtime's");
      if (schema->extents_at_run) refuse(node.op + "'s extents are known only at run");
      std::vector<TensorMeta> metas;
      for (const NodeOutput& input : node.inputs) {
        const GraphNode* producer = graph.find(input.node);
        if (producer == nullptr || input.index < 0 ||
            static_cast<size_t>(input.index) >= producer->output_dtypes.size()) {
          refuse("its input " + input.node + ":" + std::to_string(input.index) +
                 " is no output of an earlier node");
        }
        const auto index = static_cast<size_t>(input.index);
        metas.push_back({producer->output_dtypes[index], producer->output_shapes[index]});
      }
      std::vector<TensorMeta> outputs;
      try {
        outputs.resize(static_cast<size_t>(num_outputs_of(*schema, node.attrs, metas.size())));
        infer_outputs(*schema, {node.op, metas.data(), metas.size(), node.attrs},
                      outputs.data());
      } catch (const Error& error) {
        refuse("(" + node.op + ") " + error.what());
      }
      node.output_dtypes.clear();
      node.output_shapes.clear();
      for (const TensorMeta& output : outputs) {
        node.output_dtypes.push_back(output.dtype);
        node.output_shapes.push_back(output.shape);
      }
    } else if (node.output_dtypes.size() != 1 || node.output_shapes.size() != 1 ||
               (node.kind == GraphNode::Kind::kConstant && !node.value.valid())) {
      refuse("an input or constant has one output, and a constant its value");
    }
    node.shapes_at_run = false;
    graph.index_.emplace(node.name, graph.nodes_.size());
    graph.nodes_.push_back(std::move(node));
  }
  return graph;
}

}  // namespace hxrt::detail
