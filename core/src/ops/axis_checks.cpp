#include "ops/axis_checks.hpp"

#include "hxrt/error.hpp"
#include "ops/infer_checks.hpp"

namespace hxrt::detail {

std::string ints_text(const std::vector<int64_t>& values) {
  return attr_value_to_string(AttrValue(values));
}

int resolve_axis(const InferContext& call, const char* attr, int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    if (rank == 0) {
      reject_call(call, std::string("attribute '") + attr + "' names axis " +
                            std::to_string(axis) + ", but the tensor is a scalar, which has none");
    }
    reject_call(call, std::string("attribute '") + attr + "' names axis " +
                          std::to_string(axis) + ", out of range for rank " +
                          std::to_string(rank) + "; an axis is from " + std::to_string(-rank) +
                          " to " + std::to_string(rank - 1));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

std::vector<int> resolve_axes(const InferContext& call, const char* attr,
                              const std::vector<int64_t>& axes, int rank) {
  std::vector<int> resolved;
  std::vector<bool> named(static_cast<size_t>(rank), false);
  for (int64_t axis : axes) {
    const int index = resolve_axis(call, attr, axis, rank);
    if (named[static_cast<size_t>(index)]) {
      reject_call(call, std::string("attribute '") + attr + "' " + ints_text(axes) +
                            " names axis " + std::to_string(index) +
                            " twice (negative axes count from the end)");
    }
    named[static_cast<size_t>(index)] = true;
    resolved.push_back(index);
  }
  return resolved;
}

Shape checked_shape(const InferContext& call, const std::vector<int64_t>& dims,
                    const std::string& what) {
  try {
    return Shape(dims);
  } catch (const Error& error) {
    reject_call(call, what + " " + ints_text(dims) + " is no shape: " + error.what());
  }
}

}  // namespace hxrt::detail
