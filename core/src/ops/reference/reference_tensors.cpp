#include "ops/reference/reference_tensors.hpp"

#include <algorithm>
#include <cmath>

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

bool is_integer(DType dtype) { return dtype == DType::kI32 || dtype == DType::kI64; }

double round_to(double value, DType dtype) {
  switch (dtype) {
    case DType::kF32: return static_cast<float>(value);
    case DType::kF16: return hxcommon::f16_to_double(hxcommon::f16_from_double(value));
    case DType::kBF16: return hxcommon::bf16_to_double(hxcommon::bf16_from_double(value));
    case DType::kI32:
    case DType::kI64: return std::trunc(value);
    case DType::kBool: return value != 0 ? 1 : 0;
    case DType::kF64: break;
  }
  return value;
}

ReferenceTensor empty_reference(DType dtype, const Shape& shape) {
  ReferenceTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = shape;
  tensor.values.reserve(static_cast<size_t>(shape.num_elements()));
  return tensor;
}

}  // namespace hxrt::detail
