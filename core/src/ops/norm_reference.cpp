// Reference cases of the normalizations, in double: statistics with two passes (the mean, then
// the mean squared deviation), then (x - mean) / sqrt(var + epsilon) * scale + B.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

constexpr double kDefaultEpsilon = 1e-5;

double epsilon_of(const Attrs& attrs) {
  const AttrValue* epsilon = attrs.find("epsilon");
  return epsilon == nullptr ? kDefaultEpsilon : std::get<double>(*epsilon);
}

// The statistics of each normalized run, where an op returns them (LayerNormalization).
struct RowStatistics {
  ReferenceTensor* means = nullptr;
  ReferenceTensor* inverses = nullptr;  // 1 / sqrt(variance + epsilon)
};

// Normalizes `rows` runs of `length` elements of x into y; scale_at(row, i) and bias_at(row, i)
// give each element's affine factors.
template <class Scale, class Bias>
void normalize_rows(const ReferenceTensor& x, int64_t rows, int64_t length, double epsilon,
                    Scale&& scale_at, Bias&& bias_at, ReferenceTensor& y,
                    RowStatistics statistics = {}) {
  for (int64_t row = 0; row < rows; ++row) {
    const double* values = x.values.data() + row * length;
    double mean = 0;
    for (int64_t i = 0; i < length; ++i) mean += values[i];
    mean /= static_cast<double>(length);
    double variance = 0;
    for (int64_t i = 0; i < length; ++i) variance += (values[i] - mean) * (values[i] - mean);
    variance /= static_cast<double>(length);
    const double inverse = 1 / std::sqrt(variance + epsilon);
    if (statistics.means != nullptr) statistics.means->values.push_back(mean);
    if (statistics.inverses != nullptr) statistics.inverses->values.push_back(inverse);
    for (int64_t i = 0; i < length; ++i) {
      y.values.push_back((values[i] - mean) * inverse * scale_at(row, i) + bias_at(row, i));
    }
  }
}

// Elements per channel of x [N, C, ...].
int64_t per_channel(const Shape& x) {
  int64_t count = 1;
  for (int axis = 2; axis < x.rank(); ++axis) count *= x[axis];
  return count;
}

}  // namespace

