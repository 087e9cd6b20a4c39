// The attention chain exporters write (torch's for nn.MultiheadAttention and BERT-style
// layers), over projections Q, K and V of [batch, sequence, heads x head size]:
//   q = Transpose(Reshape(Q, [b, s, h, d]), perm 0 2 1 3)
//   k = Transpose(Reshape(K, [b, l, h, d]), perm 0 2 3 1)     (already transposed)
//   v = Transpose(Reshape(V, [b, l, h, e]), perm 0 2 1 3)
//   scores = MatMul(q, k), then Div or Mul by a constant, then an optional Add of a mask
//   y = Reshape(Transpose(MatMul(Softmax(scores, last axis), v), perm 0 2 1 3), [b, s, h e])
// as one MultiHeadAttention node named as the last Reshape: a kernel that reads Q, K and V
// where the projections wrote them and writes y in place, where the chain runs fourteen
// nodes and copies four tensors to transpose them.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "graph/optimize/graph_passes.hpp"
#include "graph/optimize/kernel_coverage.hpp"
#include "graph/optimize/node_match.hpp"

namespace hxrt::detail {
namespace {

bool has_perm(const GraphNode& transpose, const std::vector<int64_t>& perm) {
  const AttrValue* given = transpose.attrs.find("perm");
  return given != nullptr && std::holds_alternative<std::vector<int64_t>>(*given) &&
         std::get<std::vector<int64_t>>(*given) == perm;
}

// A MatMul without transposes (the importer's, not one given transpose_a or transpose_b).
bool plain_matmul(const GraphRewrite& graph, size_t index) {
  if (!is_op(graph, index, "MatMul")) return false;
  for (const char* flag : {"transpose_a", "transpose_b"}) {
    const AttrValue* value = graph.node(index).attrs.find(flag);
    if (value != nullptr && *value != AttrValue(false)) return false;
  }
  return true;
}

// One of q, k and v: heads split from a projection of rank 3 by a Reshape to
// [batch, sequence, heads, size] and a Transpose.
struct Heads {
  NodeOutput projection;
  int64_t batch, sequence, heads, size;
  size_t reshape, transpose;
};

// `output`, read by node `reader` alone, as heads transposed by `perm`; nullopt otherwise.
std::optional<Heads> heads_of(const GraphRewrite& graph, const NodeOutput& output,
                              size_t reader, const std::vector<int64_t>& perm) {
  const size_t t = graph.producer(output);
  if (!is_op(graph, t, "Transpose") || output.index != 0 || !has_perm(graph.node(t), perm)) {
    return std::nullopt;
  }
  const size_t r = graph.producer(graph.node(t).inputs[0]);
  if (!is_op(graph, r, "Reshape") || graph.node(t).inputs[0].index != 0 ||
      !absorbable(graph, t, reader) || !absorbable(graph, r, t)) {
    return std::nullopt;
  }
  const NodeOutput projection = graph.node(r).inputs[0];
  const Shape& rows = shape_of(graph, projection);
  const Shape& split = graph.node(r).output_shapes[0];
  if (rows.rank() != 3 || split.rank() != 4 || split[0] != rows[0] || split[1] != rows[1] ||
      split[2] * split[3] != rows[2]) {
    return std::nullopt;
  }
  return Heads{projection, split[0], split[1], split[2], split[3], r, t};
}

// The scores before the softmax: MatMul(q, k), scaled, maybe masked.
struct Scores {
  size_t matmul = GraphRewrite::kNone;
  size_t scaling = GraphRewrite::kNone;
  size_t masking = GraphRewrite::kNone;
  double scale = 1;
  std::optional<NodeOutput> mask;
};

// The factor of node `index` where it is Div(x, c) or Mul(x, c) of a scalar constant c, with
// x in *scaled; nullopt otherwise.
std::optional<double> scaling_of(const GraphRewrite& graph, size_t index, NodeOutput* scaled) {
  const GraphNode& node = graph.node(index);
  if (is_op(graph, index, "Div")) {
    const std::optional<double> divisor = scalar_value(graph, node.inputs[1]);
    if (!divisor || *divisor == 0) return std::nullopt;
    *scaled = node.inputs[0];
    return 1 / *divisor;
  }
  if (!is_op(graph, index, "Mul")) return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    if (const std::optional<double> factor = scalar_value(graph, node.inputs[side])) {
      *scaled = node.inputs[1 - side];
      return factor;
    }
  }
  return std::nullopt;
}

// The chain into the Softmax node `softmax`: [Add(., mask)] of [Div or Mul by c] of MatMul.
std::optional<Scores> scores_of(const GraphRewrite& graph, size_t softmax) {
  Scores scores;
  size_t at = graph.producer(graph.node(softmax).inputs[0]);
  size_t reader = softmax;
  if (is_op(graph, at, "Add") && absorbable(graph, at, reader)) {
    const GraphNode& add = graph.node(at);
    for (int side = 0; side < 2 && !scores.mask; ++side) {
      const size_t below = graph.producer(add.inputs[side]);
      if (is_op(graph, below, "MatMul") || is_op(graph, below, "Div") ||
          is_op(graph, below, "Mul")) {
        scores.mask = add.inputs[1 - side];
        scores.masking = at;
        reader = at;
        at = below;
      }
    }
    if (!scores.mask) return std::nullopt;
  }
  NodeOutput scaled;
  if (const std::optional<double> scale = scaling_of(graph, at, &scaled)) {
    if (!absorbable(graph, at, reader)) return std::nullopt;
    scores.scale = *scale;
    scores.scaling = at;
    reader = at;
    at = graph.producer(scaled);
  }
  if (!plain_matmul(graph, at) || !absorbable(graph, at, reader)) return std::nullopt;
  scores.matmul = at;
  return scores;
}

// Whether `mask` broadcasts to `scores` without enlarging it.
bool broadcasts_to(const Shape& mask, const Shape& scores) {
  if (mask.rank() > scores.rank()) return false;
  for (int axis = 0; axis < mask.rank(); ++axis) {
    const int64_t extent = mask[axis];
    if (extent != 1 && extent != scores[scores.rank() - mask.rank() + axis]) return false;
  }
  return true;
}

bool last_axis(const GraphNode& softmax, int rank) {
  const AttrValue* axis = softmax.attrs.find("axis");
  return axis == nullptr || *axis == AttrValue(int64_t{-1}) ||
         *axis == AttrValue(int64_t{rank - 1});
}

}  // namespace

