// Cases of Cast, Fill and Identity.
#include <cmath>

#include "reference/array_ops.hpp"
#include "reference/case_builders.hpp"

namespace hxrt_conformance {
namespace {

const std::vector<Shape>& moving_shapes() {
  static const std::vector<Shape> shapes = {{3, 5}, {}, {1}, {0}, {0, 2}, {2, 3, 4}, {40}};
  return shapes;
}

// A shape of each rank from 0 to HX_MAX_RANK, then an empty one.
std::vector<Shape> fill_shapes() {
  static const int64_t kExtents[HX_MAX_RANK] = {2, 3, 1, 2, 1, 2, 1, 3};
  std::vector<Shape> shapes;
  for (int rank = 0; rank <= HX_MAX_RANK; ++rank) {
    shapes.emplace_back(kExtents, kExtents + rank);
  }
  shapes.push_back({0, 3});
  return shapes;
}

}  // namespace

std::vector<KernelCase> cast_cases(hx_dtype dtype, hx_dtype output_dtype, RandomInputs& random) {
  std::vector<KernelCase> cases;
  for (const Shape& shape : moving_shapes()) {
    // Wide values of both signs, zeros among them: conversions to the integer types truncate
    // fractions, bool sees zeros and non-zeros, f16 and bf16 round.
    HostTensor x = random.tensor(dtype, shape, ValueRange::kWide);
    HostTensor expected = cast_reference(x, output_dtype);
    cases.push_back({{std::move(x)},
                     {{"dtype", output_dtype}},
                     std::move(expected),
                     element_tolerance(output_dtype)});
  }
  return cases;
}

std::vector<KernelCase> fill_cases(hx_dtype dtype, RandomInputs& random) {
  std::vector<KernelCase> cases;
  for (const Shape& shape : fill_shapes()) {
    // Whole values for the integer types, whose conversion truncates: the check is about
    // filling, and Cast's cases cover conversion.
    double value = random.uniform(-10, 10);
    if (is_integer_dtype(dtype)) value = std::round(value * 10);
    if (dtype == HX_DTYPE_BOOL) value = cases.size() % 2 == 0 ? 1 : 0;
    KernelAttrs attrs = {{"shape", shape}, {"value", value}, {"dtype", dtype}};
    cases.push_back(
        {{}, std::move(attrs), fill_reference(shape, value, dtype), element_tolerance(dtype)});
  }
  // The core passes an int where a user wrote one (Fill's value 1), and leaves out the
  // optional dtype when it is the default, f32.
  KernelAttrs whole_value = {{"shape", Shape{2, 2}}, {"value", int64_t{1}}, {"dtype", dtype}};
  if (dtype == HX_DTYPE_F32) whole_value.erase("dtype");
  cases.push_back(
      {{}, std::move(whole_value), fill_reference({2, 2}, 1, dtype), element_tolerance(dtype)});
  return cases;
}

std::vector<KernelCase> identity_cases(hx_dtype dtype, RandomInputs& random) {
  std::vector<KernelCase> cases;
  for (const Shape& shape : moving_shapes()) {
    HostTensor x = random.tensor(dtype, shape, ValueRange::kWide);
    HostTensor expected = identity_reference(x);
    // A copy is exact whatever the dtype.
    cases.push_back({{std::move(x)}, {}, std::move(expected), Tolerance{0}});
  }
  return cases;
}

}  // namespace hxrt_conformance
