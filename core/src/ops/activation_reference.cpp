// Reference cases of the activations, Clip and Dropout (activation_ops.cpp): each function
// computed in double on the exact input values, with its default attributes over every kind of
// shape (unary_cases) and then with each attribute given.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"
#include "ops/reference/unary_cases.hpp"

namespace hxrt::detail {
namespace {

// One call on a [4, 6] input drawn from `range`, with `attrs`.
ReferenceCase attribute_case(DType type, ValueRange range, Attrs attrs,
                             const std::function<double(double)>& function,
                             RandomValues& random) {
  ReferenceCase call;
  call.inputs = {random.tensor(type, {4, 6}, range)};
  call.attrs = std::move(attrs);
  call.expected = empty_reference(type, call.inputs[0].shape);
  for (double x : call.inputs[0].values) call.expected.values.push_back(function(x));
  call.tolerance = element_tolerance(type);
  return call;
}

// NaN stays NaN, as the schema says: std::min and std::max would give 1 for it.
double hard_sigmoid(double x, double alpha, double beta) {
  const double linear = alpha * x + beta;
  return linear < 0 ? 0.0 : linear > 1 ? 1.0 : linear;
}

double gelu_tanh(double x) {
  const double pi = std::acos(-1.0);
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
}

}  // namespace

std::vector<ReferenceCase> leaky_relu_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases = unary_cases(
      [](double x) { return x < 0 ? 0.01 * x : x; }, type, ValueRange::kWide, random);
  for (double alpha : {0.25, 0.0, -1.5}) {
    cases.push_back(attribute_case(type, ValueRange::kWide, {{"alpha", alpha}},
                                   [&](double x) { return x < 0 ? alpha * x : x; }, random));
  }
  return cases;
}

std::vector<ReferenceCase> gelu_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases = unary_cases(
      [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, type,
      ValueRange::kModerate, random);
  cases.push_back(attribute_case(type, ValueRange::kModerate,
                                 {{"approximate", std::string("tanh")}}, gelu_tanh, random));
  cases.push_back(attribute_case(type, ValueRange::kWide, {{"approximate", std::string("tanh")}},
                                 gelu_tanh, random));
  return cases;
}

std::vector<ReferenceCase> hard_sigmoid_cases(DType type, DType, RandomValues& random) {
  // Moderate inputs reach both flat ends (|x| > 2.5 with the defaults) and the slope between.
  std::vector<ReferenceCase> cases = unary_cases(
      [](double x) { return hard_sigmoid(x, 0.2, 0.5); }, type, ValueRange::kModerate, random);
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"alpha", 0.5}, {"beta", 0.25}},
                                 [](double x) { return hard_sigmoid(x, 0.5, 0.25); }, random));
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"alpha", -0.1}},
                                 [](double x) { return hard_sigmoid(x, -0.1, 0.5); }, random));
  // NaN stays NaN, beside both flat ends and the slope.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ReferenceCase with_nan;
  with_nan.inputs = {ReferenceTensor{type, Shape{5}, {nan, -4.0, 0.5, 4.0, nan}}};
  with_nan.expected = empty_reference(type, Shape{5});
  for (double x : with_nan.inputs[0].values) {
    with_nan.expected.values.push_back(hard_sigmoid(x, 0.2, 0.5));
  }
  with_nan.tolerance = element_tolerance(type);
  cases.push_back(std::move(with_nan));
  return cases;
}

std::vector<ReferenceCase> hard_swish_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return x * hard_sigmoid(x, 1.0 / 6, 0.5); }, type,
                     ValueRange::kModerate, random);
}

std::vector<ReferenceCase> clip_cases(DType type, DType, RandomValues& random) {
  // Without bounds Clip is the identity. The bounds are values of every dtype (quarters), so
  // that rounding them to the dtype changes nothing; an integer dtype sees them rounded inward.
  std::vector<ReferenceCase> cases =
      unary_cases([](double x) { return x; }, type, ValueRange::kModerate, random);
  const double infinity = std::numeric_limits<double>::infinity();
  const bool integer = is_integer(type);
  // An integer dtype takes the bounds rounded inward and saturated to its range, as Cast
  // converts a floating value.
  const auto clip = [integer, type](double low, double high) {
    const double lowest = integer ? saturate_to(std::ceil(low), type) : low;
    const double highest = integer ? saturate_to(std::floor(high), type) : high;
    return [=](double x) { return std::min(std::max(x, lowest), highest); };
  };
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"min", -2.5}, {"max", 4.0}},
                                 clip(-2.5, 4.0), random));
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"min", 0.0}},
                                 clip(0, infinity), random));
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"max", 1.75}},
                                 clip(-infinity, 1.75), random));
  // min > max: every element is max.
  cases.push_back(attribute_case(type, ValueRange::kModerate, {{"min", 3.0}, {"max", -1.0}},
                                 clip(3, -1), random));
  return cases;
}

std::vector<ReferenceCase> dropout_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases =
      unary_cases([](double x) { return x; }, type, ValueRange::kWide, random);
  const auto same = [](double x) { return x; };
  cases.push_back(attribute_case(type, ValueRange::kWide, {{"ratio", 0.25}}, same, random));
  cases.push_back(attribute_case(type, ValueRange::kWide,
                                 {{"ratio", 0.9}, {"training_mode", false}, {"seed", int64_t{7}}},
                                 same, random));
  cases.push_back(attribute_case(type, ValueRange::kWide, {{"ratio", 0.0}, {"training_mode", true}},
                                 same, random));
  for (ReferenceCase& call : cases) {
    call.tolerance = 0;
    ReferenceTensor mask{DType::kBool, call.expected.shape, {}};
    mask.values.assign(call.expected.values.size(), 1.0);
    call.more_expected = {std::move(mask)};
  }
  return cases;
}

}  // namespace hxrt::detail
