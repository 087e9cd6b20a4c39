// Reference cases of the indexing family (indexing_ops.cpp). Indices are drawn from the whole
// valid range, negative ones included, as int32 in some cases and int64 in others. Output
// shapes are written out by hand, and Slice's clamping is recomputed here element by element,
// independently of the rule shape inference and kernels share.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

using Ints = std::vector<int64_t>;
constexpr int64_t kMost = std::numeric_limits<int64_t>::max();
constexpr int64_t kLeast = std::numeric_limits<int64_t>::min();

// Indices of `dtype` and `shape`, each from -extent to extent-1 (extent > 0).
ReferenceTensor random_indices(DType dtype, const Shape& shape, int64_t extent,
                               RandomValues& random) {
  ReferenceTensor indices = empty_reference(dtype, shape);
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    const double drawn = std::floor(random.uniform(-static_cast<double>(extent),
                                                   static_cast<double>(extent)));
    indices.values.push_back(std::min(drawn, static_cast<double>(extent - 1)));
  }
  return indices;
}

int64_t from_end(double index, int64_t extent) {
  const auto whole = static_cast<int64_t>(index);
  return whole < 0 ? whole + extent : whole;
}

// The indices along one axis that Slice takes, stepping one at a time from the clamped start.
Ints slice_positions(int64_t extent, int64_t start, int64_t end, int64_t step) {
  if (extent == 0) return {};
  start = start < 0 ? start + extent : start;
  end = end < 0 ? end + extent : end;
  const int64_t low = step > 0 ? 0 : -1;
  const int64_t high = step > 0 ? extent : extent - 1;
  start = std::max(std::min(start, step > 0 ? extent : extent - 1), int64_t{0});
  end = std::max(std::min(end, high), low);
  Ints positions;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) positions.push_back(i);
  return positions;
}

struct SliceCall {
  Shape input;
  Ints starts;
  Ints ends;
  std::optional<Ints> axes;
  std::optional<Ints> steps;
};

}  // namespace

