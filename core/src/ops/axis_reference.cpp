// Reference cases of ArgMax, ArgMin, Softmax, LogSoftmax and CumSum (axis_ops.cpp), computed
// in double line by line: a line is the elements along the axis that agree on every other
// coordinate.
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

struct AxisCall {
  Shape shape;
  std::optional<int64_t> axis;  // absent: the op's default
  std::optional<bool> flag;     // keepdims (ArgMax, ArgMin)
  bool select_last_index = false;
};

// The shape around `axis`: `outer` lines before it, `inner` elements after each element of it.
struct Lines {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
  int64_t at(int64_t line, int64_t k) const {
    return (line / inner) * extent * inner + k * inner + line % inner;
  }
  int64_t count() const { return outer * inner; }
};

Lines lines_of(const Shape& shape, int64_t axis) {
  const int rank = shape.rank();
  const int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  Lines lines;
  for (int i = 0; i < rank; ++i) {
    if (i < a) lines.outer *= shape[i];
    if (i > a) lines.inner *= shape[i];
  }
  lines.extent = shape[a];
  return lines;
}

// Quarters, in which ties are common: the tie rule is part of the op.
std::vector<ReferenceCase> arg_cases(bool largest, DType type, RandomValues& random) {
  const std::vector<AxisCall> calls = {
      {{3, 4, 5}, {}, {}},
      {{3, 4, 5}, 1, false},
      {{3, 4, 5}, -1, {}, true},
      {{2, 33}, 1, true},
      {{33, 2}, 0, false, true},
      {{7}, {}, false},
      {{1}, {}, {}},
      {{0, 3}, 1, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const AxisCall& call : calls) {
    ReferenceCase arg;
    arg.inputs = {random.tensor(type, call.shape, ValueRange::kQuarters)};
    if (call.axis) arg.attrs.set("axis", *call.axis);
    if (call.flag) arg.attrs.set("keepdims", *call.flag);
    if (call.select_last_index) arg.attrs.set("select_last_index", true);
    const Lines lines = lines_of(call.shape, call.axis.value_or(0));
    Shape out_shape;
    const int rank = call.shape.rank();
    const int64_t axis = call.axis.value_or(0) < 0 ? *call.axis + rank : call.axis.value_or(0);
    for (int i = 0; i < rank; ++i) {
      if (i != axis) out_shape.push_back(call.shape[i]);
      if (i == axis && call.flag.value_or(true)) out_shape.push_back(1);
    }
    arg.expected = empty_reference(DType::kI64, out_shape);
    const std::vector<double>& x = arg.inputs[0].values;
    for (int64_t line = 0; line < lines.count(); ++line) {
      int64_t best = 0;
      for (int64_t k = 1; k < lines.extent; ++k) {
        const double value = x[static_cast<size_t>(lines.at(line, k))];
        const double held = x[static_cast<size_t>(lines.at(line, best))];
        const bool better = largest ? value > held : value < held;
        if (better || (value == held && call.select_last_index)) best = k;
      }
      arg.expected.values.push_back(static_cast<double>(best));
    }
    cases.push_back(std::move(arg));
  }
  return cases;
}

// Moderate inputs, and one wide case where exp(x) overflows every float dtype unless the
// line's maximum is subtracted first.
std::vector<ReferenceCase> softmax_like(bool log, DType type, RandomValues& random) {
  struct Call {
    Shape shape;
    std::optional<int64_t> axis;
    ValueRange range;
  };
  const std::vector<Call> calls = {
      {{3, 4, 5}, {}, ValueRange::kModerate},
      {{3, 4, 5}, 1, ValueRange::kModerate},
      {{3, 4, 5}, 0, ValueRange::kModerate},
      {{2, 3}, -2, ValueRange::kModerate},
      {{4, 40}, {}, ValueRange::kWide},
      {{7}, {}, ValueRange::kModerate},
      {{1}, 0, ValueRange::kModerate},
      {{0, 3}, {}, ValueRange::kModerate},
  };
  std::vector<ReferenceCase> cases;
  for (const Call& call : calls) {
    ReferenceCase softmax;
    softmax.inputs = {random.tensor(type, call.shape, call.range)};
    if (call.axis) softmax.attrs.set("axis", *call.axis);
    const Lines lines = lines_of(call.shape, call.axis.value_or(-1));
    const std::vector<double>& x = softmax.inputs[0].values;
    softmax.expected = empty_reference(type, call.shape);
    softmax.expected.values.assign(x.size(), 0.0);
    for (int64_t line = 0; line < lines.count(); ++line) {
      double max = -INFINITY;
      for (int64_t k = 0; k < lines.extent; ++k) {
        max = std::fmax(max, x[static_cast<size_t>(lines.at(line, k))]);
      }
      double total = 0;
      for (int64_t k = 0; k < lines.extent; ++k) {
        total += std::exp(x[static_cast<size_t>(lines.at(line, k))] - max);
      }
      for (int64_t k = 0; k < lines.extent; ++k) {
        const auto i = static_cast<size_t>(lines.at(line, k));
        softmax.expected.values[i] =
            log ? x[i] - max - std::log(total) : std::exp(x[i] - max) / total;
      }
    }
    softmax.tolerance = reduction_tolerance(type, lines.extent);
    cases.push_back(std::move(softmax));
  }
  return cases;
}

struct CumSumCall {
  Shape shape;
  int64_t axis;
  bool exclusive = false;
  bool reverse = false;
};

}  // namespace

