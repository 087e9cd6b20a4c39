#include "ops/broadcast.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hxrt/error.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

namespace {

// The extent of `shape` on axis `axis` of a result of rank `rank`, aligned at the last axes.
int64_t aligned_extent(const Shape& shape, int rank, int axis) {
  const int own = axis - (rank - shape.rank());
  return own < 0 ? 1 : shape[own];
}

}  // namespace

Shape broadcast_shapes(const InferContext& call, const Shape& x, const Shape& y) {
  const int rank = std::max(x.rank(), y.rank());
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  for (int axis = 0; axis < rank; ++axis) {
    const int64_t a = aligned_extent(x, rank, axis);
    const int64_t b = aligned_extent(y, rank, axis);
    if (a != b && a != 1 && b != 1) {
      reject_call(call, "operands could not be broadcast together with shapes " + x.to_string() +
                            " and " + y.to_string() + ": axis " + std::to_string(axis) +
                            " of the result (" + std::to_string(axis - rank) +
                            " from the end) has extent " + std::to_string(a) + " in the first " +
                            "and " + std::to_string(b) + " in the second; aligned at their " +
                            "last axes, each pair of extents must be equal or one of them 1");
    }
    dims[static_cast<size_t>(axis)] = a == 1 ? b : a;
  }
  try {
    return Shape(dims);
  } catch (const Error& error) {
    reject_call(call, "shapes " + x.to_string() + " and " + y.to_string() +
                          " broadcast to a shape that cannot be made: " + error.what());
  }
}

Shape broadcast_inputs(const InferContext& call) {
  Shape shape = call.inputs[0].shape;
  for (size_t i = 1; i < call.num_inputs; ++i) {
    shape = broadcast_shapes(call, shape, call.inputs[i].shape);
  }
  return shape;
}

void broadcast_strides(const Shape& input, const Shape& output, int64_t* strides) {
  const int rank = output.rank();
  int64_t dense = 1;
  for (int axis = rank - 1; axis >= 0; --axis) {
    const int64_t extent = aligned_extent(input, rank, axis);
    strides[axis] = extent == output[axis] ? dense : 0;
    dense *= extent;
  }
}

}  // namespace hxrt::detail
