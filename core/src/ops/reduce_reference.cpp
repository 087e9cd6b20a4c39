// Reference cases of ONNX's reductions (reduce_ops.cpp): each output element the op's function
// of its set of input elements, in double. Integer results that ONNX computes in floating
// point are truncated toward zero, as NumPy's astype does.
#include <algorithm>
#include <cmath>
#include <functional>
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

using Set = std::vector<double>;

struct ReduceCall {
  Shape shape;
  std::optional<std::vector<int64_t>> axes;  // absent: every axis (or none, with noop)
  std::optional<bool> keepdims;              // absent: the default, true
  bool noop_with_empty_axes = false;
};

// What distinguishes one op's cases.
struct ReduceReference {
  double (*function)(const Set& set);
  bool integral;       // an integer result ONNX computes in floating point, truncated
  bool exact;          // the result is one of the inputs (Max, Min): tolerance 0
  bool finite_empty;   // defined and finite on an empty set, which the cases then include
  int64_t max_terms;   // at most this many per set: the products of integers stay exact
  ValueRange range;
};

std::vector<ReduceCall> calls() {
  using Axes = std::vector<int64_t>;
  return {
      {{3, 4, 5}, {}, {}},
      {{3, 4, 5}, Axes{1}, false},
      {{3, 4, 5}, Axes{0, 2}, {}},
      {{3, 4, 5}, Axes{-1}, false},
      {{2, 3, 2, 3}, Axes{1, 3}, true},
      {{2, 3}, Axes{}, {}},
      {{2, 3}, {}, false, true},
      {{2, 3}, Axes{}, {}, true},
      {{2, 3}, Axes{1}, {}, true},
      {{}, {}, {}},
      {{}, {}, false},
      {{1}, {}, false},
      {{0, 3}, Axes{1}, {}},
      {{0, 3}, Axes{0}, false},
      {{4, 0}, {}, {}},
      {{33, 17}, Axes{0}, false},
  };
}

std::vector<bool> reduced_axes(const ReduceCall& call) {
  const int rank = call.shape.rank();
  if (!call.axes || call.axes->empty()) {
    return std::vector<bool>(static_cast<size_t>(rank), !call.noop_with_empty_axes);
  }
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t axis : *call.axes) {
    reduced[static_cast<size_t>(axis < 0 ? axis + rank : axis)] = true;
  }
  return reduced;
}

std::vector<ReferenceCase> reduce_cases(const ReduceReference& op, DType type,
                                        RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const ReduceCall& call : calls()) {
    ReferenceCase reduce;
    reduce.inputs = {random.tensor(type, call.shape, op.range)};
    const std::vector<bool> reduced = reduced_axes(call);
    const std::vector<Set> sets = reduced_sets(reduce.inputs[0], reduced);
    size_t terms = 0;
    for (const Set& set : sets) terms = std::max(terms, set.size());
    const bool empty_set = std::any_of(sets.begin(), sets.end(), [](const Set& s) {
      return s.empty();
    });
    if (static_cast<int64_t>(terms) > op.max_terms || (empty_set && !op.finite_empty)) continue;
    if (call.axes) reduce.attrs.set("axes", *call.axes);
    if (call.keepdims) reduce.attrs.set("keepdims", *call.keepdims);
    if (call.noop_with_empty_axes) reduce.attrs.set("noop_with_empty_axes", true);
    reduce.expected =
        empty_reference(type, reduced_shape(call.shape, reduced, call.keepdims.value_or(true)));
    for (const Set& set : sets) {
      const double value = op.function(set);
      reduce.expected.values.push_back(op.integral && is_integer(type) ? std::trunc(value)
                                                                       : value);
    }
    reduce.tolerance = op.exact ? 0 : reduction_tolerance(type, static_cast<int64_t>(terms));
    cases.push_back(std::move(reduce));
  }
  return cases;
}

constexpr int64_t kAnyTerms = 1 << 20;

double sum(const Set& set) { return std::accumulate(set.begin(), set.end(), 0.0); }

double sum_square(const Set& set) {
  double total = 0;
  for (double value : set) total += value * value;
  return total;
}

}  // namespace

std::vector<ReferenceCase> reduce_sum_cases(DType type, DType, RandomValues& random) {
  return reduce_cases({sum, false, false, true, kAnyTerms, ValueRange::kSmall}, type, random);
}

std::vector<ReferenceCase> reduce_mean_cases(DType type, DType, RandomValues& random) {
  const auto mean = [](const Set& set) { return sum(set) / static_cast<double>(set.size()); };
  return reduce_cases({mean, true, false, false, kAnyTerms, ValueRange::kSmall}, type, random);
}

// Factors of magnitude 0.25 to 1 (integers up to 7), ten at most: no integer product overflows
// (7^10 < 2^31), and no factor is 0, which would hide the others.
std::vector<ReferenceCase> reduce_prod_cases(DType type, DType, RandomValues& random) {
  const auto product = [](const Set& set) {
    return std::accumulate(set.begin(), set.end(), 1.0, std::multiplies<double>());
  };
  return reduce_cases({product, false, false, true, 10, ValueRange::kDivisor}, type, random);
}

std::vector<ReferenceCase> reduce_max_cases(DType type, DType, RandomValues& random) {
  const auto max = [](const Set& set) { return *std::max_element(set.begin(), set.end()); };
  return reduce_cases({max, false, true, false, kAnyTerms, ValueRange::kSmall}, type, random);
}

std::vector<ReferenceCase> reduce_min_cases(DType type, DType, RandomValues& random) {
  const auto min = [](const Set& set) { return *std::min_element(set.begin(), set.end()); };
  return reduce_cases({min, false, true, false, kAnyTerms, ValueRange::kSmall}, type, random);
}

std::vector<ReferenceCase> reduce_l1_cases(DType type, DType, RandomValues& random) {
  const auto l1 = [](const Set& set) {
    double total = 0;
    for (double value : set) total += std::fabs(value);
    return total;
  };
  return reduce_cases({l1, false, false, true, kAnyTerms, ValueRange::kSmall}, type, random);
}

std::vector<ReferenceCase> reduce_l2_cases(DType type, DType, RandomValues& random) {
  const auto l2 = [](const Set& set) { return std::sqrt(sum_square(set)); };
  return reduce_cases({l2, true, false, true, kAnyTerms, ValueRange::kSmall}, type, random);
}

std::vector<ReferenceCase> reduce_sum_square_cases(DType type, DType, RandomValues& random) {
  return reduce_cases({sum_square, false, false, true, kAnyTerms, ValueRange::kSmall}, type,
                      random);
}

// Max plus the logarithm of a sum of at least 1, as the kernels compute it: an integer
// result truncates the same way in both.
std::vector<ReferenceCase> reduce_log_sum_exp_cases(DType type, DType, RandomValues& random) {
  const auto log_sum_exp = [](const Set& set) {
    const double max = *std::max_element(set.begin(), set.end());
    double total = 0;
    for (double value : set) total += std::exp(value - max);
    return max + std::log(total);
  };
  return reduce_cases({log_sum_exp, true, false, false, kAnyTerms, ValueRange::kSmall}, type,
                      random);
}

}  // namespace hxrt::detail
