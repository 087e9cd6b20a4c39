// Reference cases of Add, Sub, Mul, Div, Pow, AddN and Relu, computed in double on the exact
// input values; integer results are exact because the inputs are small integers.
#include <cmath>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/broadcast_cases.hpp"
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
// An integer power truncates toward zero too (2^-1 is 0); the bases are never 0.
double power(double x, double y, bool integer) {
  return integer ? std::trunc(std::pow(x, y)) : std::pow(x, y);
}

std::vector<ReferenceCase> binary_cases(Arithmetic apply, DType type, RandomValues& random,
                                        ValueRange x_range, ValueRange y_range) {
  const bool integer = is_integer(type);
  std::vector<ReferenceCase> cases;
  for (const auto& [x_shape, y_shape] : binary_shapes()) {
    ReferenceCase call;
    call.inputs = {random.tensor(type, x_shape, x_range), random.tensor(type, y_shape, y_range)};
    call.expected = broadcast_map(call.inputs, type, [&](const std::vector<double>& v) {
      return apply(v[0], v[1], integer);
    });
    call.tolerance = element_tolerance(type);
    call.broadcast = broadcasts(call);
    cases.push_back(std::move(call));
  }
  return cases;
}

std::vector<ReferenceCase> binary_cases(Arithmetic apply, DType type, RandomValues& random) {
  const ValueRange y_range = apply == divide ? ValueRange::kDivisor : ValueRange::kSmall;
  return binary_cases(apply, type, random, ValueRange::kSmall, y_range);
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

std::vector<ReferenceCase> pow_cases(DType type, DType, RandomValues& random) {
  // Integers: nonzero bases in [-7, 7] and exponents in [-3, 3], whose powers are exact and
  // small. Floats: positive bases (a negative one has no real power of a fractional exponent)
  // from 0.001 to 100 and exponents in [-1, 1], whose powers stay within f16's range.
  std::vector<ReferenceCase> cases =
      is_integer(type)
          ? binary_cases(power, type, random, ValueRange::kDivisor, ValueRange::kFew)
          : binary_cases(power, type, random, ValueRange::kPositive, ValueRange::kSmall);
  // Whole exponents of bases of either sign, as x^2 and x^3 of a network.
  for (double exponent : {2.0, 3.0}) {
    ReferenceCase call;
    call.inputs = {random.tensor(type, {4, 5}, ValueRange::kDivisor),
                   ReferenceTensor{type, {}, {exponent}}};
    call.expected = broadcast_map(call.inputs, type, [&](const std::vector<double>& v) {
      return std::pow(v[0], v[1]);
    });
    call.tolerance = element_tolerance(type);
    call.broadcast = true;
    cases.push_back(std::move(call));
  }
  // An exponent of another dtype (ONNX's T1), the whole tensor's and a scalar: whole exponents
  // in [-3, 3] for a floating base of magnitude in [0.25, 1], of either sign; for an integer
  // base, whole exponents in [-3, 3] of the other integer dtype and of f32 for bases in
  // [-7, 7] but 0, and fractional f32 exponents in [-1, 1] for positive bases, truncated.
  struct Mixed {
    DType exponent;
    ValueRange x_range, y_range;
  };
  const DType other_integer = type == DType::kI32 ? DType::kI64 : DType::kI32;
  const std::vector<Mixed> mixed =
      is_integer(type)
          ? std::vector<Mixed>{{other_integer, ValueRange::kDivisor, ValueRange::kFew},
                               {DType::kF32, ValueRange::kDivisor, ValueRange::kFew},
                               {DType::kF32, ValueRange::kPositive, ValueRange::kSmall}}
          : std::vector<Mixed>{{DType::kI32, ValueRange::kDivisor, ValueRange::kFew},
                               {DType::kI64, ValueRange::kDivisor, ValueRange::kFew}};
  for (const Mixed& pair : mixed) {
    for (const Shape& y_shape : {Shape{3, 4}, Shape{}}) {
      ReferenceCase call;
      call.inputs = {random.tensor(type, {3, 4}, pair.x_range),
                     random.tensor(pair.exponent, y_shape, pair.y_range)};
      call.expected = broadcast_map(call.inputs, type, [&](const std::vector<double>& v) {
        return power(v[0], v[1], is_integer(type));
      });
      call.tolerance = element_tolerance(type);
      call.broadcast = broadcasts(call);
      cases.push_back(std::move(call));
    }
  }
  return cases;
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
