// Reference cases of Add, Sub, Mul, Div, AddN and Relu, computed in double on the exact input
// values; integer results are exact because the inputs are small integers.
#include <cmath>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"
#include "ops/reference/unary_cases.hpp"

namespace hxrt::detail {
namespace {

using Arithmetic = double (*)(double x, double y, bool integer);

double add(double x, double y, bool) { return x + y; }
double subtract(double x, double y, bool) { return x - y; }
double multiply(double x, double y, bool) { return x * y; }
// Integer division truncates toward zero; the divisors are never 0.
double divide(double x, double y, bool integer) { return integer ? std::trunc(x / y) : x / y; }

// The operands broadcast as NumPy's, element by element.
ReferenceTensor binary_reference(Arithmetic apply, const ReferenceTensor& x,
                                 const ReferenceTensor& y) {
  const Shape shape = broadcast_shape(x.shape, y.shape);
  ReferenceTensor out = empty_reference(x.dtype, shape);
  const Strides x_strides = broadcast_strides(x.shape, shape);
  const Strides y_strides = broadcast_strides(y.shape, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    const auto x_at = static_cast<size_t>(strided_offset(i, shape, x_strides));
    const auto y_at = static_cast<size_t>(strided_offset(i, shape, y_strides));
    out.values.push_back(apply(x.values[x_at], y.values[y_at], is_integer(x.dtype)));
  }
  return out;
}

std::vector<ReferenceCase> binary_cases(Arithmetic apply, DType type, RandomValues& random) {
  // Equal shapes, then pairs that broadcast as NumPy's: a trailing vector against a matrix
  // on either side, two operands that both repeat, lower ranks, one-element and empty
  // operands.
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 5}, {3, 5}}, {{7}, {7}},     {{2, 3, 4}, {2, 3, 4}}, {{}, {}},        {{1}, {1}},
      {{0, 4}, {0, 4}}, {{16, 9}, {16, 9}},
      {{2, 3}, {3}},    {{3}, {2, 3}},  {{2, 1}, {1, 3}},       {{4, 1, 3}, {5, 1}},
      {{3, 1}, {3, 4}}, {{}, {4, 6}},   {{4, 6}, {}},           {{2, 3}, {1}},   {{1, 1}, {}},
      {{1}, {5, 1, 2}}, {{0}, {}},      {{0, 3}, {2, 1, 1}},
  };
  const ValueRange y_range = apply == divide ? ValueRange::kDivisor : ValueRange::kSmall;
  std::vector<ReferenceCase> cases;
  for (const auto& [x_shape, y_shape] : shapes) {
    ReferenceCase call;
    call.inputs = {random.tensor(type, x_shape), random.tensor(type, y_shape, y_range)};
    call.expected = binary_reference(apply, call.inputs[0], call.inputs[1]);
    call.tolerance = element_tolerance(type);
    call.broadcast = x_shape != call.expected.shape || y_shape != call.expected.shape;
    cases.push_back(std::move(call));
  }
  return cases;
}

}  // namespace

std::vector<ReferenceCase> add_cases(DType type, DType, RandomValues& random) {
  return binary_cases(add, type, random);
}

std::vector<ReferenceCase> sub_cases(DType type, DType, RandomValues& random) {
  return binary_cases(subtract, type, random);
}

std::vector<ReferenceCase> mul_cases(DType type, DType, RandomValues& random) {
  return binary_cases(multiply, type, random);
}

std::vector<ReferenceCase> div_cases(DType type, DType, RandomValues& random) {
  return binary_cases(divide, type, random);
}

std::vector<ReferenceCase> add_n_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {3, {17}}, {5, {2, 1, 3}}, {2, {}}, {4, {1}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [count, shape] : calls) {
    ReferenceCase call;
    call.expected = empty_reference(type, shape);
    call.expected.values.assign(static_cast<size_t>(shape.num_elements()), 0.0);
    for (int i = 0; i < count; ++i) {
      call.inputs.push_back(random.tensor(type, shape));
      for (size_t e = 0; e < call.expected.values.size(); ++e) {
        call.expected.values[e] += call.inputs.back().values[e];
      }
    }
    call.tolerance = reduction_tolerance(type, count);
    cases.push_back(std::move(call));
  }
  return cases;
}

std::vector<ReferenceCase> relu_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return x < 0 ? 0.0 : x; }, type, ValueRange::kSmall, random);
}

}  // namespace hxrt::detail
