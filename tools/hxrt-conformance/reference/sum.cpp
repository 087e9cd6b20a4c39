#include "reference/sum.hpp"

namespace hxrt_conformance {
namespace {

std::vector<bool> reduced_axes(size_t rank, const std::optional<std::vector<int64_t>>& axes) {
  std::vector<bool> reduced(rank, !axes.has_value());
  if (axes) {
    for (int64_t axis : *axes) {
      reduced[static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)] = true;
    }
  }
  return reduced;
}

}  // namespace

HostTensor sum_reference(const HostTensor& x, const std::optional<std::vector<int64_t>>& axes,
                         bool keep_dims) {
  const Shape& in_shape = x.spec.shape;
  const std::vector<bool> reduced = reduced_axes(in_shape.size(), axes);
  Shape out_shape;
  // The output's shape with every reduced axis kept at extent 1: the same elements in the
  // same order as the output proper, and easy to index.
  Shape kept_shape;
  for (size_t axis = 0; axis < in_shape.size(); ++axis) {
    kept_shape.push_back(reduced[axis] ? 1 : in_shape[axis]);
    if (!reduced[axis] || keep_dims) out_shape.push_back(kept_shape.back());
  }
  HostTensor out{{x.spec.dtype, out_shape},
                 std::vector<double>(static_cast<size_t>(element_count(out_shape)), 0.0)};
  const Shape kept_strides = dense_strides(kept_shape);
  Shape index(in_shape.size(), 0);
  for (double value : x.values) {
    int64_t target = 0;
    for (size_t axis = 0; axis < in_shape.size(); ++axis) {
      if (!reduced[axis]) target += index[axis] * kept_strides[axis];
    }
    out.values[static_cast<size_t>(target)] += value;
    for (size_t axis = in_shape.size(); axis-- > 0;) {  // the next row-major index
      if (++index[axis] < in_shape[axis]) break;
      index[axis] = 0;
    }
  }
  return out;
}

int64_t sum_length(const Shape& shape, const std::optional<std::vector<int64_t>>& axes) {
  const std::vector<bool> reduced = reduced_axes(shape.size(), axes);
  int64_t length = 1;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (reduced[axis]) length *= shape[axis];
  }
  return length;
}

}  // namespace hxrt_conformance
