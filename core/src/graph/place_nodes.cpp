// The simple placer of a graph (compile_phases.hpp): the eager placer's rules, asked once per
// node with the request the node carries, and the devices of a previous placement first.
#include <unordered_map>

#include "graph/compile_phases.hpp"

namespace hxrt::detail {
namespace {

[[noreturn]] void refuse_node(const GraphNode& node, const Error& error) {
  const std::string op = node.kind == GraphNode::Kind::kInput ? "Placeholder" : node.op;
  throw Error(error.code(), "graph node '" + node.name + "' (" + op + "): " + error.what());
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

NodeChoice place_op(Runtime::Impl& runtime, const Graph& graph, const GraphNode& node,
                    const std::vector<NodeChoice>& choices, const std::string& request,
                    SoftPlacement mode) {
  NodeChoice choice;
  choice.schema = runtime.ops.find(node.op);  // the builder checked that it exists
  const OpSchema& schema = *choice.schema;
  std::vector<Device*> input_devices;
  for (const NodeOutput& input : node.inputs) {
    const size_t producer = graph_index(graph, input.node);
    const GraphNode& from = graph.nodes()[producer];
    const auto index = static_cast<size_t>(input.index);
    choice.inputs.push_back(meta_of(from.output_dtypes[index], from.output_shapes[index]));
    // A graph input is placed after its consumers (it goes with the first); the placer's
    // rules do not depend on where inputs are.
    Device* device = choices[producer].device;
    input_devices.push_back(device != nullptr ? device : &runtime.default_tensor_device());
  }
  for (size_t i = 0; i < node.output_dtypes.size(); ++i) {
    choice.outputs.push_back(meta_of(node.output_dtypes[i], node.output_shapes[i]));
  }
  const size_t num_inputs = choice.inputs.size();
  const size_t num_outputs = choice.outputs.size();
  std::vector<Strides> strides(num_inputs + num_outputs);
  std::vector<hx_tensor_view> views(num_inputs + num_outputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    if (schema.broadcasts) {
      fill_broadcast_view(choice.inputs[i].dtype, choice.inputs[i].shape,
                          choice.outputs[0].shape, strides[i], views[i]);
    } else {
      fill_dense_view(choice.inputs[i].dtype, choice.inputs[i].shape, strides[i], views[i]);
    }
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    fill_dense_view(choice.outputs[i].dtype, choice.outputs[i].shape, strides[num_inputs + i],
                    views[num_inputs + i]);
  }
  const InferContext call{node.op, choice.inputs.data(), num_inputs, node.attrs};
  const DType t = type_parameter(schema, call, choice.outputs.data());
  Placement placed = runtime.placer->place(
      {&schema, t, choice.outputs[0].dtype, request, input_devices.data(), num_inputs, mode,
       node.attrs, views.data(), views.data() + num_inputs, num_outputs});
  choice.device = placed.device;
  choice.kernel = placed.kernel;
  choice.instance = std::move(placed.instance);
  choice.placement.reason = std::move(placed.reason);
  return choice;
}

namespace {

// A graph input goes where it is asked to, else with its first consumer (TensorFlow's
// placer colocates a source node with the one node it feeds), else where a tensor made with
// no device goes.
Device& input_device(Runtime::Impl& runtime, const NodeRequest& request, Device* consumer) {
  if (!request.device->empty()) return runtime.data_device(*request.device);
  if (consumer != nullptr) return *consumer;
  if (!runtime.config.tensor_device.empty()) {
    return runtime.data_device(runtime.config.tensor_device);
  }
  return runtime.default_tensor_device();
}

}  // namespace

size_t graph_index(const Graph& graph, const std::string& name) {
  return static_cast<size_t>(graph.find(name) - graph.nodes().data());
}

std::vector<NodeChoice> place_nodes(Runtime::Impl& runtime, const Graph& graph,
                                    const std::vector<bool>& needed,
                                    const CompileOptions& options,
                                    const std::vector<NodePlacement>* previous,
                                    PlacementEstimate& estimate) {
  for (const auto& given : options.placement) {
    if (graph.find(given.first) == nullptr) {
      throw Error(StatusCode::kInvalidArgument,
                  "CompileOptions::placement names '" + given.first +
                      "', which is not a node of the graph; give back the placement of an "
                      "executable of this graph");
    }
  }
  const std::vector<GraphNode>& nodes = graph.nodes();
  std::vector<NodeChoice> choices(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const GraphNode& node = nodes[i];
    if (!needed[i] || node.kind != GraphNode::Kind::kOp) continue;
    const NodeRequest request = request_of(node, options);
    try {
      choices[i] = place_op(runtime, graph, node, choices, *request.device,
                            runtime.soft_placement.load());
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
    if (node.kind == GraphNode::Kind::kInput) {
      try {
        choice.device = &input_device(runtime, request, first_consumer[i]);
      } catch (const Error& error) {
        refuse_node(node, error);
      }
      choice.outputs.push_back(meta_of(node.output_dtypes[0], node.output_shapes[0]));
    }
    NodePlacement& placement = choice.placement;
    placement.node = node.name;
    placement.op = node.kind == GraphNode::Kind::kInput ? "Placeholder" : node.op;
    placement.device = choice.device->name();
    placement.requested = node.requested_device;
    placement.request_source = node.request_source;
    if (request.given_back) {
      placement.reason = "kept on " + *request.device + ", where a previous compile placed it" +
                         (placement.reason.empty() ? "" : "; " + placement.reason);
    }
  }
  const GraphPlacer placer = options.placer.value_or(runtime.config.placer);
  if (placer == GraphPlacer::kDynamic) {
    place_by_cost(runtime, graph, needed, options, previous, choices, estimate);
  }
  return choices;
}

}  // namespace hxrt::detail
