// Fusion: chains of nodes that one kernel computes in a single pass over the data.
// - Gemm or Conv whose only reader is an activation -> FusedGemm or FusedConv, which applies
//   the activation as it writes its output (a oneDNN post-op on the CPU) instead of a second
//   pass over it.
// - MatMul of a matrix whose only reader adds a row of its columns (a linear layer as
//   exporters write it for inputs of more than two axes) -> MatMulBias, which adds the bias as
//   it writes the product; an activation after it goes in too.
// - The chain exporters write for exact GELU, x * (erf(x / sqrt 2) + 1) * 0.5 as Div, Erf, Add,
//   Mul, Mul -> Gelu: one vectorised call instead of five passes, one of them erf per element.
// - LayerNormalization's chain before opset 17 -> LayerNormalization (fuse_layer_norm.cpp).
// - Attention's chain -> MultiHeadAttention (fuse_attention.cpp).
// The fused node takes the last node's name, so what reads or fetches it is unchanged. A
// plugin declares a fusion by registering the fused op's kernel; the pass fuses where the
// chain goes to a device whose plugin has it (KernelCoverage), and never takes a device from
// the placer.
#include <cmath>

#include "graph/optimize/graph_passes.hpp"
#include "graph/optimize/kernel_coverage.hpp"
#include "graph/optimize/node_match.hpp"
#include "ops/fused_activation.hpp"