std::vector<ReferenceCase> concat_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::tuple<std::vector<Shape>, int64_t, Shape>> calls = {
      {{{2, 3}, {2, 5}}, 1, {2, 8}},
      {{{2, 3}, {1, 3}, {3, 3}}, 0, {6, 3}},
      {{{2, 3}, {2, 3}}, -1, {2, 6}},
      {{{4}}, 0, {4}},
      {{{0, 3}, {2, 3}}, 0, {2, 3}},
      {{{2, 0}, {2, 0}}, 1, {2, 0}},
      {{{2, 3, 4}, {2, 1, 4}, {2, 2, 4}}, -2, {2, 6, 4}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shapes, given_axis, output] : calls) {
    ReferenceCase c;
    for (const Shape& shape : shapes) c.inputs.push_back(random.tensor(type, shape));
    c.attrs.set("axis", given_axis);
    const size_t axis = static_cast<size_t>(given_axis < 0 ? given_axis + output.rank()
                                                           : given_axis);
    const std::vector<ReferenceTensor>& inputs = c.inputs;
    c.expected = picked(type, output, [&](const Coordinates& at) {
      Coordinates from = at;
      size_t input = 0;
      while (from[axis] >= inputs[input].shape[static_cast<int>(axis)]) {
        from[axis] -= inputs[input++].shape[static_cast<int>(axis)];
      }
      return element_at(inputs[input], from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> slice_cases(DType type, DType, RandomValues& random) {
  const std::vector<SliceCall> calls = {
      {{5, 6}, {1, 2}, {4, 5}, {}, {}},
      {{5, 6}, {0}, {-1}, Ints{1}, {}},
      {{5, 6}, {-1}, {kLeast}, Ints{0}, Ints{-1}},
      {{5, 6}, {0, 1}, {kMost, 1000}, Ints{1, 0}, Ints{2, 3}},
      {{10}, {8}, {1}, {}, Ints{-3}},
      {{10}, {-3}, {-8}, {}, Ints{-2}},
      {{4, 4}, {5}, {10}, {}, {}},
      {{0, 3}, {0}, {1}, {}, {}},
      {{3, 4, 5}, {-100, 1}, {100, -1}, Ints{2, -2}, Ints{1, 1}},
      {{3, 4}, {kMost}, {kLeast}, Ints{1}, Ints{kLeast}},
  };
  std::vector<ReferenceCase> cases;
  for (const SliceCall& call : calls) {
    const int rank = call.input.rank();
    std::vector<Ints> positions;
    for (int axis = 0; axis < rank; ++axis) {
      positions.push_back(slice_positions(call.input[axis], 0, call.input[axis], 1));
    }
    for (size_t i = 0; i < call.starts.size(); ++i) {
      const int64_t named = call.axes ? (*call.axes)[i] : static_cast<int64_t>(i);
      const auto axis = static_cast<size_t>(named < 0 ? named + rank : named);
      positions[axis] = slice_positions(call.input[static_cast<int>(axis)], call.starts[i],
                                        call.ends[i], call.steps ? (*call.steps)[i] : 1);
    }
    Shape output;
    for (const Ints& taken : positions) output.push_back(static_cast<int64_t>(taken.size()));
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.input, ValueRange::kWide)};
    c.attrs = {{"starts", call.starts}, {"ends", call.ends}};
    if (call.axes) c.attrs.set("axes", *call.axes);
    if (call.steps) c.attrs.set("steps", *call.steps);
    const ReferenceTensor& x = c.inputs[0];
    c.expected = picked(type, output, [&](const Coordinates& at) {
      Coordinates from;
      for (size_t axis = 0; axis < at.size(); ++axis) {
        from.push_back(positions[axis][static_cast<size_t>(at[axis])]);
      }
      return element_at(x, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> gather_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::tuple<Shape, Shape, std::optional<int64_t>, Shape>> calls = {
      {{5, 4}, {3}, {}, {3, 4}},
      {{5, 4}, {2, 3}, 1, {5, 2, 3}},
      {{5, 4}, {}, -1, {5}},
      {{3}, {0}, {}, {0}},
      {{0, 3}, {2}, 1, {0, 2}},
      {{2, 3, 4}, {2, 2}, 1, {2, 2, 2, 4}},
      {{7}, {40}, 0, {40}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [data_shape, indices_shape, given_axis, output] : calls) {
    const int64_t named = given_axis.value_or(0);
    const int axis = static_cast<int>(named < 0 ? named + data_shape.rank() : named);
    const DType index_dtype = cases.size() % 2 == 0 ? DType::kI64 : DType::kI32;
    ReferenceCase c;
    c.inputs = {random.tensor(type, data_shape, ValueRange::kWide),
                random_indices(index_dtype, indices_shape, data_shape[axis], random)};
    if (given_axis) c.attrs.set("axis", *given_axis);
    const ReferenceTensor& data = c.inputs[0];
    const ReferenceTensor& indices = c.inputs[1];
    const int extra = indices_shape.rank();
    c.expected = picked(type, output, [&, &data_shape = data_shape](const Coordinates& at) {
      const auto begin = at.begin() + axis;
      const Coordinates where(begin, begin + extra);
      Coordinates from(at.begin(), begin);
      from.push_back(from_end(element_at(indices, where), data_shape[axis]));
      from.insert(from.end(), begin + extra, at.end());
      return element_at(data, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> gather_elements_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::tuple<Shape, Shape, std::optional<int64_t>>> calls = {
      {{3, 4}, {3, 4}, {}},    {{3, 4}, {2, 3}, 1},         {{3, 4}, {5, 2}, 0},
      {{4}, {6}, {}},          {{2, 3, 4}, {2, 3, 2}, -1},  {{3, 0}, {2, 0}, 0},
      {{3, 4}, {0, 4}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [data_shape, indices_shape, given_axis] : calls) {
    const int64_t named = given_axis.value_or(0);
    const auto axis = static_cast<size_t>(named < 0 ? named + data_shape.rank() : named);
    const DType index_dtype = cases.size() % 2 == 0 ? DType::kI64 : DType::kI32;
    ReferenceCase c;
    c.inputs = {random.tensor(type, data_shape, ValueRange::kWide),
                random_indices(index_dtype, indices_shape,
                               data_shape[static_cast<int>(axis)], random)};
    if (given_axis) c.attrs.set("axis", *given_axis);
    const ReferenceTensor& data = c.inputs[0];
    const ReferenceTensor& indices = c.inputs[1];
    c.expected = picked(type, indices_shape, [&, &data_shape = data_shape](const Coordinates& at) {
      Coordinates from = at;
      from[axis] = from_end(element_at(indices, at), data_shape[static_cast<int>(axis)]);
      return element_at(data, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> scatter_elements_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::tuple<Shape, Shape, std::optional<int64_t>, std::string>> calls = {
      {{3, 4}, {2, 4}, {}, ""},
      {{4, 3}, {3, 3}, 0, "add"},
      {{4, 3}, {3, 3}, 0, "mul"},
      {{4, 3}, {3, 3}, {}, "max"},
      {{4, 3}, {3, 3}, -2, "min"},
      {{5}, {3}, {}, "none"},
      {{2, 3, 4}, {2, 2, 4}, 1, "add"},
      {{3, 0}, {2, 0}, 0, ""},
      {{3, 4}, {3, 2}, 1, "none"},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [data_shape, indices_shape, given_axis, reduction] : calls) {
    const int64_t named = given_axis.value_or(0);
    const auto axis = static_cast<size_t>(named < 0 ? named + data_shape.rank() : named);
    const int64_t extent = data_shape[static_cast<int>(axis)];
    const DType index_dtype = cases.size() % 2 == 0 ? DType::kI64 : DType::kI32;
    ReferenceCase c;
    // Small values: three products of them stay well inside every dtype.
    c.inputs = {random.tensor(type, data_shape), random_indices(index_dtype, indices_shape,
                                                                extent, random),
                random.tensor(type, indices_shape)};
    if (given_axis) c.attrs.set("axis", *given_axis);
    if (!reduction.empty()) c.attrs.set("reduction", reduction);
    ReferenceTensor out = c.inputs[0];
    const ReferenceTensor& indices = c.inputs[1];
    const ReferenceTensor& updates = c.inputs[2];
    // Applies each update in row-major order, in double, rounding once at the end.
    // Init-captures: a lambda may not capture a structured binding itself (C++17).
    for_each_coordinate(indices_shape, [&, &data_shape = data_shape,
                                        &reduction = reduction](const Coordinates& at) {
      Coordinates to = at;
      to[axis] = from_end(element_at(indices, at), extent);
      double& target = out.values[static_cast<size_t>(row_major(data_shape, to))];
      const double update = element_at(updates, at);
      if (reduction == "add") {
        target += update;
      } else if (reduction == "mul") {
        target *= update;
      } else if (reduction == "max") {
        target = std::max(target, update);
      } else if (reduction == "min") {
        target = std::min(target, update);
      } else {
        target = update;
      }
    });
    for (double& value : out.values) value = round_to(value, type);
    c.expected = std::move(out);
    // An element combines with at most as many updates as indices has along the axis.
    c.tolerance = reduction_tolerance(type, indices_shape[static_cast<int>(axis)] + 1);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hxrt::detail
