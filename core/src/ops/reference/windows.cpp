#include "ops/reference/windows.hpp"

#include "base/tensor_meta.hpp"

namespace hxrt::detail {

WindowGeometry case_window(const std::string& op, const ReferenceCase& call,
                           const std::vector<int64_t>& kernel, bool ceil_mode) {
  std::vector<TensorMeta> inputs;
  for (const ReferenceTensor& input : call.inputs) inputs.push_back({input.dtype, input.shape});
  const InferContext context{op, inputs.data(), inputs.size(), call.attrs};
  return window_geometry(context, call.inputs[0].shape, kernel, ceil_mode);
}

Shape windowed_shape(const Shape& x, const WindowGeometry& window) {
  Shape y{x[0], x[1]};
  for (const int64_t extent : window.output) y.push_back(extent);
  return y;
}

std::vector<int64_t> coordinates(int64_t index, const std::vector<int64_t>& extents) {
  std::vector<int64_t> at(extents.size());
  for (size_t axis = extents.size(); axis-- > 0;) {
    at[axis] = index % extents[axis];
    index /= extents[axis];
  }
  return at;
}

int64_t count_of(const std::vector<int64_t>& extents) {
  int64_t count = 1;
  for (const int64_t extent : extents) count *= extent;
  return count;
}

}  // namespace hxrt::detail