namespace hxrt::detail {
namespace {

// The fused op of a node that an activation may follow: FusedGemm, FusedConv, MatMulBias
// (itself, while it has none); "" for others.
std::string fused_with_activation(const GraphNode& node) {
  if (node.op == "Gemm") return "FusedGemm";
  if (node.op == "Conv") return "FusedConv";
  if (node.op == "MatMulBias" && node.attrs.find("activation") == nullptr) return "MatMulBias";
  return "";
}

// Gelu's tanh approximation is another function than the erf one the fused ops apply.
bool exact(const GraphNode& activation) {
  const AttrValue* approximate = activation.attrs.find("approximate");
  return approximate == nullptr || *approximate == AttrValue(std::string("none"));
}

// Gemm, Conv or MatMulBias -> activation: node `i` is the activation.
bool fuse_activation(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                     std::vector<std::string>& fused) {
  const GraphNode& activation = graph.node(i);
  if (!is_fused_activation(activation.op) || activation.inputs[0].index != 0 ||
      !exact(activation)) {
    return false;
  }
  const size_t g = graph.producer(activation.inputs[0]);
  const GraphNode& gemm = graph.node(g);
  const std::string fused_op = fused_with_activation(gemm);
  if (fused_op.empty() || !absorbable(graph, g, i) ||
      !coverage.fusable({gemm.op, activation.op}, fused_op, gemm.output_dtypes[0],
                        gemm.requested_device)) {
    return false;
  }
  Attrs attrs = gemm.attrs;
  attrs.set("activation", activation.op);
  if (activation.op == "LeakyRelu") {
    const AttrValue* alpha = activation.attrs.find("alpha");
    attrs.set("activation_alpha", alpha ? *alpha : AttrValue(kLeakyReluDefaultAlpha));
  }
  fused.push_back(gemm.name + " + " + activation.name);
  std::vector<NodeOutput> inputs = gemm.inputs;
  graph.make_op(i, fused_op, std::move(inputs), std::move(attrs));
  graph.erase(g);
  return true;
}

// Whether `bias` is a row of `columns` that an Add with a product of shape `y` adds to each of
// its rows: [columns], or with more leading axes of extent 1, no more than y's.
bool is_row(const Shape& bias, int64_t columns, const Shape& y) {
  if (bias.rank() < 1 || bias.rank() > y.rank() || bias[bias.rank() - 1] != columns) {
    return false;
  }
  for (int axis = 0; axis + 1 < bias.rank(); ++axis) {
    if (bias[axis] != 1) return false;
  }
  return true;
}

// MatMul(A, B) -> Add(., bias), B a matrix and the bias a row of its columns: node `i` is the
// Add.
bool fuse_matmul_bias(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                      std::vector<std::string>& fused) {
  const GraphNode& add = graph.node(i);
  if (add.op != "Add" || add.inputs.size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    const size_t m = graph.producer(add.inputs[side]);
    if (!is_op(graph, m, "MatMul") || add.inputs[side].index != 0) continue;
    const GraphNode& matmul = graph.node(m);
    const Shape& a = shape_of(graph, matmul.inputs[0]);
    const Shape& b = shape_of(graph, matmul.inputs[1]);
    const Shape& y = matmul.output_shapes[0];
    const NodeOutput bias = add.inputs[1 - side];
    const DType t = matmul.output_dtypes[0];
    if (!matmul.attrs.items().empty() || a.rank() < 2 || b.rank() != 2 ||
        add.output_shapes[0] != y || !is_floating(t) || add.output_dtypes[0] != t ||
        !is_row(shape_of(graph, bias), b[1], y) || !absorbable(graph, m, i) ||
        !coverage.fusable({"MatMul", "Add"}, "MatMulBias", t, matmul.requested_device)) {
      continue;
    }
    fused.push_back(matmul.name + " + " + add.name);
    std::vector<NodeOutput> inputs = {matmul.inputs[0], matmul.inputs[1], bias};
    graph.make_op(i, "MatMulBias", std::move(inputs), Attrs());
    graph.erase(m);
    return true;
  }
  return false;
}

// Div(x, sqrt 2) -> Erf -> Add(., 1) -> Mul(x, .) -> Mul(., 0.5): node `e` is the Erf.
bool fuse_gelu(GraphRewrite& graph, KernelCoverage& coverage, size_t e,
               std::vector<std::string>& fused) {
  if (!is_op(graph, e, "Erf")) return false;
  const size_t d = graph.producer(graph.node(e).inputs[0]);
  const size_t a = graph.sole_reader(e);
  const size_t m = is_op(graph, a, "Add") ? graph.sole_reader(a) : GraphRewrite::kNone;
  const size_t y = is_op(graph, m, "Mul") ? graph.sole_reader(m) : GraphRewrite::kNone;
  if (!is_op(graph, d, "Div") || !is_op(graph, y, "Mul")) return false;
  const NodeOutput* x = &graph.node(d).inputs[0];
  if (!is_scalar(graph, graph.node(d).inputs[1], std::sqrt(2.0)) ||
      other_than_scalar(graph, a, 1.0) == nullptr ||
      other_than_scalar(graph, y, 0.5) == nullptr) {
    return false;
  }
  // Mul(x, Add): its other input is the Div's x.
  const GraphNode& product = graph.node(m);
  const int add_side = graph.producer(product.inputs[0]) == a ? 0 : 1;
  if (!same_output(product.inputs[1 - add_side], *x)) return false;
  const DType t = graph.node(y).output_dtypes[0];
  if (!absorbable(graph, d, e) || !absorbable(graph, e, a) || !absorbable(graph, a, m) ||
      !absorbable(graph, m, y) || graph.node(y).shapes_at_run ||
      !coverage.fusable({"Div", "Erf", "Add", "Mul"}, "Gelu", t,
                        graph.node(d).requested_device)) {
    return false;
  }
  const NodeOutput input = *x;
  fused.push_back(graph.node(d).name + " ... " + graph.node(y).name + " (Gelu)");
  graph.make_op(y, "Gelu", {input}, Attrs());
  for (size_t gone : {m, a, e, d}) graph.erase(gone);
  return true;
}

}  // namespace

std::vector<std::string> fuse_kernels(GraphContext& context, GraphRewrite& graph,
                                      bool dynamic) {
  std::vector<std::string> fused;
  KernelCoverage coverage(context, dynamic);
  for (size_t i = 0; i < graph.size(); ++i) {
    const GraphNode& node = graph.node(i);
    if (graph.erased(i) || node.kind != GraphNode::Kind::kOp || node.shapes_at_run) continue;
    if (!fuse_activation(graph, coverage, i, fused) && !fuse_gelu(graph, coverage, i, fused) &&
        !fuse_layer_norm(graph, coverage, i, fused) &&
        !fuse_attention(graph, coverage, i, fused)) {
      fuse_matmul_bias(graph, coverage, i, fused);
    }
  }
  return fused;
}

}  // namespace hxrt::detail