std::vector<ReferenceCase> batch_norm_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<Shape, std::optional<double>>> calls = {
      {{2, 3}, {}},          {{2, 3, 4, 5}, {}},  {{1, 4, 3}, 1e-3},  {{2, 2, 3, 2, 2}, {}},
      {{0, 3, 2, 2}, {}},    {{1, 1, 1, 1}, 0.5}, {{3, 5, 7, 6}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, epsilon] : calls) {
    const Shape channels{shape[1]};
    ReferenceCase batch;
    batch.inputs = {random.tensor(type, shape), random.tensor(type, channels),
                    random.tensor(type, channels), random.tensor(type, channels),
                    random.tensor(type, channels, ValueRange::kPositive)};
    if (epsilon) batch.attrs.set("epsilon", *epsilon);
    const double eps = epsilon_of(batch.attrs);
    ReferenceTensor y = empty_reference(type, shape);
    const int64_t length = per_channel(shape);
    const std::vector<double>& scale = batch.inputs[1].values;
    const std::vector<double>& bias = batch.inputs[2].values;
    const std::vector<double>& mean = batch.inputs[3].values;
    const std::vector<double>& variance = batch.inputs[4].values;
    for (int64_t i = 0; i < shape.num_elements(); ++i) {
      const size_t c = static_cast<size_t>(i / length % shape[1]);
      y.values.push_back((batch.inputs[0].values[static_cast<size_t>(i)] - mean[c]) /
                             std::sqrt(variance[c] + eps) * scale[c] +
                         bias[c]);
    }
    batch.expected = std::move(y);
    batch.more_expected = {batch.inputs[3], batch.inputs[4]};  // inference: as given
    batch.tolerance = reduction_tolerance(type, 4);
    cases.push_back(std::move(batch));
  }
  // Training mode: the batch's mean and population variance per channel, and the running
  // statistics momentum * given + (1 - momentum) * batch's.
  const std::vector<std::pair<Shape, std::optional<double>>> training = {
      {{2, 3}, {}}, {{2, 3, 4, 5}, 0.5}, {{1, 4, 3}, {}}, {{3, 2, 2, 1, 3}, 0.0}};
  for (const auto& [x_shape, momentum] : training) {
    const Shape shape = x_shape;  // a name the lambda below can capture (a binding cannot be)
    const Shape channels{shape[1]};
    ReferenceCase batch;
    batch.inputs = {random.tensor(type, shape), random.tensor(type, channels),
                    random.tensor(type, channels), random.tensor(type, channels),
                    random.tensor(type, channels, ValueRange::kPositive)};
    batch.attrs.set("training_mode", int64_t{1});
    if (momentum) batch.attrs.set("momentum", *momentum);
    const double weight = momentum.value_or(0.9);
    const double eps = epsilon_of(batch.attrs);
    const int64_t length = per_channel(shape);
    const auto c_of = [&](int64_t i) { return static_cast<size_t>(i / length % shape[1]); };
    const std::vector<double>& x = batch.inputs[0].values;
    std::vector<double> mean(static_cast<size_t>(shape[1]), 0.0);
    std::vector<double> variance(mean.size(), 0.0);
    const double count = static_cast<double>(shape.num_elements() / shape[1]);
    for (int64_t i = 0; i < shape.num_elements(); ++i) mean[c_of(i)] += x[static_cast<size_t>(i)];
    for (double& m : mean) m /= count;
    for (int64_t i = 0; i < shape.num_elements(); ++i) {
      const double d = x[static_cast<size_t>(i)] - mean[c_of(i)];
      variance[c_of(i)] += d * d / count;
    }
    ReferenceTensor y = empty_reference(type, shape);
    for (int64_t i = 0; i < shape.num_elements(); ++i) {
      const size_t c = c_of(i);
      y.values.push_back((x[static_cast<size_t>(i)] - mean[c]) / std::sqrt(variance[c] + eps) *
                             batch.inputs[1].values[c] +
                         batch.inputs[2].values[c]);
    }
    ReferenceTensor running_mean = empty_reference(type, channels);
    ReferenceTensor running_var = empty_reference(type, channels);
    for (size_t c = 0; c < mean.size(); ++c) {
      running_mean.values.push_back(batch.inputs[3].values[c] * weight + mean[c] * (1 - weight));
      running_var.values.push_back(batch.inputs[4].values[c] * weight + variance[c] * (1 - weight));
    }
    batch.expected = std::move(y);
    batch.more_expected = {std::move(running_mean), std::move(running_var)};
    batch.tolerance = reduction_tolerance(type, 2 * static_cast<int64_t>(count));
    cases.push_back(std::move(batch));
  }
  return cases;
}

