// Reference cases of AllReduce, computed in double on the exact inputs, and of AllGather.
#include <algorithm>
#include <cmath>
#include <string>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {

std::vector<ReferenceCase> all_reduce_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {4, {17}}, {3, {2, 1, 3}}, {2, {}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const std::string reduction : {"sum", "mean", "max", "min"}) {
    for (const auto& [count, shape] : calls) {
      ReferenceCase call;
      call.attrs = {{"reduction", reduction}};
      for (int i = 0; i < count; ++i) call.inputs.push_back(random.tensor(type, shape));
      call.expected = empty_reference(type, shape);
      for (size_t e = 0; e < static_cast<size_t>(shape.num_elements()); ++e) {
        double value = call.inputs[0].values[e];
        for (int i = 1; i < count; ++i) {
          const double next = call.inputs[static_cast<size_t>(i)].values[e];
          if (reduction == "max") {
            value = std::max(value, next);
          } else if (reduction == "min") {
            value = std::min(value, next);
          } else {
            value += next;
          }
        }
        if (reduction == "mean") {
          value /= count;
          if (is_integer(type)) value = std::trunc(value);
        }
        call.expected.values.push_back(value);
      }
      call.tolerance = reduction_tolerance(type, count);
      cases.push_back(std::move(call));
    }
  }
  return cases;
}

std::vector<ReferenceCase> all_gather_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<int, Shape>> calls = {
      {1, {3, 4}}, {2, {3, 4}}, {4, {5}}, {3, {2, 1, 3}}, {2, {}}, {3, {0, 2}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [count, shape] : calls) {
    ReferenceCase call;
    Shape gathered = shape;
    if (shape.rank() == 0) {
      gathered = Shape{count};
    } else {
      gathered.set_dim(0, shape[0] * count);
    }
    call.expected = empty_reference(type, gathered);
    for (int i = 0; i < count; ++i) {
      call.inputs.push_back(random.tensor(type, shape));
      for (double value : call.inputs.back().values) call.expected.values.push_back(value);
    }
    cases.push_back(std::move(call));
  }
  return cases;
}

}  // namespace hxrt::detail
