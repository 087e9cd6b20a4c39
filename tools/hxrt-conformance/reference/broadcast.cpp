#include "reference/broadcast.hpp"

#include <algorithm>

namespace hxrt_conformance {

Shape broadcast_shape(const Shape& x, const Shape& y) {
  const size_t rank = std::max(x.size(), y.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t x_extent = i < x.size() ? x[x.size() - 1 - i] : 1;
    const int64_t y_extent = i < y.size() ? y[y.size() - 1 - i] : 1;
    out[rank - 1 - i] = x_extent == 1 ? y_extent : x_extent;
  }
  return out;
}

Shape broadcast_strides(const Shape& input, const Shape& output) {
  const Shape dense = dense_strides(input);
  Shape strides(output.size(), 0);
  const size_t missing = output.size() - input.size();
  for (size_t axis = missing; axis < output.size(); ++axis) {
    const size_t own = axis - missing;
    strides[axis] = input[own] == 1 && output[axis] != 1 ? 0 : dense[own];
  }
  return strides;
}

int64_t strided_offset(int64_t index, const Shape& shape, const Shape& strides) {
  int64_t offset = 0;
  for (size_t axis = shape.size(); axis-- > 0;) {
    offset += index % shape[axis] * strides[axis];
    index /= shape[axis];
  }
  return offset;
}

bool op_broadcasts(const std::string& op) {
  return op == "Add" || op == "Sub" || op == "Mul" || op == "Div";
}

}  // namespace hxrt_conformance
