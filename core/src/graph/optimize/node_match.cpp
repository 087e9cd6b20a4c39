#include "graph/optimize/node_match.hpp"

#include <cmath>

namespace hxrt::detail {

bool absorbable(const GraphRewrite& graph, size_t inner, size_t outer) {
  const GraphNode& node = graph.node(inner);
  return node.kind == GraphNode::Kind::kOp && !graph.kept(inner) && !node.shapes_at_run &&
         graph.sole_reader(inner) == outer &&
         node.requested_device == graph.node(outer).requested_device;
}

bool is_op(const GraphRewrite& graph, size_t index, const char* op) {
  return index != GraphRewrite::kNone && graph.node(index).kind == GraphNode::Kind::kOp &&
         graph.node(index).op == op;
}

std::optional<double> scalar_value(const GraphRewrite& graph, const NodeOutput& output) {
  const GraphNode& constant = graph.node(graph.producer(output));
  if (constant.kind != GraphNode::Kind::kConstant || constant.value.dtype() != DType::kF32 ||
      constant.value.num_elements() != 1) {
    return std::nullopt;
  }
  return constant.value.to_vector<float>()[0];
}

bool is_scalar(const GraphRewrite& graph, const NodeOutput& output, double value) {
  const std::optional<double> found = scalar_value(graph, output);
  return found && std::fabs(*found - value) <= 1e-6;
}

const NodeOutput* other_than_scalar(const GraphRewrite& graph, size_t index, double value) {
  const GraphNode& node = graph.node(index);
  if (node.inputs.size() != 2) return nullptr;
  for (int side = 0; side < 2; ++side) {
    if (is_scalar(graph, node.inputs[side], value)) return &node.inputs[1 - side];
  }
  return nullptr;
}

const Shape& shape_of(const GraphRewrite& graph, const NodeOutput& output) {
  return graph.node(graph.producer(output)).output_shapes[static_cast<size_t>(output.index)];
}

DType dtype_of(const GraphRewrite& graph, const NodeOutput& output) {
  return graph.node(graph.producer(output)).output_dtypes[static_cast<size_t>(output.index)];
}

bool same_output(const NodeOutput& a, const NodeOutput& b) {
  return a.node == b.node && a.index == b.index;
}

}  // namespace hxrt::detail
