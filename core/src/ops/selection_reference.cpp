// Reference cases of Min, Max and Where (selection_ops.cpp). Each output element is one of the
// inputs' elements, so the expected values are exact; Min and Max see few distinct values, so
// that their operands often tie.
#include <algorithm>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/broadcast_cases.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {
namespace {

ReferenceCase selection_case(std::vector<ReferenceTensor> inputs, DType type,
                             double (*pick)(const std::vector<double>&)) {
  ReferenceCase call;
  call.inputs = std::move(inputs);
  call.expected = broadcast_map(call.inputs, type, pick);
  call.broadcast = broadcasts(call);
  return call;
}

std::vector<ReferenceCase> extremum_cases(DType type, RandomValues& random,
                                          double (*pick)(const std::vector<double>&)) {
  std::vector<ReferenceCase> cases;
  const auto draw = [&](const Shape& shape) {
    return random.tensor(type, shape, ValueRange::kFew);
  };
  for (const auto& [x_shape, y_shape] : binary_shapes()) {
    cases.push_back(selection_case({draw(x_shape), draw(y_shape)}, type, pick));
  }
  // One input, and three and four that broadcast together.
  const std::vector<std::vector<Shape>> calls = {
      {{3, 4}}, {{}}, {{0, 2}}, {{2, 1, 3}, {4, 1}, {3}}, {{5}, {5}, {5}, {5}},
      {{2, 3}, {}, {1, 3}}, {{0}, {1}, {}},
  };
  for (const std::vector<Shape>& shapes : calls) {
    std::vector<ReferenceTensor> inputs;
    for (const Shape& shape : shapes) inputs.push_back(draw(shape));
    cases.push_back(selection_case(std::move(inputs), type, pick));
  }
  return cases;
}

double least(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}
double greatest(const std::vector<double>& values) {
  return *std::max_element(values.begin(), values.end());
}
double choose(const std::vector<double>& values) { return values[0] != 0 ? values[1] : values[2]; }

}  // namespace

std::vector<ReferenceCase> min_cases(DType type, DType, RandomValues& random) {
  return extremum_cases(type, random, least);
}

std::vector<ReferenceCase> max_cases(DType type, DType, RandomValues& random) {
  return extremum_cases(type, random, greatest);
}

std::vector<ReferenceCase> where_cases(DType type, DType, RandomValues& random) {
  // condition, x and y: of one shape, each broadcast in turn, all three, and rank 0 and empty.
  const std::vector<std::vector<Shape>> calls = {
      {{3, 4}, {3, 4}, {3, 4}}, {{17}, {17}, {17}},    {{}, {}, {}},
      {{3, 1}, {3, 4}, {3, 4}}, {{3, 4}, {4}, {3, 4}}, {{3, 4}, {3, 4}, {}},
      {{2, 1, 4}, {3, 1}, {4}}, {{4}, {}, {}},         {{0, 3}, {3}, {1}},
      {{1}, {2, 0}, {1, 1}},
  };
  std::vector<ReferenceCase> cases;
  for (const std::vector<Shape>& shapes : calls) {
    cases.push_back(selection_case({random.tensor(DType::kBool, shapes[0]),
                                    random.tensor(type, shapes[1]),
                                    random.tensor(type, shapes[2])},
                                   type, choose));
  }
  return cases;
}

}  // namespace hxrt::detail
