// MultiHeadAttention: scaled dot-product attention over heads, as one kernel,
//   Y[b, s, h, :] = sum_l softmax_l(scale * Q[b, s, h, :] . K[b, l, h, :] + mask[b, h, s, l])
//                   * V[b, l, h, :],
// with Q, K and V in the layout the projections write them, [batch, sequence, heads x head
// size], and Y in that layout too. What the fusion pass makes of the chain exporters write for
// it (the heads split by Reshape and Transpose, MatMul, a scale, an additive mask, Softmax,
// MatMul, the heads joined back), on devices whose plugins register it: one kernel that reads
// the projections where they lie, instead of a dozen nodes and four transposed copies.
#include <cmath>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

std::string extent_text(int64_t extent) { return std::to_string(extent); }

void infer_attention(const InferContext& call, TensorMeta* outputs) {
  require_inputs_in(call, floating_dtypes());
  require_same_dtype(call);
  const Shape& q = call.inputs[0].shape;
  const Shape& k = call.inputs[1].shape;
  const Shape& v = call.inputs[2].shape;
  const char* names[] = {"Q", "K", "V"};
  for (int i = 0; i < 3; ++i) {
    if (call.inputs[i].shape.rank() != 3) {
      reject_call(call, std::string(names[i]) + " has shape " +
                            call.inputs[i].shape.to_string() +
                            "; it is [batch, sequence, heads x head size], of rank 3");
    }
  }
  required_attr(call, "num_heads", "an int");
  const int64_t heads = attr_int(call, "num_heads", 0);
  if (heads < 1) {
    reject_call(call, "attribute 'num_heads' is " + std::to_string(heads) +
                          "; it is the number of heads, 1 or more");
  }
  if (k[0] != q[0] || v[0] != q[0]) {
    reject_call(call, "Q, K and V have batches " + extent_text(q[0]) + ", " +
                          extent_text(k[0]) + " and " + extent_text(v[0]) + "; they are one");
  }
  if (v[1] != k[1]) {
    reject_call(call, "K and V have sequences of " + extent_text(k[1]) + " and " +
                          extent_text(v[1]) + "; each key has its value");
  }
  if (k[2] != q[2]) {
    reject_call(call, "Q and K have rows of " + extent_text(q[2]) + " and " +
                          extent_text(k[2]) + "; a query and a key are of one size");
  }
  if (q[2] % heads != 0 || v[2] % heads != 0) {
    reject_call(call, "rows of Q of " + extent_text(q[2]) + " and of V of " +
                          extent_text(v[2]) + " do not split into " + std::to_string(heads) +
                          " heads");
  }
  if (call.num_inputs > 3) {
    const Shape& mask = call.inputs[3].shape;
    const Shape scores{q[0], heads, q[1], k[1]};
    bool broadcasts = mask.rank() <= 4;
    for (int axis = 0; broadcasts && axis < mask.rank(); ++axis) {
      const int64_t extent = mask[axis];
      broadcasts = extent == 1 || extent == scores[4 - mask.rank() + axis];
    }
    if (!broadcasts) {
      reject_call(call, "the mask has shape " + mask.to_string() + "; it broadcasts to the "
                        "scores' [batch, heads, queries, keys], " + scores.to_string());
    }
  }
  const double scale = attr_float(call, "scale", 1.0);
  if (!std::isfinite(scale)) {
    reject_call(call, "attribute 'scale' is " + std::to_string(scale) + "; it is finite");
  }
  outputs[0].dtype = call.inputs[0].dtype;
  outputs[0].shape = Shape{q[0], q[1], v[2]};
}

}  // namespace

void add_attention_op(OpRegistry& registry) {
  OpSchema schema{"MultiHeadAttention", 3, 4, 1, infer_attention, ""};
  schema.summary =
      "Scaled dot-product attention over heads in one kernel: per head, softmax(scale x Q "
      "K^T + mask) V, reading Q, K and V as the projections lay them out and writing Y so. "
      "What the fusion pass makes of the attention chain exporters write (Reshape and "
      "Transpose into heads, MatMul, Div or Mul by a constant, an optional Add of a mask, "
      "Softmax over the keys, MatMul, Transpose and Reshape back), on devices whose plugins "
      "register MultiHeadAttention.";
  schema.inputs = {
      {"Q", "T", floating_dtypes(), "[batch, queries, heads x head size]", false},
      {"K", "T", floating_dtypes(), "[batch, keys, heads x head size]", false},
      {"V", "T", floating_dtypes(), "[batch, keys, heads x value size]", false},
      {"mask", "T", floating_dtypes(),
       "added to the scores before the softmax; broadcasts to [batch, heads, queries, keys] "
       "as NumPy's rules do (-inf or a large negative value masks a key out); optional",
       false},
  };
  schema.outputs = {{"Y", "T", floating_dtypes(), "[batch, queries, heads x value size]",
                     false}};
  schema.attrs = {
      {"num_heads", AttrType::kInt, true, std::nullopt,
       "the heads: each takes a contiguous 1 / num_heads of a row of Q, K and V"},
      {"scale", AttrType::kFloat, false, AttrValue(1.0),
       "the factor of the dot products (1 / sqrt(head size) in the usual attention)"},
  };
  schema.shape_rule =
      "Q, K and V have rank 3 and one batch; K and V one sequence of keys; Q's and K's rows "
      "are of one size, which like V's splits into num_heads heads; the mask broadcasts to "
      "[batch, heads, queries, keys]. Y is [batch, queries, V's row size]. Any extent may be "
      "0; with no keys, Y is 0. Dot products and the softmax accumulate in f32 (f64 for f64).";
  schema.reference_cases = attention_cases;
  registry.add(std::move(schema));
}

}  // namespace hxrt::detail
