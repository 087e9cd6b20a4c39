// Reference cases of TopK (top_k_op.cpp): every run along the axis sorted whole, stably, then
// cut to k. Some inputs take few distinct values, so that equal elements are common and their
// order (the lower index first) is checked.
#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {
namespace {

struct TopKCall {
  Shape x;
  int64_t k;
  std::optional<int64_t> axis;
  std::optional<int64_t> largest;
  std::optional<int64_t> sorted;
  ValueRange range;
};

}  // namespace

std::vector<ReferenceCase> top_k_cases(DType type, DType, RandomValues& random) {
  const std::vector<TopKCall> calls = {
      {{3, 5}, 2, {}, {}, {}, ValueRange::kSmall},
      {{3, 5}, 3, {}, 0, {}, ValueRange::kFew},
      {{4, 3, 2}, 2, 1, {}, {}, ValueRange::kFew},
      {{4, 3, 2}, 4, 0, 0, 1, ValueRange::kSmall},
      {{6}, 6, -1, 1, 0, ValueRange::kFew},  // all of them, in order even unasked
      {{2, 7}, 0, {}, {}, {}, ValueRange::kSmall},
      {{0, 4}, 1, {}, {}, {}, ValueRange::kSmall},
      {{2, 40}, 5, -1, {}, {}, ValueRange::kWide},
  };
  std::vector<ReferenceCase> cases;
  for (const TopKCall& call : calls) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.x, call.range)};
    c.attrs.set("k", call.k);
    if (call.axis) c.attrs.set("axis", *call.axis);
    if (call.largest) c.attrs.set("largest", *call.largest);
    if (call.sorted) c.attrs.set("sorted", *call.sorted);
    const int64_t given_axis = call.axis.value_or(-1);
    const auto axis = static_cast<size_t>(given_axis < 0 ? given_axis + call.x.rank()
                                                         : given_axis);
    const bool largest = call.largest.value_or(1) == 1;
    const ReferenceTensor& x = c.inputs[0];
    const int64_t extent = call.x[static_cast<int>(axis)];
    // The indices along the axis of the run through `at`, best first.
    const auto ranked = [&](const Coordinates& at) {
      std::vector<int64_t> order(static_cast<size_t>(extent));
      std::iota(order.begin(), order.end(), int64_t{0});
      Coordinates from = at;
      const auto value = [&](int64_t index) {
        from[axis] = index;
        return element_at(x, from);
      };
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const double first = value(a);
        const double second = value(b);
        return largest ? first > second : first < second;
      });
      return order;
    };
    std::vector<int64_t> dims = call.x.to_vector();
    dims[axis] = call.k;
    const Shape out(dims);
    c.expected = picked(type, out, [&](const Coordinates& at) {
      Coordinates from = at;
      from[axis] = ranked(at)[static_cast<size_t>(at[axis])];
      return element_at(x, from);
    });
    c.more_expected = {picked(DType::kI64, out, [&](const Coordinates& at) {
      return static_cast<double>(ranked(at)[static_cast<size_t>(at[axis])]);
    })};
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hxrt::detail
