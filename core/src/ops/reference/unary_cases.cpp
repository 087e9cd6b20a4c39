#include "ops/reference/unary_cases.hpp"

#include <utility>

#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {

std::vector<ReferenceCase> unary_cases(double (*function)(double), DType type, ValueRange range,
                                       RandomValues& random) {
  const std::vector<Shape> shapes = {{3, 5}, {}, {1}, {0}, {0, 3}, {2, 3, 4}, {64}};
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : shapes) {
    ReferenceCase call;
    call.inputs = {random.tensor(type, shape, range)};
    call.expected = empty_reference(type, shape);
    for (double value : call.inputs[0].values) call.expected.values.push_back(function(value));
    call.tolerance = element_tolerance(type);
    cases.push_back(std::move(call));
  }
  return cases;
}

}  // namespace hxrt::detail
