#include "ops/reference/reduced_sets.hpp"

#include "ops/reference/reference_tensors.hpp"

namespace hxrt::detail {

std::vector<std::vector<double>> reduced_sets(const ReferenceTensor& x,
                                              const std::vector<bool>& reduced) {
  // The output's shape with every reduced axis kept at extent 1: the same elements in the
  // same order as the output proper, and easy to index.
  Shape kept_shape;
  for (int axis = 0; axis < x.shape.rank(); ++axis) {
    kept_shape.push_back(reduced[static_cast<size_t>(axis)] ? 1 : x.shape[axis]);
  }
  std::vector<std::vector<double>> sets(static_cast<size_t>(kept_shape.num_elements()));
  const Strides kept_strides = dense_strides(kept_shape);
  std::vector<int64_t> index(static_cast<size_t>(x.shape.rank()), 0);
  for (double value : x.values) {
    int64_t target = 0;
    for (size_t axis = 0; axis < index.size(); ++axis) {
      if (!reduced[axis]) target += index[axis] * kept_strides[axis];
    }
    sets[static_cast<size_t>(target)].push_back(value);
    for (int axis = x.shape.rank(); axis-- > 0;) {  // the next row-major index
      if (++index[static_cast<size_t>(axis)] < x.shape[axis]) break;
      index[static_cast<size_t>(axis)] = 0;
    }
  }
  return sets;
}

}  // namespace hxrt::detail
