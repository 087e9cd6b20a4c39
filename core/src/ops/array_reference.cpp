// Reference cases of the ops that move or convert values without arithmetic: Cast, Identity
// and Fill.
#include <cmath>
#include <utility>

#include <hxcommon/element_values.hpp>

#include "ops/builtin_op_families.hpp"
#include "ops/reference/random_values.hpp"
#include "ops/reference/reference_tensors.hpp"
#include "ops/reference/tolerances.hpp"

namespace hxrt::detail {
namespace {

const std::vector<Shape>& moving_shapes() {
  static const std::vector<Shape> shapes = {{3, 5}, {}, {1}, {0}, {0, 2}, {2, 3, 4}, {40}};
  return shapes;
}

// A shape of each rank from 0 to the most, then an empty one.
std::vector<Shape> fill_shapes() {
  static const int64_t kExtents[Shape::kMaxRank] = {2, 3, 1, 2, 1, 2, 1, 3};
  std::vector<Shape> shapes;
  for (int rank = 0; rank <= Shape::kMaxRank; ++rank) shapes.emplace_back(kExtents, rank);
  shapes.push_back({0, 3});
  return shapes;
}

// A tensor of `shape` and `dtype` whose every element is `value` converted as Cast converts.
ReferenceTensor filled(const Shape& shape, double value, DType dtype) {
  ReferenceTensor out = empty_reference(dtype, shape);
  out.values.assign(static_cast<size_t>(shape.num_elements()), round_to(value, dtype));
  return out;
}

// x's values cast to an 8-bit float `dtype`, as Cast with `saturate`.
ReferenceTensor float8_values(const ReferenceTensor& x, DType dtype, bool saturate) {
  ReferenceTensor out = empty_reference(dtype, x.shape);
  for (double value : x.values) {
    uint8_t bits = 0;
    hxcommon::element_from_double(value, static_cast<int32_t>(dtype), &bits, 0, saturate);
    out.values.push_back(hxcommon::element_to_double(&bits, static_cast<int32_t>(dtype), 0));
  }
  return out;
}

}  // namespace

std::vector<ReferenceCase> cast_cases(DType type, DType output_type, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : moving_shapes()) {
    // Wide values of both signs, zeros among them: conversions to the integer types truncate
    // fractions (and wrap from a wider integer type, and saturate from a floating one), bool
    // sees zeros and non-zeros, f16 and bf16 round.
    ReferenceCase cast;
    cast.inputs = {random.tensor(type, shape, ValueRange::kWide)};
    cast.attrs.set("dtype", output_type);
    cast.expected = empty_reference(output_type, shape);
    for (double value : cast.inputs[0].values) {
      cast.expected.values.push_back(is_floating(type) ? saturate_to(value, output_type)
                                                       : round_to(value, output_type));
    }
    cast.tolerance = element_tolerance(output_type);
    cases.push_back(std::move(cast));
  }
  if (is_float8(output_type) && is_floating(type) && !is_float8(type)) {
    // Beyond the 8-bit float's largest value (448 for e4m3fn, 240 for e4m3fnuz, 57344 for the
    // e5m2s; f16's 1e5 is infinity): saturated to it by default, and with saturate 0 infinity
    // for e5m2 (the other dtypes give NaN there, which no case can expect: the CPU's tests
    // check it). Values within range are rounded alike either way.
    const std::vector<double> wide = {1e5, -1e5, 1000, -470, 300, 60000, 0.3, -0.0};
    const std::vector<double> within = {200, -200, 0.3, -0.0, 0.0012, 17, 100, -3.75};
    for (const bool saturate : {true, false}) {
      if (!saturate && output_type != DType::kF8E5M2) continue;
      ReferenceCase cast;
      cast.inputs = {empty_reference(type, {8})};
      for (double value : wide) cast.inputs[0].values.push_back(round_to(value, type));
      cast.attrs = {{"dtype", output_type}, {"saturate", int64_t{saturate ? 1 : 0}}};
      cast.expected = float8_values(cast.inputs[0], output_type, saturate);
      cases.push_back(std::move(cast));
    }
    ReferenceCase unsaturated;
    unsaturated.inputs = {empty_reference(type, {8})};
    for (double value : within) unsaturated.inputs[0].values.push_back(round_to(value, type));
    unsaturated.attrs = {{"dtype", output_type}, {"saturate", int64_t{0}}};
    unsaturated.expected = float8_values(unsaturated.inputs[0], output_type, false);
    cases.push_back(std::move(unsaturated));
  }
  return cases;
}

std::vector<ReferenceCase> identity_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : moving_shapes()) {
    ReferenceCase identity;
    identity.inputs = {random.tensor(type, shape, ValueRange::kWide)};
    identity.expected = identity.inputs[0];
    identity.tolerance = 0;  // a copy is exact whatever the dtype
    cases.push_back(std::move(identity));
  }
  return cases;
}

std::vector<ReferenceCase> fill_cases(DType type, DType, RandomValues& random) {
  std::vector<ReferenceCase> cases;
  for (const Shape& shape : fill_shapes()) {
    // Whole values for the integer types, whose conversion truncates: the check is about
    // filling, and Cast's cases cover conversion.
    double value = random.uniform(-10, 10);
    if (is_integer(type)) value = std::round(value * 10);
    if (is_unsigned(type)) value = std::abs(value);
    if (type == DType::kBool) value = cases.size() % 2 == 0 ? 1 : 0;
    ReferenceCase fill;
    fill.attrs = {{"shape", shape.to_vector()}, {"value", value}, {"dtype", type}};
    fill.expected = filled(shape, value, type);
    fill.tolerance = element_tolerance(type);
    cases.push_back(std::move(fill));
  }
  // The core passes an int where a user wrote one (Fill's value 1), and leaves out the
  // optional dtype when it is the default, f32.
  ReferenceCase whole_value;
  whole_value.attrs = {{"shape", std::vector<int64_t>{2, 2}}, {"value", int64_t{1}}};
  if (type != DType::kF32) whole_value.attrs.set("dtype", type);
  whole_value.expected = filled({2, 2}, 1, type);
  whole_value.tolerance = element_tolerance(type);
  cases.push_back(std::move(whole_value));
  return cases;
}

}  // namespace hxrt::detail
