// Reference cases of Sum: the input summed over a set of axes, in double.
#include <numeric>
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reduction_axes.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reduced_sets.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct SumCall {
  Shape shape;
  std::optional<std::vector<int64_t>> axes;  // absent: every axis
  std::optional<bool> keep_dims;             // absent: the default, false
};

// `axes` as the attribute gives them: negative counts from the end, absent reduces every
// axis, an empty list none.
std::vector<bool> reduced_axes(int rank, const std::optional<std::vector<int64_t>>& axes) {
  std::vector<bool> reduced(static_cast<size_t>(rank), !axes.has_value());
  if (axes) {
    for (int64_t axis : *axes) reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  return reduced;
}

ReferenceTensor sum_reference(const ReferenceTensor& x, const std::vector<bool>& reduced,
                              bool keep_dims) {
  ReferenceTensor out = empty_reference(x.dtype, reduced_shape(x.shape, reduced, keep_dims));
  for (const std::vector<double>& set : reduced_sets(x, reduced)) {
    out.values.push_back(std::accumulate(set.begin(), set.end(), 0.0));
  }
  return out;
}

// How many input elements each output element adds up.
int64_t terms_of(const Shape& shape, const std::vector<bool>& reduced) {
  int64_t terms = 1;
  for (int axis = 0; axis < shape.rank(); ++axis) {
    if (reduced[static_cast<size_t>(axis)]) terms *= shape[axis];
  }
  return terms;
}

}  // namespace

std::vector<ReferenceCase> sum_cases(DType type, DType, RandomValues& random) {
  const std::vector<SumCall> calls = {
      {{3, 4, 5}, {}, {}},
      {{3, 4, 5}, std::vector<int64_t>{1}, {}},
      {{3, 4, 5}, std::vector<int64_t>{0, 2}, true},
      {{3, 4, 5}, std::vector<int64_t>{-1}, false},
      {{3, 4, 5}, std::vector<int64_t>{2, 0}, {}},
      {{2, 3, 2, 3}, std::vector<int64_t>{1, 3}, true},
      {{2, 3}, std::vector<int64_t>{}, {}},
      {{2, 3}, {}, true},
      {{}, {}, {}},
      {{}, std::vector<int64_t>{}, true},
      {{1}, {}, {}},
      {{0, 3}, std::vector<int64_t>{0}, {}},
      {{4, 0}, std::vector<int64_t>{0}, true},
      {{0}, {}, {}},
      {{33, 17}, std::vector<int64_t>{0}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const SumCall& call : calls) {
    ReferenceCase sum;
    sum.inputs = {random.tensor(type, call.shape)};
    if (call.axes) sum.attrs.set("axes", *call.axes);
    if (call.keep_dims) sum.attrs.set("keep_dims", *call.keep_dims);
    const std::vector<bool> reduced = reduced_axes(call.shape.rank(), call.axes);
    sum.expected = sum_reference(sum.inputs[0], reduced, call.keep_dims.value_or(false));
    sum.tolerance = reduction_tolerance(type, terms_of(call.shape, reduced));
    cases.push_back(std::move(sum));
  }
  return cases;
}

}  // namespace hxrt::detail
