#include "reference/broadcast.hpp"

namespace hxrt_conformance {

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

}  // namespace hxrt_conformance
