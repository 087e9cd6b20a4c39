// GraphBuilder: each node checked as it is added, against the runtime's op schemas, with the
// device request in force on the building thread.
#include <algorithm>

#include "base/device_name.hpp"
#include "hxrt/graph.hpp"
#include "ops/attr_from_elements.hpp"
#include "ops/declared_attr.hpp"
#include "ops/op_schema.hpp"
#include "ops/spec_output_dtypes.hpp"
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

// The node that `input` (named `what` of node `node`) reads, after checking that it is one of
// the graph's and has that output.
const GraphNode& producer_of(const Graph& graph, const std::string& node, const NodeOutput& input,
                             const std::string& what) {
  const GraphNode* producer = graph.find(input.node);
  if (producer == nullptr) {
    refuse(node, what + " names '" + input.node +
                     "', which is not a node of the graph; add a node after the nodes it reads");
  }
  const int outputs = static_cast<int>(producer->output_dtypes.size());
  if (input.index < 0 || input.index >= outputs) {
    refuse(node, what + " names output " + std::to_string(input.index) + " of '" +
                     producer->name + "', which has " + std::to_string(outputs) + " output" +
                     (outputs == 1 ? "" : "s"));
  }
  return *producer;
}

void check_attr_input(const Graph& graph, const std::string& node, const detail::OpSchema& schema,
                      const Attrs& attrs, const AttrInput& attr_input) {
  const std::string what = "attribute input '" + attr_input.attr + "'";
  const OpAttrInfo* declared = detail::declared_attr(schema, attr_input.attr);
  if (declared == nullptr) {
    refuse(node, what + " names no attribute of " + schema.name);
  }
  if (attrs.find(attr_input.attr) != nullptr) {
    refuse(node, what + " is set in its attributes too; give it one way");
  }
  const GraphNode& producer = producer_of(graph, node, attr_input.value, what);
  const DType dtype = producer.output_dtypes[static_cast<size_t>(attr_input.value.index)];
  if (!detail::can_give_attribute(dtype, declared->type)) {
    refuse(node, what + " reads a tensor of " + dtype_name(dtype) + ", which cannot give " +
                     schema.name + "'s attribute '" + attr_input.attr + "' (" +
                     attr_type_name(declared->type) + ")");
  }
}

// Outputs of the dtypes the op's specification gives and of rank 0, for a node whose shapes
// wait for the runs.
std::vector<detail::TensorMeta> provisional_outputs(const std::string& node,
                                                    const detail::OpSchema& schema,
                                                    const std::vector<detail::TensorMeta>& inputs,
                                                    const Attrs& attrs, size_t count) {
  std::vector<DType> input_dtypes;
  for (const detail::TensorMeta& input : inputs) input_dtypes.push_back(input.dtype);
  const std::optional<std::vector<DType>> dtypes =
      detail::spec_output_dtypes(schema, input_dtypes, attrs, static_cast<int>(count));
  if (!dtypes) {
    refuse(node, "its shapes are known only at run, and " + schema.name +
                     "'s specification does not give its output dtypes without them");
  }
  std::vector<detail::TensorMeta> outputs;
  for (DType dtype : *dtypes) outputs.push_back({dtype, Shape{}});
  return outputs;
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
                             const std::vector<std::string>& control_inputs,
                             const std::vector<AttrInput>& attr_inputs) {
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
    const GraphNode& producer = producer_of(graph_, name, inputs[i], "input " + std::to_string(i));
    reads_shapes_at_run = reads_shapes_at_run || producer.shapes_at_run;
    detail::TensorMeta meta;
    meta.dtype = producer.output_dtypes[static_cast<size_t>(inputs[i].index)];
    meta.shape = producer.output_shapes[static_cast<size_t>(inputs[i].index)];
    input_meta.push_back(meta);
  }
  for (const AttrInput& attr_input : attr_inputs) {
    check_attr_input(graph_, name, *schema, attrs, attr_input);
  }
  for (const std::string& control : control_inputs) {
    if (graph_.find(control) == nullptr) {
      refuse(name, "control input '" + control +
                       "' is not a node of the graph; add a node after the nodes it waits for");
    }
  }
  std::vector<detail::TensorMeta> output_meta;
  try {
    output_meta.resize(
        static_cast<size_t>(detail::num_outputs_of(*schema, attrs, inputs.size())));
  } catch (const Error& error) {
    throw Error(error.code(), "graph node '" + name + "' (" + op + "): " + error.what());
  }
  // Shape inference needs every attribute; with provisional input shapes it may refuse what
  // a run's shapes will pass. Such a node's shapes wait for the runs (GraphParts infers them
  // again), and only its dtypes are known now, from the op's specification.
  bool provisional = !attr_inputs.empty();
  if (!provisional) {
    try {
      detail::infer_outputs(*schema, {op, input_meta.data(), input_meta.size(), attrs},
                            output_meta.data());
    } catch (const Error& error) {
      if (!reads_shapes_at_run) {
        throw Error(error.code(), "graph node '" + name + "' (" + op + "): " + error.what());
      }
      provisional = true;
    }
  }
  if (provisional) {
    output_meta = provisional_outputs(name, *schema, input_meta, attrs, output_meta.size());
  }
  GraphNode node;
  node.name = name;
  node.op = op;
  node.inputs = inputs;
  node.control_inputs = control_inputs;
  node.attrs = attrs;
  node.attr_inputs = attr_inputs;
  node.shapes_at_run = schema->extents_at_run || reads_shapes_at_run || !attr_inputs.empty();
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
