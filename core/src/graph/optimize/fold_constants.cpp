// Constant folding: what exporters write to compute shapes (Shape -> Gather -> Concat ->
// Reshape) and weights prepared from weights (a Transpose of a constant) cost every run the
// same work for the same values. Computed once here, as eager calls, they become constants;
// a BatchNormalization after a Conv goes into the Conv's weights (batch_norm_into_conv.cpp).
#include "graph/optimize/graph_passes.hpp"
#include "ops/shape_value.hpp"
#include "tensors/transfers.hpp"

namespace hxrt::detail {
namespace {

// A folded node may add this much output beyond the bytes of its inputs: an Expand or a Fill
// of a few bytes into a large tensor is cheaper to run than to keep.
constexpr size_t kMostAddedBytes = size_t{1} << 20;

bool is_constant(const GraphRewrite& graph, const NodeOutput& output) {
  return graph.node(graph.producer(output)).kind == GraphNode::Kind::kConstant;
}

// The value of Shape or Size of `of`, whose shape compile knows.
std::vector<int64_t> shape_or_size(const GraphNode& node, const Shape& of) {
  if (node.op == "Size") return {of.num_elements()};
  const AttrValue* start = node.attrs.find("start");
  const AttrValue* end = node.attrs.find("end");
  return shape_value(of, start ? std::get<int64_t>(*start) : 0,
                     end ? std::get<int64_t>(*end) : of.rank());
}

// The node's value computed from its constant inputs, as an eager call; an empty tensor when
// the call fails (the runs then report it).
Tensor computed(GraphContext& context, const GraphRewrite& graph, const GraphNode& node) {
  std::vector<TensorArg> inputs;
  for (const NodeOutput& input : node.inputs) {
    inputs.emplace_back(graph.node(graph.producer(input)).value);
  }
  Tensor output;
  try {
    context.eager.run(*context.ops.find(node.op), inputs.data(), inputs.size(), node.attrs,
                      node.requested_device, &output);
  } catch (const Error&) {
    return Tensor();
  }
  return output;
}

size_t bytes_of(const GraphNode& node, int output) {
  return tensor_bytes(node.output_dtypes[output], node.output_shapes[output]);
}

}  // namespace

std::vector<std::string> fold_constants(GraphContext& context, GraphRewrite& graph) {
  std::vector<std::string> folded;
  for (size_t i = 0; i < graph.size(); ++i) {
    const GraphNode& node = graph.node(i);
    if (graph.erased(i) || node.kind != GraphNode::Kind::kOp || node.shapes_at_run ||
        !node.attr_inputs.empty() || !node.control_inputs.empty()) {
      continue;
    }
    if (node.op == "BatchNormalization") {
      const std::string name = node.name;
      const std::string conv = graph.node(graph.producer(node.inputs[0])).name;
      if (fold_batch_norm_into_conv(context, graph, i)) folded.push_back(name + " into " + conv);
      continue;
    }
    if (node.output_dtypes.size() != 1) continue;
    Tensor value;
    if (node.op == "Shape" || node.op == "Size") {
      const GraphNode& of = graph.node(graph.producer(node.inputs[0]));
      if (of.shapes_at_run) continue;
      const std::vector<int64_t> extents =
          shape_or_size(node, of.output_shapes[node.inputs[0].index]);
      value = tensor_from_host(context.eager.default_tensor_device(), DType::kI64,
                               node.output_shapes[0], extents.data(),
                               extents.size() * sizeof(int64_t));
    } else {
      bool all_constant = true;
      size_t input_bytes = 0;
      for (const NodeOutput& input : node.inputs) {
        all_constant = all_constant && is_constant(graph, input);
        if (all_constant) input_bytes += bytes_of(graph.node(graph.producer(input)), input.index);
      }
      if (!all_constant || bytes_of(node, 0) > input_bytes + kMostAddedBytes) continue;
      value = computed(context, graph, node);
      if (!value.valid()) continue;
    }
    folded.push_back(node.name);
    graph.make_constant(i, value);
  }
  return folded;
}

}  // namespace hxrt::detail