std::vector<ReferenceCase> layer_norm_cases(DType type, DType, RandomValues& random) {
  struct LayerCall {
    Shape x, scale;
    std::optional<Shape> bias;
    std::optional<int64_t> axis;
    std::optional<double> epsilon;
    std::optional<int64_t> stash_type;  // ONNX's element type of the statistics
  };
  const std::vector<LayerCall> calls = {
      {{2, 8}, {8}, Shape{8}, {}, {}, {}},
      {{3, 4, 5}, {5}, {}, {}, {}, {}},
      {{3, 4, 5}, {4, 5}, Shape{4, 5}, 1, {}, {}},
      {{3, 4, 5}, {1, 5}, Shape{4, 1}, -2, 1e-3, {}},
      {{2, 3, 4}, {2, 3, 4}, Shape{2, 3, 4}, 0, {}, {}},
      {{4, 1}, {1}, Shape{1}, {}, {}, {}},
      {{0, 6}, {6}, Shape{6}, {}, {}, {}},
      {{6}, {6}, Shape{}, {}, {}, {}},
      {{2, 300}, {300}, Shape{300}, -1, {}, {}},
      {{3, 2, 5}, {5}, Shape{5}, {}, {}, 16},
  };
  std::vector<ReferenceCase> cases;
  for (const LayerCall& call : calls) {
    ReferenceCase layer;
    layer.inputs = {random.tensor(type, call.x), random.tensor(type, call.scale)};
    if (call.bias) layer.inputs.push_back(random.tensor(type, *call.bias));
    if (call.axis) layer.attrs.set("axis", *call.axis);
    if (call.epsilon) layer.attrs.set("epsilon", *call.epsilon);
    if (call.stash_type) layer.attrs.set("stash_type", *call.stash_type);
    const DType stash = call.stash_type.value_or(1) == 16 ? DType::kBF16 : DType::kF32;
    const int64_t axis = call.axis.value_or(-1) < 0 ? call.axis.value_or(-1) + call.x.rank()
                                                   : *call.axis;
    const Shape normalized(call.x.data() + axis, call.x.rank() - static_cast<int>(axis));
    const int64_t length = normalized.num_elements();
    const int64_t rows = length == 0 ? 0 : call.x.num_elements() / length;
    const Strides scale_strides = broadcast_strides(call.scale, normalized);
    const Strides bias_strides =
        call.bias ? broadcast_strides(*call.bias, normalized) : Strides{};
    const ReferenceTensor& scale = layer.inputs[1];
    const ReferenceTensor* bias = call.bias ? &layer.inputs[2] : nullptr;
    ReferenceTensor y = empty_reference(type, call.x);
    std::vector<int64_t> statistics_shape = call.x.to_vector();
    std::fill(statistics_shape.begin() + axis, statistics_shape.end(), int64_t{1});
    ReferenceTensor means = empty_reference(stash, Shape(statistics_shape));
    ReferenceTensor inverses = empty_reference(stash, Shape(statistics_shape));
    normalize_rows(
        layer.inputs[0], rows, length, epsilon_of(layer.attrs),
        [&](int64_t, int64_t i) {
          return scale.values[static_cast<size_t>(strided_offset(i, normalized, scale_strides))];
        },
        [&](int64_t, int64_t i) {
          if (bias == nullptr) return 0.0;
          return bias->values[static_cast<size_t>(strided_offset(i, normalized, bias_strides))];
        },
        y, {&means, &inverses});
    layer.expected = std::move(y);
    layer.more_expected = {std::move(means), std::move(inverses)};
    // One tolerance for every output: the wider of Y's dtype and the statistics'.
    layer.tolerance =
        std::max(reduction_tolerance(type, length + 4), reduction_tolerance(stash, length + 4));
    cases.push_back(std::move(layer));
  }
  return cases;
}

std::vector<ReferenceCase> instance_norm_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<Shape, std::optional<double>>> calls = {
      {{1, 2, 5}, {}}, {{2, 3, 4, 5}, {}}, {{2, 2, 3, 2, 2}, 1e-3}, {{1, 3, 1, 1}, {}},
      {{0, 2, 3, 3}, {}}, {{2, 4, 16, 17}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, epsilon] : calls) {
    const Shape channels{shape[1]};
    ReferenceCase instance;
    instance.inputs = {random.tensor(type, shape), random.tensor(type, channels),
                       random.tensor(type, channels)};
    if (epsilon) instance.attrs.set("epsilon", *epsilon);
    const int64_t length = per_channel(shape);
    const std::vector<double>& scale = instance.inputs[1].values;
    const std::vector<double>& bias = instance.inputs[2].values;
    ReferenceTensor y = empty_reference(type, shape);
    // A copy: a lambda may not capture a structured binding (C++17).
    const int64_t channel_count = shape[1];
    normalize_rows(
        instance.inputs[0], shape[0] * channel_count, length, epsilon_of(instance.attrs),
        [&](int64_t row, int64_t) { return scale[static_cast<size_t>(row % channel_count)]; },
        [&](int64_t row, int64_t) { return bias[static_cast<size_t>(row % channel_count)]; }, y);
    instance.expected = std::move(y);
    instance.tolerance = reduction_tolerance(type, length + 4);
    cases.push_back(std::move(instance));
  }
  return cases;
}

}  // namespace hxrt::detail
