// Reference cases of the shape family (shape_ops.cpp). The output shapes are written out by
// hand, independently of shape inference; the values are x's own, so every case is exact.
#include <optional>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {
namespace {

struct ShapeCall {
  Shape input;
  Attrs attrs;
  Shape output;
};

// Reshape, Flatten, Squeeze and Unsqueeze: x's elements in the same order, in another shape.
std::vector<ReferenceCase> same_order_cases(const std::vector<ShapeCall>& calls, DType type,
                                            RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const ShapeCall& call : calls) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.input, ValueRange::kWide)};
    c.attrs = call.attrs;
    c.expected = c.inputs[0];
    c.expected.shape = call.output;
    cases.push_back(std::move(c));
  }
  return cases;
}

using Ints = std::vector<int64_t>;

}  // namespace

std::vector<ReferenceCase> reshape_cases(DType type, DType, RandomValues& random) {
  return same_order_cases(
      {
          {{2, 3, 4}, {{"shape", Ints{4, 6}}}, {4, 6}},
          {{2, 3, 4}, {{"shape", Ints{0, -1}}}, {2, 12}},
          {{2, 3, 4}, {{"shape", Ints{-1}}}, {24}},
          {{2, 3, 4}, {{"shape", Ints{2, 0, -1}}, {"allowzero", false}}, {2, 3, 4}},
          {{}, {{"shape", Ints{1, 1}}}, {1, 1}},
          {{1}, {{"shape", Ints{}}}, {}},
          {{0, 3}, {{"shape", Ints{3, -1}}}, {3, 0}},
          {{0, 3}, {{"shape", Ints{0, 5}}, {"allowzero", true}}, {0, 5}},
          {{40}, {{"shape", Ints{2, 2, 2, 5}}}, {2, 2, 2, 5}},
      },
      type, random);
}

std::vector<ReferenceCase> flatten_cases(DType type, DType, RandomValues& random) {
  return same_order_cases(
      {
          {{2, 3, 4}, {}, {2, 12}},
          {{2, 3, 4}, {{"axis", int64_t{0}}}, {1, 24}},
          {{2, 3, 4}, {{"axis", int64_t{3}}}, {24, 1}},
          {{2, 3, 4}, {{"axis", int64_t{-1}}}, {6, 4}},
          {{}, {{"axis", int64_t{0}}}, {1, 1}},
          {{0, 3}, {}, {0, 3}},
          {{2, 0, 3}, {{"axis", int64_t{2}}}, {0, 3}},
      },
      type, random);
}

std::vector<ReferenceCase> squeeze_cases(DType type, DType, RandomValues& random) {
  return same_order_cases(
      {
          {{1, 3, 1, 2}, {}, {3, 2}},
          {{1, 3, 1, 2}, {{"axes", Ints{0}}}, {3, 1, 2}},
          {{1, 3, 1, 2}, {{"axes", Ints{-2, 0}}}, {3, 2}},
          {{1}, {}, {}},
          {{}, {}, {}},
          {{0, 1}, {{"axes", Ints{1}}}, {0}},
          {{3, 2}, {}, {3, 2}},
      },
      type, random);
}

std::vector<ReferenceCase> unsqueeze_cases(DType type, DType, RandomValues& random) {
  return same_order_cases(
      {
          {{3, 2}, {{"axes", Ints{0}}}, {1, 3, 2}},
          {{3, 2}, {{"axes", Ints{-1}}}, {3, 2, 1}},
          {{3, 2}, {{"axes", Ints{3, 1}}}, {3, 1, 2, 1}},
          {{}, {{"axes", Ints{0, 1}}}, {1, 1}},
          {{0}, {{"axes", Ints{0}}}, {1, 0}},
          {{3, 2}, {{"axes", Ints{}}}, {3, 2}},
      },
      type, random);
}

std::vector<ReferenceCase> transpose_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<Shape, std::optional<Ints>>> calls = {
      {{2, 3, 4}, std::nullopt},
      {{2, 3, 4}, Ints{0, 2, 1}},
      {{2, 3, 4}, Ints{2, 0, 1}},
      {{}, std::nullopt},
      {{5}, Ints{0}},
      {{0, 3}, std::nullopt},
      {{2, 3, 2, 3, 2}, Ints{4, 2, 0, 3, 1}},
      {{17, 33}, std::nullopt},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, given] : calls) {
    Ints perm;
    for (int axis = shape.rank(); axis-- > 0;) perm.push_back(axis);
    if (given) perm = *given;
    Shape output;
    for (int64_t axis : perm) output.push_back(shape[static_cast<int>(axis)]);
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape, ValueRange::kWide)};
    if (given) c.attrs.set("perm", *given);
    const ReferenceTensor& x = c.inputs[0];
    c.expected = picked(type, output, [&](const Coordinates& at) {
      Coordinates from(at.size());
      for (size_t i = 0; i < perm.size(); ++i) from[static_cast<size_t>(perm[i])] = at[i];
      return element_at(x, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> expand_cases(DType type, DType, RandomValues& random) {
  const std::vector<ShapeCall> calls = {
      {{3, 1}, {{"shape", Ints{2, 1, 4}}}, {2, 3, 4}},
      {{}, {{"shape", Ints{2, 3}}}, {2, 3}},
      {{2, 3}, {{"shape", Ints{1, 1}}}, {2, 3}},
      {{2, 3}, {{"shape", Ints{3}}}, {2, 3}},
      {{3}, {{"shape", Ints{0, 1}}}, {0, 3}},
      {{1}, {{"shape", Ints{}}}, {1}},
      {{1, 5, 1}, {{"shape", Ints{4, 1, 3}}}, {4, 5, 3}},
  };
  std::vector<ReferenceCase> cases;
  for (const ShapeCall& call : calls) {
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.input, ValueRange::kWide)};
    c.attrs = call.attrs;
    const ReferenceTensor& x = c.inputs[0];
    const int missing = call.output.rank() - call.input.rank();
    c.expected = picked(type, call.output, [&](const Coordinates& at) {
      Coordinates from;
      for (int axis = 0; axis < call.input.rank(); ++axis) {
        from.push_back(call.input[axis] == 1 ? 0 : at[static_cast<size_t>(axis + missing)]);
      }
      return element_at(x, from);
    });
    c.broadcast = call.input != call.output;
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> tile_cases(DType type, DType, RandomValues& random) {
  const std::vector<std::pair<Shape, Ints>> calls = {
      {{2, 3}, {2, 2}}, {{2, 3}, {1, 3}}, {{}, {}},         {{3}, {0}},
      {{0, 2}, {3, 1}}, {{2, 1, 3}, {1, 4, 2}}, {{1}, {5}},
  };
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, repeats] : calls) {
    Shape output;
    for (int axis = 0; axis < shape.rank(); ++axis) {
      output.push_back(shape[axis] * repeats[static_cast<size_t>(axis)]);
    }
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape, ValueRange::kWide)};
    c.attrs.set("repeats", repeats);
    const ReferenceTensor& x = c.inputs[0];
    c.expected = picked(type, output, [&, &shape = shape](const Coordinates& at) {
      Coordinates from;
      for (int axis = 0; axis < shape.rank(); ++axis) {
        from.push_back(at[static_cast<size_t>(axis)] % shape[axis]);
      }
      return element_at(x, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace hxrt::detail
