// Cases of Add, Sub, Mul, Div, AddN and Relu.
#include "reference/case_builders.hpp"

namespace hxrt_conformance {

std::vector<KernelCase> binary_cases(BinaryOp op, hx_dtype dtype, RandomInputs& random) {
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
  const ValueRange divisor_range = op == BinaryOp::kDiv ? ValueRange::kDivisor : ValueRange::kSmall;
  std::vector<KernelCase> cases;
  for (const auto& [x_shape, y_shape] : shapes) {
    HostTensor x = random.tensor(dtype, x_shape);
    HostTensor y = random.tensor(dtype, y_shape, divisor_range);
    HostTensor expected = binary_reference(op, x, y);
    const bool broadcast = x_shape != expected.spec.shape || y_shape != expected.spec.shape;
    cases.push_back({{std::move(x), std::move(y)},
                     {},
                     std::move(expected),
                     element_tolerance(dtype),
                     broadcast});
  }
  return cases;
}

std::vector<KernelCase> add_n_cases(hx_dtype dtype, RandomInputs& random) {
  const std::vector<std::pair<size_t, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {3, {17}}, {5, {2, 1, 3}}, {2, {}}, {4, {1}}, {3, {0, 2}},
  };
  std::vector<KernelCase> cases;
  for (const auto& [count, shape] : calls) {
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < count; ++i) inputs.push_back(random.tensor(dtype, shape));
    HostTensor expected = add_n_reference(inputs);
    cases.push_back({std::move(inputs),
                     {},
                     std::move(expected),
                     reduction_tolerance(dtype, static_cast<int64_t>(count))});
  }
  return cases;
}

std::vector<KernelCase> relu_cases(hx_dtype dtype, RandomInputs& random) {
  const std::vector<Shape> shapes = {{3, 5}, {}, {1}, {0}, {0, 3}, {2, 3, 4}, {64}};
  std::vector<KernelCase> cases;
  for (const Shape& shape : shapes) {
    HostTensor x = random.tensor(dtype, shape);
    HostTensor expected = relu_reference(x);
    cases.push_back({{std::move(x)}, {}, std::move(expected), element_tolerance(dtype)});
  }
  return cases;
}

}  // namespace hxrt_conformance
