// The chain exporters write for LayerNormalization before opset 17 (torch's, and the
// function body ONNX gives the op):
//   mean = ReduceMean(x), d = Sub(x, mean), variance = ReduceMean(Pow(d, 2)),
//   y = Add(Mul(Div(d, Sqrt(Add(variance, epsilon))), scale), bias)
// over x's last axes, as one LayerNormalization node named as the last Add: one kernel that
// reads each row twice, instead of nine over the whole tensor and six tensors between them.
#include <algorithm>
#include <optional>
#include <variant>

#include "graph/optimize/graph_passes.hpp"
#include "graph/optimize/kernel_coverage.hpp"
#include "graph/optimize/node_match.hpp"

namespace hxrt::detail {
namespace {

// The first of the axes a ReduceMean (keepdims 1) takes, where they are x's last ones, and so
// LayerNormalization's axis; nullopt otherwise.
std::optional<int64_t> trailing_axes(const GraphNode& mean, int rank) {
  const AttrValue* keep = mean.attrs.find("keepdims");
  const AttrValue* axes = mean.attrs.find("axes");
  if ((keep != nullptr && *keep != AttrValue(int64_t{1})) || axes == nullptr ||
      !std::holds_alternative<std::vector<int64_t>>(*axes)) {
    return std::nullopt;
  }
  std::vector<int64_t> list = std::get<std::vector<int64_t>>(*axes);
  for (int64_t& axis : list) axis = axis < 0 ? axis + rank : axis;
  std::sort(list.begin(), list.end());
  if (list.empty() || list.back() != rank - 1) return std::nullopt;
  for (size_t i = 1; i < list.size(); ++i) {
    if (list[i] != list[i - 1] + 1) return std::nullopt;
  }
  return list.front();
}

// Of binary node `index`, the producer of one input that is an `op` node's output 0, and the
// other input; nullopt where neither is.
std::optional<std::pair<size_t, NodeOutput>> split_by(const GraphRewrite& graph, size_t index,
                                                      const char* op) {
  const GraphNode& node = graph.node(index);
  if (node.inputs.size() != 2) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const size_t producer = graph.producer(node.inputs[side]);
    if (is_op(graph, producer, op) && node.inputs[side].index == 0) {
      return std::make_pair(producer, node.inputs[1 - side]);
    }
  }
  return std::nullopt;
}

// Whether `operand` (LayerNormalization's Scale or B) broadcasts to x's axes from `axis` on:
// no more axes than those, each extent 1 or x's.
bool fits_normalized(const Shape& operand, const Shape& x, int64_t axis) {
  if (operand.rank() > x.rank() - axis) return false;
  for (int a = 0; a < operand.rank(); ++a) {
    const int64_t extent = operand[a];
    if (extent != 1 && extent != x[x.rank() - operand.rank() + a]) return false;
  }
  return true;
}

}  // namespace

bool fuse_layer_norm(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                     std::vector<std::string>& fused) {
  if (!is_op(graph, i, "Add")) return false;
  const auto shifted = split_by(graph, i, "Mul");  // Add(Mul(...), bias)
  if (!shifted) return false;
  const size_t g = shifted->first;
  const auto scaled = split_by(graph, g, "Div");  // Mul(Div(...), scale)
  if (!scaled) return false;
  const size_t n = scaled->first;
  const GraphNode& divide = graph.node(n);
  const size_t d = graph.producer(divide.inputs[0]);
  const size_t s = graph.producer(divide.inputs[1]);
  if (!is_op(graph, d, "Sub") || !is_op(graph, s, "Sqrt") || divide.inputs[0].index != 0) {
    return false;
  }
  const size_t e = graph.producer(graph.node(s).inputs[0]);  // Add(variance, epsilon)
  if (!is_op(graph, e, "Add") || graph.node(e).inputs.size() != 2) return false;
  std::optional<double> epsilon;
  size_t v = GraphRewrite::kNone;
  for (int side = 0; side < 2 && !epsilon; ++side) {
    epsilon = scalar_value(graph, graph.node(e).inputs[side]);
    if (epsilon) v = graph.producer(graph.node(e).inputs[1 - side]);
  }
  if (!epsilon || !is_op(graph, v, "ReduceMean")) return false;
  const size_t p = graph.producer(graph.node(v).inputs[0]);
  const GraphNode& centred = graph.node(d);
  const size_t m = graph.producer(centred.inputs[1]);
  if (!is_op(graph, p, "Pow") || !is_scalar(graph, graph.node(p).inputs[1], 2.0) ||
      !same_output(graph.node(p).inputs[0], divide.inputs[0]) ||
      !is_op(graph, m, "ReduceMean") || !same_output(graph.node(m).inputs[0], centred.inputs[0])) {
    return false;
  }
  const NodeOutput x = centred.inputs[0];
  const Shape& x_shape = shape_of(graph, x);
  const std::optional<int64_t> axis = trailing_axes(graph.node(m), x_shape.rank());
  const DType t = graph.node(i).output_dtypes[0];
  std::vector<size_t> readers = graph.readers(d);
  std::sort(readers.begin(), readers.end());
  const std::vector<size_t> pow_and_div = {std::min(p, n), std::max(p, n)};
  if (!axis || trailing_axes(graph.node(v), x_shape.rank()) != axis ||
      graph.node(i).output_shapes[0] != x_shape || !is_floating(t) ||
      dtype_of(graph, x) != t ||
      !fits_normalized(shape_of(graph, scaled->second), x_shape, *axis) ||
      !fits_normalized(shape_of(graph, shifted->second), x_shape, *axis) ||
      readers != pow_and_div || graph.reads_of(d, 0) != 2 || graph.kept(d) ||
      centred.shapes_at_run || centred.requested_device != graph.node(i).requested_device ||
      !absorbable(graph, m, d) || !absorbable(graph, p, v) || !absorbable(graph, v, e) ||
      !absorbable(graph, e, s) || !absorbable(graph, s, n) || !absorbable(graph, n, g) ||
      !absorbable(graph, g, i) ||
      !coverage.fusable({"ReduceMean", "Sub", "Pow", "Add", "Sqrt", "Div", "Mul"},
                        "LayerNormalization", t, graph.node(i).requested_device)) {
    return false;
  }
  fused.push_back(graph.node(m).name + " ... " + graph.node(i).name + " (LayerNormalization)");
  Attrs attrs;
  attrs.set("axis", *axis);
  attrs.set("epsilon", *epsilon);
  // The statistics, which nothing reads: float32 (stash_type 1), x's shape with the normalized
  // axes 1.
  Shape statistics = x_shape;
  for (int a = static_cast<int>(*axis); a < x_shape.rank(); ++a) statistics.set_dim(a, 1);
  graph.make_op(i, "LayerNormalization", {x, scaled->second, shifted->second},
                std::move(attrs));
  graph.set_outputs(i, {t, DType::kF32, DType::kF32}, {x_shape, statistics, statistics});
  for (size_t gone : {g, n, s, e, v, p, d, m}) graph.erase(gone);
  return true;
}

}  // namespace hxrt::detail
