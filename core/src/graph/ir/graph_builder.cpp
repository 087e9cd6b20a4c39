// GraphBuilder: each node checked as it is added, against the runtime's op schemas, with the
// device request in force on the building thread.
#include "base/device_name.hpp"
#include "hxrt/graph.hpp"
#include "ops/op_schema.hpp"
#include "graph/graph_context.hpp"

namespace hxrt {
namespace {

[[noreturn]] void refuse(const std::string& node, const std::string& why) {
  throw Error(StatusCode::kInvalidArgument, "graph node '" + node + "': " + why);
}

void check_name(const Graph& graph, const std::string& name) {
  if (name.empty()) {
    throw Error(StatusCode::kInvalidArgument,
                "graph node '': every node needs a name of its own, for fetches, feeds and "
                "the placement log");
  }
  if (graph.find(name) != nullptr) {
    refuse(name, "the name is taken by an earlier node; every node needs a name of its own");
  }
}

void check_device(const std::string& node, const std::string& device) {
  if (device.empty()) return;
  try {
    detail::parse_device_name(device);
  } catch (const Error& error) {
    refuse(node, error.what());
  }
}

}  // namespace

GraphBuilder::GraphBuilder(Runtime& runtime) : runtime_(runtime) {
  detail::graph_context_of(runtime_);  // a moved-from Runtime throws here, not at the first node
}

NodeOutput GraphBuilder::input(const std::string& name, DType dtype, const Shape& shape,
                               const std::string& device) {
  check_name(graph_, name);
  check_device(name, device);
  if (dtype_size(dtype) == 0) refuse(name, "its dtype is not a hxrt::DType enumerator");
  try {
    tensor_bytes(dtype, shape);
  } catch (const Error& error) {
    refuse(name, error.what());
  }
  GraphNode node;
  node.kind = GraphNode::Kind::kInput;
  node.name = name;
  node.output_dtypes = {dtype};
  node.output_shapes = {shape};
  return append(std::move(node), device);
}

NodeOutput GraphBuilder::constant(const std::string& name, const Tensor& value,
                                  const std::string& device) {
  check_name(graph_, name);
  check_device(name, device);
  if (!value.valid()) refuse(name, "its value is an empty Tensor handle; give it a tensor");
  GraphNode node;
  node.kind = GraphNode::Kind::kConstant;
  node.name = name;
  node.value = value;
  node.output_dtypes = {value.dtype()};
  node.output_shapes = {value.shape()};
  return append(std::move(node), device);
}

NodeOutput GraphBuilder::add(const std::string& name, const std::string& op,
                             const std::vector<NodeOutput>& inputs, const Attrs& attrs,
                             const std::string& device,
                             const std::vector<std::string>& control_inputs) {
  check_name(graph_, name);
  check_device(name, device);
  const detail::GraphContext& context = *detail::graph_context_of(runtime_);
  const detail::OpSchema* schema = context.ops.find(op);
  if (schema == nullptr) {
    try {
      context.eager.schema_of(op);  // the message that lists the known ops
    } catch (const Error& error) {
      refuse(name, error.what());
    }
  }
  std::vector<detail::TensorMeta> input_meta;
  bool reads_shapes_at_run = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const GraphNode* producer = graph_.find(inputs[i].node);
    if (producer == nullptr) {
      refuse(name, "input " + std::to_string(i) + " names '" + inputs[i].node +
                       "', which is not a node of the graph; add a node after the nodes it "
                       "reads");
    }
    const int outputs = static_cast<int>(producer->output_dtypes.size());
    if (inputs[i].index < 0 || inputs[i].index >= outputs) {
      refuse(name, "input " + std::to_string(i) + " names output " +
                       std::to_string(inputs[i].index) + " of '" + producer->name +
                       "', which has " + std::to_string(outputs) + " output" +
                       (outputs == 1 ? "" : "s"));
    }
    reads_shapes_at_run = reads_shapes_at_run || producer->shapes_at_run;
    detail::TensorMeta meta;
    meta.dtype = producer->output_dtypes[static_cast<size_t>(inputs[i].index)];
    meta.shape = producer->output_shapes[static_cast<size_t>(inputs[i].index)];
    input_meta.push_back(meta);
  }
  for (const std::string& control : control_inputs) {
    if (graph_.find(control) == nullptr) {
      refuse(name, "control input '" + control +
                       "' is not a node of the graph; add a node after the nodes it waits for");
    }
  }
  std::vector<detail::TensorMeta> output_meta;
  try {
    output_meta.resize(static_cast<size_t>(detail::num_outputs_of(*schema, attrs)));
    detail::infer_outputs(*schema, {op, input_meta.data(), input_meta.size(), attrs},
                          output_meta.data());
  } catch (const Error& error) {
    throw Error(error.code(), "graph node '" + name + "' (" + op + "): " + error.what());
  }
  GraphNode node;
  node.name = name;
  node.op = op;
  node.inputs = inputs;
  node.control_inputs = control_inputs;
  node.attrs = attrs;
  node.shapes_at_run = schema->extents_at_run || reads_shapes_at_run;
  for (const detail::TensorMeta& meta : output_meta) {
    node.output_dtypes.push_back(meta.dtype);
    node.output_shapes.push_back(meta.shape);
  }
  return append(std::move(node), device);
}

NodeOutput GraphBuilder::append(GraphNode node, const std::string& device) {
  const detail::GraphContext& context = *detail::graph_context_of(runtime_);
  if (!device.empty()) {
    node.requested_device = device;
    node.request_source = RequestSource::kNode;
  } else if (const std::string* scoped = context.eager.innermost_scope()) {
    node.requested_device = *scoped;
    node.request_source = RequestSource::kScope;
  } else if (node.kind == GraphNode::Kind::kOp) {
    // TensorFlow calls the device function for each op made in its block; the inputs'
    // devices are the ones requested so far (nothing is placed yet).
    OpPlacementInfo info;
    info.op = node.op;
    for (const NodeOutput& input : node.inputs) {
      const GraphNode& producer = *graph_.find(input.node);
      info.input_dtypes.push_back(producer.output_dtypes[static_cast<size_t>(input.index)]);
      info.input_devices.push_back(producer.requested_device);
    }
    std::string answer = context.eager.ask_placement_function(info);
    if (!answer.empty()) {
      check_device(node.name, answer);
      node.requested_device = std::move(answer);
      node.request_source = RequestSource::kPlacementFunction;
    }
  }
  const std::string name = node.name;
  graph_.nodes_.push_back(std::move(node));
  try {
    graph_.index_.emplace(name, graph_.nodes_.size() - 1);
  } catch (...) {
    graph_.nodes_.pop_back();  // left as it was
    throw;
  }
  return {name, 0};
}

}  // namespace hxrt