std::vector<ReferenceCase> cum_sum_cases(DType type, DType, RandomValues& random) {
  const std::vector<CumSumCall> calls = {
      {{3, 4, 5}, 1},
      {{3, 4, 5}, -1, true},
      {{3, 4, 5}, 0, false, true},
      {{2, 40}, 1, true, true},
      {{7}, 0},
      {{1}, 0, true},
      {{0, 3}, 1},
      {{3, 0}, 0, false, true},
  };
  std::vector<ReferenceCase> cases;
  for (const CumSumCall& call : calls) {
    ReferenceCase cum_sum;
    cum_sum.inputs = {random.tensor(type, call.shape)};
    cum_sum.attrs.set("axis", call.axis);
    if (call.exclusive) cum_sum.attrs.set("exclusive", true);
    if (call.reverse) cum_sum.attrs.set("reverse", true);
    const Lines lines = lines_of(call.shape, call.axis);
    const std::vector<double>& x = cum_sum.inputs[0].values;
    cum_sum.expected = empty_reference(type, call.shape);
    cum_sum.expected.values.assign(x.size(), 0.0);
    for (int64_t line = 0; line < lines.count(); ++line) {
      double total = 0;
      for (int64_t step = 0; step < lines.extent; ++step) {
        const int64_t k = call.reverse ? lines.extent - 1 - step : step;
        const auto i = static_cast<size_t>(lines.at(line, k));
        if (!call.exclusive) total += x[i];
        cum_sum.expected.values[i] = total;
        if (call.exclusive) total += x[i];
      }
    }
    cum_sum.tolerance = reduction_tolerance(type, lines.extent);
    cases.push_back(std::move(cum_sum));
  }
  return cases;
}

std::vector<ReferenceCase> arg_max_cases(DType type, DType, RandomValues& random) {
  return arg_cases(true, type, random);
}

std::vector<ReferenceCase> arg_min_cases(DType type, DType, RandomValues& random) {
  return arg_cases(false, type, random);
}

std::vector<ReferenceCase> softmax_cases(DType type, DType, RandomValues& random) {
  return softmax_like(false, type, random);
}

std::vector<ReferenceCase> log_softmax_cases(DType type, DType, RandomValues& random) {
  return softmax_like(true, type, random);
}

}  // namespace hxrt::detail
