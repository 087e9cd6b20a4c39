// Reference cases of MultiHeadAttention: every head's scores, softmax and weighted sum in
// double, for one and several heads, keys and queries of different counts, masks of each
// broadcast form (one masking keys out with -8192, exact in every float dtype), and empty
// extents.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct AttentionCall {
  int64_t batch, queries, keys, heads, head_size, value_size;
  std::optional<Shape> mask;
  double scale;
};

ReferenceTensor attention_reference(const ReferenceCase& attention, const AttentionCall& call) {
  const int64_t q_row = call.heads * call.head_size;
  const int64_t v_row = call.heads * call.value_size;
  ReferenceTensor y = empty_reference(attention.inputs[0].dtype,
                                      Shape{call.batch, call.queries, v_row});
  y.values.assign(static_cast<size_t>(call.batch * call.queries * v_row), 0.0);
  const std::vector<double>& q = attention.inputs[0].values;
  const std::vector<double>& k = attention.inputs[1].values;
  const std::vector<double>& v = attention.inputs[2].values;
  const Shape scores_shape{call.batch, call.heads, call.queries, call.keys};
  const Strides mask_strides =
      call.mask ? broadcast_strides(*call.mask, scores_shape) : Strides{};
  std::vector<double> weights(static_cast<size_t>(call.keys));
  int64_t score_index = 0;
  for (int64_t b = 0; b < call.batch; ++b) {
    for (int64_t h = 0; h < call.heads; ++h) {
      for (int64_t s = 0; s < call.queries; ++s) {
        double most = -INFINITY;
        for (int64_t l = 0; l < call.keys; ++l, ++score_index) {
          double dot = 0;
          for (int64_t d = 0; d < call.head_size; ++d) {
            dot += q[static_cast<size_t>((b * call.queries + s) * q_row + h * call.head_size +
                                         d)] *
                   k[static_cast<size_t>((b * call.keys + l) * q_row + h * call.head_size + d)];
          }
          double score = call.scale * dot;
          if (call.mask) {
            score += attention.inputs[3].values[static_cast<size_t>(
                strided_offset(score_index, scores_shape, mask_strides))];
          }
          weights[static_cast<size_t>(l)] = score;
          most = std::max(most, score);
        }
        double total = 0;
        for (double& weight : weights) total += weight = std::exp(weight - most);
        for (int64_t e = 0; call.keys > 0 && e < call.value_size; ++e) {
          double sum = 0;
          for (int64_t l = 0; l < call.keys; ++l) {
            sum += weights[static_cast<size_t>(l)] *
                   v[static_cast<size_t>((b * call.keys + l) * v_row + h * call.value_size + e)];
          }
          y.values[static_cast<size_t>((b * call.queries + s) * v_row + h * call.value_size +
                                       e)] = sum / total;
        }
      }
    }
  }
  return y;
}

}  // namespace

std::vector<ReferenceCase> attention_cases(DType type, DType, RandomValues& random) {
  const std::vector<AttentionCall> calls = {
      {1, 3, 4, 1, 2, 2, std::nullopt, 1.0},
      {2, 5, 7, 2, 3, 4, std::nullopt, 0.5},
      {2, 4, 6, 4, 8, 8, Shape{2, 1, 1, 6}, 0.35},
      {1, 2, 3, 2, 2, 2, Shape{3}, 1.0},
      {2, 3, 3, 1, 4, 4, Shape{2, 1, 3, 3}, 0.5},
      {1, 2, 5, 2, 3, 1, Shape{1, 2, 2, 5}, 0.75},
      // Large enough for a kernel's library path (oneDNN's on the CPU).
      {2, 16, 24, 4, 16, 8, Shape{1, 1, 16, 24}, 0.25},
      {0, 3, 4, 2, 2, 2, std::nullopt, 1.0},
      {2, 0, 4, 2, 2, 2, std::nullopt, 1.0},
      {2, 3, 0, 2, 2, 2, std::nullopt, 1.0},
      {2, 3, 4, 2, 0, 2, Shape{4}, 1.0},
  };
  std::vector<ReferenceCase> cases;
  for (const AttentionCall& call : calls) {
    ReferenceCase attention;
    const int64_t q_row = call.heads * call.head_size;
    attention.inputs = {
        random.tensor(type, Shape{call.batch, call.queries, q_row}),
        random.tensor(type, Shape{call.batch, call.keys, q_row}),
        random.tensor(type, Shape{call.batch, call.keys, call.heads * call.value_size})};
    if (call.mask) {
      ReferenceTensor mask = random.tensor(type, *call.mask);
      // A key masked out in every row the mask has (the first of the last axis).
      const int64_t last = (*call.mask)[call.mask->rank() - 1];
      for (size_t i = 0; last > 1 && i < mask.values.size(); i += static_cast<size_t>(last)) {
        mask.values[i] = -8192.0;
      }
      attention.inputs.push_back(std::move(mask));
    }
    attention.attrs.set("num_heads", call.heads);
    attention.attrs.set("scale", call.scale);
    attention.expected = attention_reference(attention, call);
    attention.tolerance = reduction_tolerance(type, call.head_size + call.keys + 2);
    cases.push_back(std::move(attention));
  }
  return cases;
}

}  // namespace hxrt::detail
