// The references of the ops that move elements without arithmetic (the shape and indexing
// families): each output element is picked by its coordinates, from an input or a fill value.
#pragma once

#include <cstdint>
#include <vector>

#include "hxrt/op_reference.hpp"
#include "ops/reference/reference_tensors.hpp"

namespace hxrt::detail {

using Coordinates = std::vector<int64_t>;

// The row-major index of the element at `at` in a tensor of `shape`.
inline int64_t row_major(const Shape& shape, const Coordinates& at) {
  int64_t index = 0;
  for (int axis = 0; axis < shape.rank(); ++axis) {
    index = index * shape[axis] + at[static_cast<size_t>(axis)];
  }
  return index;
}

// x's element at `at`.
inline double element_at(const ReferenceTensor& x, const Coordinates& at) {
  return x.values[static_cast<size_t>(row_major(x.shape, at))];
}

// Calls visit(coordinate) for each coordinate of `shape`, in row-major order.
template <class Visit>
void for_each_coordinate(const Shape& shape, Visit visit) {
  const int64_t count = shape.num_elements();
  Coordinates at(static_cast<size_t>(shape.rank()), 0);
  for (int64_t i = 0; i < count; ++i) {
    visit(static_cast<const Coordinates&>(at));
    for (int axis = shape.rank(); axis-- > 0;) {  // the next row-major coordinate
      if (++at[static_cast<size_t>(axis)] < shape[axis]) break;
      at[static_cast<size_t>(axis)] = 0;
    }
  }
}

// A tensor of `dtype` and `shape` whose element at each coordinate is value(coordinate).
template <class Value>
ReferenceTensor picked(DType dtype, const Shape& shape, Value value) {
  ReferenceTensor out = empty_reference(dtype, shape);
  for_each_coordinate(shape, [&](const Coordinates& at) { out.values.push_back(value(at)); });
  return out;
}

}  // namespace hxrt::detail
