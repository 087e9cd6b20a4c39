// Reference cases of the comparisons and of Not, And and Or (comparison_ops.cpp): bool outputs,
// exact. The compared operands are whole numbers in [-3, 3], so that about one pair in seven
// ties, where Equal, LessOrEqual and GreaterOrEqual differ from the strict tests.
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/broadcast_cases.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/unary_cases.hpp"

namespace hxrt::detail {
namespace {

using Test = bool (*)(double a, double b);

std::vector<ReferenceCase> test_cases(Test test, DType type, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const auto& [a_shape, b_shape] : binary_shapes()) {
    ReferenceCase call;
    call.inputs = {random.tensor(type, a_shape, ValueRange::kFew),
                   random.tensor(type, b_shape, ValueRange::kFew)};
    call.expected = broadcast_map(call.inputs, DType::kBool, [&](const std::vector<double>& v) {
      return test(v[0], v[1]) ? 1.0 : 0.0;
    });
    call.broadcast = broadcasts(call);
    cases.push_back(std::move(call));
  }
  return cases;
}

}  // namespace

std::vector<ReferenceCase> equal_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a == b; }, type, random);
}

std::vector<ReferenceCase> less_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a < b; }, type, random);
}

std::vector<ReferenceCase> greater_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a > b; }, type, random);
}

std::vector<ReferenceCase> less_or_equal_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a <= b; }, type, random);
}

std::vector<ReferenceCase> greater_or_equal_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a >= b; }, type, random);
}

// Bool operands are drawn as 0 or 1 whatever the range.
std::vector<ReferenceCase> and_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a != 0 && b != 0; }, type, random);
}

std::vector<ReferenceCase> or_cases(DType type, DType, RandomValues& random) {
  return test_cases([](double a, double b) { return a != 0 || b != 0; }, type, random);
}

std::vector<ReferenceCase> not_cases(DType type, DType, RandomValues& random) {
  return unary_cases([](double x) { return x != 0 ? 0.0 : 1.0; }, type, ValueRange::kSmall,
                     random);
}

}  // namespace hxrt::detail
