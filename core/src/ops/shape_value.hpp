// The value of a Shape op, which reads only its input's shape: what the ONNX importer and
// compile's constant folding compute without running the op, where shapes are known.
#pragma once

#include <cstdint>
#include <vector>

#include <hxcommon/slice_bounds.hpp>

#include "hxrt/shape.hpp"

namespace hxrt::detail {

// The extents of `of` from axis `start` to `end` (Shape's attributes, Slice's rule: negative
// counts from the end, both clamped to the rank).
inline std::vector<int64_t> shape_value(const Shape& of, int64_t start, int64_t end) {
  const hxcommon::SliceAxis axes = hxcommon::slice_axis(of.rank(), start, end, 1);
  std::vector<int64_t> extents;
  for (int64_t i = 0; i < axes.count; ++i) extents.push_back(of[static_cast<int>(axes.start + i)]);
  return extents;
}

}  // namespace hxrt::detail
