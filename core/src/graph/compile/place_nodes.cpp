// The simple placer of a graph (compile_phases.hpp): the eager placer's rules, asked once per
// node with the request the node carries, and the devices of a previous placement first.
#include <unordered_map>

#include "graph/compile/compile_phases.hpp"

namespace hxrt::detail {
namespace {

[[noreturn]] void refuse_node(const GraphNode& node, const Error& error) {
  throw Error(error.code(),
              "graph node '" + node.name + "' (" + op_name_of(node) + "): " + error.what());
}

TensorMeta meta_of(DType dtype, const Shape& shape) {
  TensorMeta meta;
  meta.dtype = dtype;
  meta.shape = shape;
  meta.bytes = tensor_bytes(dtype, shape);
  return meta;
}

}  // namespace

NodeRequest request_of(const GraphNode& node, const CompileOptions& options) {
  auto given = options.placement.find(node.name);
  if (given != options.placement.end()) return {&given->second, true};
  return {&node.requested_device, false};
}

OpCall::OpCall(GraphContext& context, const Graph& graph, const GraphNode& node,
               const std::vector<NodeChoice>& choices)
    : node_(node), schema_(*context.ops.find(node.op)) {  // the builder checked the op
  for (const NodeOutput& input : node.inputs) {
    const size_t producer = graph_index(graph, input.node);
    const GraphNode& from = graph.nodes()[producer];
    const auto index = static_cast<size_t>(input.index);
    inputs_.push_back(meta_of(from.output_dtypes[index], from.output_shapes[index]));
    // A graph input is placed after its consumers (it goes with the first); the placer's
    // rules do not depend on where inputs are.
    Device* device = choices[producer].device;
    input_devices_.push_back(device != nullptr ? device : &context.eager.default_tensor_device());
  }
  for (size_t i = 0; i < node.output_dtypes.size(); ++i) {
    outputs_.push_back(meta_of(node.output_dtypes[i], node.output_shapes[i]));
  }
  const size_t num_inputs = inputs_.size();
  const size_t num_outputs = outputs_.size();
  strides_.resize(num_inputs + num_outputs);
  views_.resize(num_inputs + num_outputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    if (schema_.broadcasts) {
      fill_broadcast_view(inputs_[i].dtype, inputs_[i].shape, outputs_[0].shape, strides_[i],
                          views_[i]);
    } else {
      fill_dense_view(inputs_[i].dtype, inputs_[i].shape, strides_[i], views_[i]);
    }
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    fill_dense_view(outputs_[i].dtype, outputs_[i].shape, strides_[num_inputs + i],
                    views_[num_inputs + i]);
  }
  t_ = type_parameter(schema_, {node.op, inputs_.data(), num_inputs, node.attrs},
                      outputs_.data());
}

Placement OpCall::place(GraphContext& context, const std::string& request,
                        SoftPlacement mode) const {
  return context.placer->place({&schema_, t_, outputs_[0].dtype, request, input_devices_.data(),
                                inputs_.size(), mode, node_.attrs, views_.data(),
                                views_.data() + inputs_.size(), outputs_.size()});
}

namespace {

// Where op node `node` runs when `request` is asked for under `mode` (the eager placer's
// rules), with its kernel and instance, and why there in `reason`; `choices` holds its
// producers' devices. Throws the placer's Error.
NodeChoice place_op(GraphContext& context, const Graph& graph, const GraphNode& node,
                    const std::vector<NodeChoice>& choices, const std::string& request,
                    SoftPlacement mode, std::string& reason) {
  const OpCall call(context, graph, node, choices);
  Placement placed = call.place(context, request, mode);
  NodeChoice choice;
  choice.schema = &call.schema();
  choice.inputs = call.inputs();
  choice.outputs = call.outputs();
  choice.device = placed.device;
  choice.kernel = placed.kernel;
  choice.instance = std::move(placed.instance);
  reason = std::move(placed.reason);
  return choice;
}

// A graph input or constant goes where it is asked to, else with its first consumer
// (TensorFlow's placer colocates a source node with the one node it feeds), else where a
// tensor made with no device goes.
Device& input_device(GraphContext& context, const NodeRequest& request, Device* consumer) {
  if (!request.device->empty()) return context.eager.data_device(*request.device);
  if (consumer != nullptr) return *consumer;
  if (!context.config.tensor_device.empty()) {
    return context.eager.data_device(context.config.tensor_device);
  }
  return context.eager.default_tensor_device();
}

}  // namespace

std::string op_name_of(const GraphNode& node) {
  switch (node.kind) {
    case GraphNode::Kind::kInput: return "Placeholder";
    case GraphNode::Kind::kConstant: return "Const";
    case GraphNode::Kind::kOp: break;
  }
  return node.op;
}

size_t graph_index(const Graph& graph, const std::string& name) {
  return static_cast<size_t>(graph.find(name) - graph.nodes().data());
}

PlacedNodes place_nodes(GraphContext& context, const Graph& graph,
                        const std::vector<bool>& needed, const CompileOptions& options,
                        const std::vector<NodePlacement>* previous, PlacementEstimate& estimate) {
  for (const auto& given : options.placement) {
    if (graph.find(given.first) == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "CompileOptions::placement names '" + given.first +
                      "', which is not a node of the graph; give back the placement of an "
                      "executable of this graph");
    }
  }
  const std::vector<GraphNode>& nodes = graph.nodes();
  PlacedNodes placed;
  std::vector<NodeChoice>& choices = placed.choices;
  choices.resize(nodes.size());
  placed.placements.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const GraphNode& node = nodes[i];
    if (!needed[i] || node.kind != GraphNode::Kind::kOp) continue;
    const NodeRequest request = request_of(node, options);
    try {
      choices[i] = place_op(context, graph, node, choices, *request.device,
                            context.soft_placement.load(), placed.placements[i].reason);
    } catch (const Error& error) {
      refuse_node(node, error);
    }
  }
  std::vector<Device*> first_consumer(nodes.size(), nullptr);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    for (const NodeOutput& input : nodes[i].inputs) {
      Device*& consumer = first_consumer[graph_index(graph, input.node)];
      if (consumer == nullptr) consumer = choices[i].device;
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const GraphNode& node = nodes[i];
    if (!needed[i]) continue;
    NodeChoice& choice = choices[i];
    const NodeRequest request = request_of(node, options);
    if (node.kind != GraphNode::Kind::kOp) {
      try {
        choice.device = &input_device(context, request, first_consumer[i]);
      } catch (const Error& error) {
        refuse_node(node, error);
      }
      choice.outputs.push_back(meta_of(node.output_dtypes[0], node.output_shapes[0]));
    }
    NodePlacement& placement = placed.placements[i];
    placement.node = node.name;
    placement.op = op_name_of(node);
    placement.device = choice.device->name();
    placement.requested = node.requested_device;
    placement.request_source = node.request_source;
    if (request.given_back) {
      // TensorFlow's rule for a node placed before. Short enough to be kept inline: a large
      // graph given its placement back has it on every node.
      placement.reason = "placed before" +
                         (placement.reason.empty() ? "" : "; " + placement.reason);
    }
  }
  const GraphPlacer placer = options.placer.value_or(context.config.placer);
  if (placer == GraphPlacer::kDynamic) {
    place_by_cost(context, graph, needed, options, previous, placed, estimate);
  }
  return placed;
}

}  // namespace hxrt::detail
