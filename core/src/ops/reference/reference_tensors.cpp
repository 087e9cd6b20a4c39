#include "ops/reference/reference_tensors.hpp"

#include <algorithm>
#include <cmath>

#include <hxcommon/element_values.hpp>
#include <hxcommon/float_formats.hpp>

namespace hxrt::detail {

Strides dense_strides(const Shape& shape) {
  Strides strides(static_cast<size_t>(shape.rank()));
  int64_t stride = 1;
  for (int axis = shape.rank(); axis-- > 0;) {
    strides[static_cast<size_t>(axis)] = stride;
    stride *= shape[axis];
  }
  return strides;
}

Shape broadcast_shape(const Shape& x, const Shape& y) {
  const int rank = std::max(x.rank(), y.rank());
  Shape out;
  for (int axis = 0; axis < rank; ++axis) {
    const int x_axis = axis - (rank - x.rank());
    const int y_axis = axis - (rank - y.rank());
    const int64_t x_extent = x_axis >= 0 ? x[x_axis] : 1;
    const int64_t y_extent = y_axis >= 0 ? y[y_axis] : 1;
    out.push_back(x_extent == 1 ? y_extent : x_extent);
  }
  return out;
}

Strides broadcast_strides(const Shape& input, const Shape& output) {
  const Strides dense = dense_strides(input);
  Strides strides(static_cast<size_t>(output.rank()), 0);
  const int missing = output.rank() - input.rank();
  for (int axis = missing; axis < output.rank(); ++axis) {
    const int own = axis - missing;
    const bool repeats = input[own] == 1 && output[axis] != 1;
    strides[static_cast<size_t>(axis)] = repeats ? 0 : dense[static_cast<size_t>(own)];
  }
  return strides;
}

int64_t strided_offset(int64_t index, const Shape& shape, const Strides& strides) {
  int64_t offset = 0;
  for (int axis = shape.rank(); axis-- > 0;) {
    offset += index % shape[axis] * strides[static_cast<size_t>(axis)];
    index /= shape[axis];
  }
  return offset;
}

namespace {

// The lowest value of an integer dtype and the count of its values, 2^bits.
double integer_lowest(DType dtype) {
  return is_unsigned(dtype) ? 0 : -std::ldexp(1.0, static_cast<int>(dtype_size(dtype)) * 8 - 1);
}
double integer_span(DType dtype) {
  return std::ldexp(1.0, static_cast<int>(dtype_size(dtype)) * 8);
}

}  // namespace

double round_to(double value, DType dtype) {
  if (is_integer(dtype)) {
    const double whole = std::trunc(value);
    const double lowest = integer_lowest(dtype);
    const double span = integer_span(dtype);
    // In range: exactly the value. Past 2^53 a double stands for several integers, and the
    // largest values of i64 and u64 (uint64's -5) round up to 2^63 and 2^64: they stay.
    const double end = lowest + span;
    if (whole >= lowest && (whole < end || (span > 0x1p53 && whole == end))) return whole;
    const double offset = std::fmod(whole - lowest, span);
    return lowest + (offset < 0 ? offset + span : offset);
  }
  switch (dtype) {
    case DType::kF32: return static_cast<float>(value);
    case DType::kF16: return hxcommon::f16_to_double(hxcommon::f16_from_double(value));
    case DType::kBF16: return hxcommon::bf16_to_double(hxcommon::bf16_from_double(value));
    case DType::kBool: return value != 0 ? 1 : 0;
    case DType::kF8E4M3FN:
    case DType::kF8E4M3FNUZ:
    case DType::kF8E5M2:
    case DType::kF8E5M2FNUZ: {
      uint8_t bits = 0;
      hxcommon::element_from_double(value, static_cast<int32_t>(dtype), &bits, 0);
      return hxcommon::element_to_double(&bits, static_cast<int32_t>(dtype), 0);
    }
    default: return value;
  }
}

double saturate_to(double value, DType dtype) {
  if (!is_integer(dtype)) return round_to(value, dtype);
  if (std::isnan(value)) return 0;
  const double lowest = integer_lowest(dtype);
  // The highest value, as the double a kernel's saturated result reads back as.
  const double highest = lowest + integer_span(dtype) - 1;
  return std::clamp(std::trunc(value), lowest, highest);
}

ReferenceTensor empty_reference(DType dtype, const Shape& shape) {
  ReferenceTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = shape;
  tensor.values.reserve(static_cast<size_t>(shape.num_elements()));
  return tensor;
}

}  // namespace hxrt::detail
