// Reference cases of the layout family (layout_ops.cpp): Pad in every mode, with pads beyond
// the axis, negative pads and listed axes; DepthToSpace in both modes; SpaceToDepth.
#include <optional>
#include <string>
#include <utility>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/moved_elements.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {
namespace {

using Ints = std::vector<int64_t>;

struct PadCall {
  Shape input;
  Ints pads;
  std::string mode;  // "": absent
  std::optional<double> constant_value;
  std::optional<Ints> axes;
};

int64_t modulo(int64_t value, int64_t period) { return (value % period + period) % period; }

// Where output position `at` of an axis of `extent` elements, `begin` of them padded before,
// reads from: an input position, or -1 for the constant.
int64_t pad_source(int64_t at, int64_t begin, int64_t extent, const std::string& mode) {
  const int64_t from = at - begin;
  if (from >= 0 && from < extent) return from;
  if (mode == "edge") return from < 0 ? 0 : extent - 1;
  if (mode == "wrap") return modulo(from, extent);
  if (mode == "reflect") {
    if (extent == 1) return 0;
    const int64_t period = 2 * (extent - 1);  // there and back, without repeating the edges
    const int64_t phase = modulo(from, period);
    return phase < extent ? phase : period - phase;
  }
  return -1;
}

// y[n, c, h, w] of DepthToSpace and SpaceToDepth, as x's channel, row and column.
struct Source {
  int64_t channel;
  int64_t row;
  int64_t column;
};

template <class Rule>
std::vector<ReferenceCase> block_cases(const std::vector<std::pair<Shape, Attrs>>& calls,
                                       DType type, RandomValues& random, Rule rule) {
  std::vector<ReferenceCase> cases;
  for (const auto& [shape, attrs] : calls) {
    const int64_t block = std::get<int64_t>(*attrs.find("blocksize"));
    const AttrValue* mode = attrs.find("mode");
    const bool crd = mode != nullptr && std::get<std::string>(*mode) == "CRD";
    ReferenceCase c;
    c.inputs = {random.tensor(type, shape, ValueRange::kWide)};
    c.attrs = attrs;
    const ReferenceTensor& x = c.inputs[0];
    const Shape output = rule.output(shape, block);
    c.expected = picked(type, output, [&, &shape = shape](const Coordinates& at) {
      const Source from = rule.source(at, shape, output, block, crd);
      return element_at(x, {at[0], from.channel, from.row, from.column});
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

struct DepthToSpaceRule {
  static Shape output(const Shape& x, int64_t b) {
    return {x[0], x[1] / (b * b), x[2] * b, x[3] * b};
  }
  static Source source(const Coordinates& at, const Shape&, const Shape& y, int64_t b,
                       bool crd) {
    const int64_t i = at[2] % b;
    const int64_t j = at[3] % b;
    const int64_t channel = crd ? at[1] * b * b + i * b + j : (i * b + j) * y[1] + at[1];
    return {channel, at[2] / b, at[3] / b};
  }
};

struct SpaceToDepthRule {
  static Shape output(const Shape& x, int64_t b) {
    return {x[0], x[1] * b * b, x[2] / b, x[3] / b};
  }
  static Source source(const Coordinates& at, const Shape& x, const Shape&, int64_t b, bool) {
    const int64_t block = at[1] / x[1];  // i * b + j
    return {at[1] % x[1], at[2] * b + block / b, at[3] * b + block % b};
  }
};

}  // namespace

std::vector<ReferenceCase> pad_cases(DType type, DType, RandomValues& random) {
  const std::vector<PadCall> calls = {
      {{3, 4}, {1, 2, 0, 1}, "", {}, {}},
      {{3, 4}, {1, 2, 1, 2}, "constant", 2.5, {}},
      {{3, 4}, {2, 1, 2, 3}, "reflect", {}, {}},
      {{3, 4}, {0, 3, 1, 5}, "edge", {}, {}},
      {{3, 4}, {4, 2, 3, 6}, "wrap", {}, {}},
      {{3, 4}, {-1, 1, 0, -2}, "", -1.0, {}},
      {{3, 4}, {-1, 2, 0, -2}, "reflect", {}, {}},
      {{2, 3, 4}, {1, 1}, "edge", {}, Ints{-1}},
      {{2, 3, 4}, {0, 2, 1, 0}, "", 7.0, Ints{2, 0}},
      {{}, {}, "", {}, {}},
      {{0, 3}, {1, 0, 1, 0}, "constant", {}, {}},
      {{5}, {7, 7}, "reflect", {}, {}},
      {{1, 4}, {2, 0, 2, 0}, "reflect", {}, {}},
  };
  std::vector<ReferenceCase> cases;
  for (const PadCall& call : calls) {
    const int rank = call.input.rank();
    Ints begins(static_cast<size_t>(rank), 0);
    Ints ends(static_cast<size_t>(rank), 0);
    Ints axes;
    for (int axis = 0; axis < rank; ++axis) axes.push_back(axis);
    if (call.axes) axes = *call.axes;
    for (size_t i = 0; i < axes.size(); ++i) {
      const auto axis = static_cast<size_t>(axes[i] < 0 ? axes[i] + rank : axes[i]);
      begins[axis] = call.pads[i];
      ends[axis] = call.pads[i + axes.size()];
    }
    Shape output;
    for (int axis = 0; axis < rank; ++axis) {
      const auto a = static_cast<size_t>(axis);
      output.push_back(call.input[axis] + begins[a] + ends[a]);
    }
    ReferenceCase c;
    c.inputs = {random.tensor(type, call.input, ValueRange::kWide)};
    c.attrs.set("pads", call.pads);
    if (!call.mode.empty()) c.attrs.set("mode", call.mode);
    if (call.constant_value) c.attrs.set("constant_value", *call.constant_value);
    if (call.axes) c.attrs.set("axes", *call.axes);
    const ReferenceTensor& x = c.inputs[0];
    const std::string mode = call.mode.empty() ? "constant" : call.mode;
    const double constant = saturate_to(call.constant_value.value_or(0), type);
    c.expected = picked(type, output, [&](const Coordinates& at) {
      Coordinates from;
      for (size_t axis = 0; axis < at.size(); ++axis) {
        from.push_back(pad_source(at[axis], begins[axis], call.input[static_cast<int>(axis)],
                                  mode));
        if (from.back() < 0) return constant;
      }
      return element_at(x, from);
    });
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<ReferenceCase> depth_to_space_cases(DType type, DType, RandomValues& random) {
  return block_cases({{{1, 8, 2, 3}, {{"blocksize", int64_t{2}}}},
                      {{1, 8, 2, 3}, {{"blocksize", int64_t{2}}, {"mode", std::string("CRD")}}},
                      {{2, 9, 1, 2}, {{"blocksize", int64_t{3}}, {"mode", std::string("DCR")}}},
                      {{2, 9, 2, 1}, {{"blocksize", int64_t{3}}, {"mode", std::string("CRD")}}},
                      {{1, 4, 0, 2}, {{"blocksize", int64_t{2}}}},
                      {{1, 3, 2, 2}, {{"blocksize", int64_t{1}}}}},
                     type, random, DepthToSpaceRule{});
}

std::vector<ReferenceCase> space_to_depth_cases(DType type, DType, RandomValues& random) {
  return block_cases({{{1, 2, 4, 6}, {{"blocksize", int64_t{2}}}},
                      {{2, 1, 3, 3}, {{"blocksize", int64_t{3}}}},
                      {{1, 2, 0, 4}, {{"blocksize", int64_t{2}}}},
                      {{1, 3, 2, 2}, {{"blocksize", int64_t{1}}}}},
                     type, random, SpaceToDepthRule{});
}

}  // namespace hxrt::detail