bool fuse_attention(GraphRewrite& graph, KernelCoverage& coverage, size_t i,
                    std::vector<std::string>& fused) {
  if (!is_op(graph, i, "Reshape") || graph.node(i).output_shapes[0].rank() != 3) return false;
  const size_t joined = graph.producer(graph.node(i).inputs[0]);
  if (!is_op(graph, joined, "Transpose") || !has_perm(graph.node(joined), {0, 2, 1, 3}) ||
      !absorbable(graph, joined, i)) {
    return false;
  }
  const size_t mixed = graph.producer(graph.node(joined).inputs[0]);
  if (!plain_matmul(graph, mixed) || !absorbable(graph, mixed, joined)) return false;
  const size_t softmax = graph.producer(graph.node(mixed).inputs[0]);
  if (!is_op(graph, softmax, "Softmax") || !absorbable(graph, softmax, mixed) ||
      !last_axis(graph.node(softmax), 4)) {
    return false;
  }
  const std::optional<Scores> scores = scores_of(graph, softmax);
  if (!scores) return false;
  const GraphNode& product = graph.node(scores->matmul);
  const std::optional<Heads> q = heads_of(graph, product.inputs[0], scores->matmul, {0, 2, 1, 3});
  const std::optional<Heads> k = heads_of(graph, product.inputs[1], scores->matmul, {0, 2, 3, 1});
  const std::optional<Heads> v =
      heads_of(graph, graph.node(mixed).inputs[1], mixed, {0, 2, 1, 3});
  if (!q || !k || !v || k->batch != q->batch || v->batch != q->batch ||
      k->heads != q->heads || v->heads != q->heads || k->size != q->size ||
      v->sequence != k->sequence) {
    return false;
  }
  const Shape y{q->batch, q->sequence, q->heads * v->size};
  const Shape scores_shape{q->batch, q->heads, q->sequence, k->sequence};
  const DType t = graph.node(i).output_dtypes[0];
  if (graph.node(i).output_shapes[0] != y || !is_floating(t) ||
      dtype_of(graph, q->projection) != t || dtype_of(graph, k->projection) != t ||
      dtype_of(graph, v->projection) != t ||
      (scores->mask && (dtype_of(graph, *scores->mask) != t ||
                        !broadcasts_to(shape_of(graph, *scores->mask), scores_shape) ||
                        graph.node(scores->masking).output_shapes[0] != scores_shape))) {
    return false;
  }
  std::vector<std::string> parts = {"Reshape", "Transpose", "MatMul", "Softmax"};
  if (scores->scaling != GraphRewrite::kNone) parts.push_back(graph.node(scores->scaling).op);
  if (scores->mask) parts.push_back("Add");
  if (!coverage.fusable(parts, "MultiHeadAttention", t, graph.node(i).requested_device)) {
    return false;
  }
  fused.push_back(product.name + " ... " + graph.node(i).name + " (MultiHeadAttention)");
  std::vector<NodeOutput> inputs = {q->projection, k->projection, v->projection};
  if (scores->mask) inputs.push_back(*scores->mask);
  Attrs attrs;
  attrs.set("num_heads", q->heads);
  attrs.set("scale", scores->scale);
  graph.make_op(i, "MultiHeadAttention", std::move(inputs), std::move(attrs));
  for (size_t gone : {joined, mixed, softmax, scores->masking, scores->scaling, scores->matmul,
                      q->transpose, q->reshape, k->transpose, k->reshape, v->transpose,
                      v->reshape}) {
    if (gone != GraphRewrite::kNone) graph.erase(gone);
  }
  return true;
}

}  // namespace hxrt::detail
