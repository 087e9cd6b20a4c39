// Reference cases of MatMulBias: A x B + bias in double, then the activation, for stacks of
// rows, a matrix, empty extents and each activation.
#include <string>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/fused_activation.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct LayerCall {
  Shape a;  // [..., K]
  int64_t n;
  Shape bias;
  std::string activation;  // "": none
};

ReferenceTensor layer_reference(const ReferenceCase& layer, const LayerCall& call,
                                double alpha) {
  const int64_t k = call.a[call.a.rank() - 1];
  int64_t rows = 1;
  for (int axis = 0; axis + 1 < call.a.rank(); ++axis) rows *= call.a[axis];
  Shape y_shape = call.a;
  y_shape.set_dim(y_shape.rank() - 1, call.n);
  ReferenceTensor y = empty_reference(layer.inputs[0].dtype, y_shape);
  const std::vector<double>& a = layer.inputs[0].values;
  const std::vector<double>& b = layer.inputs[1].values;
  const std::vector<double>& bias = layer.inputs[2].values;
  for (int64_t row = 0; row < rows; ++row) {
    for (int64_t j = 0; j < call.n; ++j) {
      double sum = bias[static_cast<size_t>(j)];
      for (int64_t p = 0; p < k; ++p) {
        sum += a[static_cast<size_t>(row * k + p)] * b[static_cast<size_t>(p * call.n + j)];
      }
      y.values.push_back(call.activation.empty()
                             ? sum
                             : apply_fused_activation(call.activation, alpha, sum));
    }
  }
  return y;
}

}  // namespace

std::vector<ReferenceCase> matmul_bias_cases(DType type, DType, RandomValues& random) {
  std::vector<LayerCall> calls = {
      {Shape{3, 4}, 5, Shape{5}, ""},
      {Shape{2, 3, 4}, 5, Shape{5}, ""},
      {Shape{2, 2, 3, 7}, 3, Shape{1, 1, 3}, ""},
      {Shape{2, 33, 17}, 65, Shape{1, 65}, ""},
      {Shape{1, 1}, 1, Shape{1}, ""},
      {Shape{0, 3}, 4, Shape{4}, ""},
      {Shape{2, 3, 0}, 4, Shape{4}, ""},
      {Shape{3, 4}, 0, Shape{0}, ""},
  };
  for (const std::string& activation : fused_activations()) {
    calls.push_back({Shape{2, 5, 6}, 7, Shape{7}, activation});
  }
  std::vector<ReferenceCase> cases;
  for (const LayerCall& call : calls) {
    ReferenceCase layer;
    const int64_t k = call.a[call.a.rank() - 1];
    layer.inputs = {random.tensor(type, call.a), random.tensor(type, Shape{k, call.n}),
                    random.tensor(type, call.bias)};
    const double alpha = call.activation == "LeakyRelu" ? 0.125 : kLeakyReluDefaultAlpha;
    if (!call.activation.empty()) layer.attrs.set("activation", call.activation);
    if (call.activation == "LeakyRelu") layer.attrs.set("activation_alpha", alpha);
    layer.expected = layer_reference(layer, call, alpha);
    layer.tolerance = reduction_tolerance(type, k + 2);
    cases.push_back(std::move(layer));
  }
  return cases;
}

}  // namespace hxrt::detail
