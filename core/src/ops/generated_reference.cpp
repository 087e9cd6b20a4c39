// Reference cases of Shape, Size and Range (generated_ops.cpp). Shape's and Size's inputs are
// random, though never read: a kernel must not depend on them.
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

ReferenceTensor int64_vector(const std::vector<int64_t>& values) {
  ReferenceTensor out = empty_reference(DType::kI64, Shape{static_cast<int64_t>(values.size())});
  for (int64_t value : values) out.values.push_back(static_cast<double>(value));
  return out;
}

}  // namespace

std::vector<ReferenceCase> shape_cases(DType type, DType, RandomValues& random) {
  using Bound = std::optional<int64_t>;
  const std::vector<std::tuple<Shape, Bound, Bound, std::vector<int64_t>>> calls = {
      {{2, 3, 4}, {}, {}, {2, 3, 4}},     {{2, 3, 4}, 1, {}, {3, 4}},
      {{2, 3, 4}, {}, -1, {2, 3}},        {{2, 3, 4}, -2, 100, {3, 4}},
      {{2, 3, 4}, 2, 1, {}},              {{2, 3, 4}, -100, 1, {2}},
      {{}, {}, {}, {}},                   {{0, 5}, {}, {}, {0, 5}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, start, end, expected] : calls) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape)};
    if (start) c.attrs.set("start", *start);
    if (end) c.attrs.set("end", *end);
    c.expected = int64_vector(expected);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> size_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : std::vector<Shape>{{2, 3, 4}, {}, {0, 3}, {7}}) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape)};
    c.expected = empty_reference(DType::kI64, {});
    c.expected.values.push_back(static_cast<double>(shape.num_elements()));
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> range_cases(DType type, DType, RandomValues&) {
  // Whole numbers for every dtype, quarters (exact in each) for the floating ones.
  std::vector<std::tuple<double, double, double>> calls = {
      {0, 10, 1}, {1, 10, 3}, {10, 1, -2}, {5, 5, 1}, {5, 1, 1}, {-7, 30, 1},
  };
  if (!is_integer(type)) calls.insert(calls.end(), {{0.5, 3, 0.25}, {2, -1.25, -0.75}});
  if (is_unsigned(type)) {  // no negative start, limit or step
    calls = {{0, 10, 1}, {1, 10, 3}, {5, 5, 1}, {5, 1, 1}, {7, 30, 2}};
  }
  std::vector<ReferenceCase> cases;
  for (const auto& [start, limit, delta] : calls) {
    ReferenceCase c;
    c.attrs = {{"start", start}, {"limit", limit}, {"delta", delta}};
    // The default dtype, float32, is left out, as the core leaves it out.
    if (type != DType::kF32) c.attrs.set("dtype", type);
    const auto count = static_cast<int64_t>(std::max(std::ceil((limit - start) / delta), 0.0));
    c.expected = empty_reference(type, Shape{count});
    for (int64_t i = 0; i < count; ++i) {
      c.expected.values.push_back(round_to(start + static_cast<double>(i) * delta, type));
    }
    c.tolerance = element_tolerance(type);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hxrt::detail
