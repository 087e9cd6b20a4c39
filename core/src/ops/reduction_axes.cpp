#include "ops/reduction_axes.hpp"

#include <string>

#include "ops/infer_checks.hpp"

namespace hxrt::detail {
namespace {

std::string list_to_string(const std::vector<int64_t>& values) {
  return attr_value_to_string(AttrValue(values));
}

std::string range_of(int rank) {
  return "from " + std::to_string(-rank) + " to " + std::to_string(rank - 1);
}

}  // namespace

std::vector<bool> checked_axes(const InferContext& call, const Shape& input,
                               const std::vector<int64_t>& axes) {
  const int rank = input.rank();
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t axis : axes) {
    if (rank == 0) {
      reject_call(call, "axes " + list_to_string(axes) + " name axis " + std::to_string(axis) +
                            ", but the input is a scalar, which has no axes; pass axes [] or "
                            "leave axes out");
    }
    if (axis < -rank || axis >= rank) {
      reject_call(call, "axis " + std::to_string(axis) + " is out of range for input of shape " +
                            input.to_string() + "; axes must be " + range_of(rank));
    }
    const auto index = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    if (reduced[index]) {
      reject_call(call, "axes " + list_to_string(axes) + " name axis " + std::to_string(index) +
                            " twice (negative axes count from the end)");
    }
    reduced[index] = true;
  }
  return reduced;
}

int checked_axis(const InferContext& call, const Shape& input, const char* attr, int64_t axis) {
  const int rank = input.rank();
  if (rank == 0) {
    reject_call(call, std::string("the input is a scalar, which has no axis for ") + attr +
                          " to name; pass a tensor of rank 1 or more");
  }
  if (axis < -rank || axis >= rank) {
    reject_call(call, std::string(attr) + " " + std::to_string(axis) +
                          " is out of range for input of shape " + input.to_string() +
                          "; it must be " + range_of(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

Shape reduced_shape(const Shape& input, const std::vector<bool>& reduced, bool keep_dims) {
  Shape output;
  for (int i = 0; i < input.rank(); ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      output.push_back(input[i]);
    } else if (keep_dims) {
      output.push_back(1);
    }
  }
  return output;
}

}  // namespace hxrt::detail
