// ONNX Slice's rule for one axis, shared by the core's shape inference and every plugin's
// kernel, so that the two cannot disagree on where a slice starts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

namespace hxcommon {

struct SliceAxis {
  int64_t start = 0;  // the first element taken
  int64_t count = 0;  // how many, `step` apart
};

// A slice of an axis of `extent` (>= 0) elements from `start` towards `end` (exclusive) by
// `step` (not 0): negative start and end count from the end; then, stepping forward, both are
// clamped to [0, extent], and stepping back, start to [0, extent-1] and end to [-1, extent-1].
// Any int64 values are safe (INT64_MAX, as ONNX models write "to the end", included).
inline SliceAxis slice_axis(int64_t extent, int64_t start, int64_t end, int64_t step) {
  if (start < 0) start += extent;
  if (end < 0) end += extent;
  SliceAxis axis;
  if (step > 0) {
    axis.start = std::clamp<int64_t>(start, 0, extent);
    end = std::clamp<int64_t>(end, 0, extent);
    if (end > axis.start) axis.count = (end - axis.start - 1) / step + 1;
  } else if (extent > 0) {
    axis.start = std::clamp<int64_t>(start, 0, extent - 1);
    end = std::clamp<int64_t>(end, -1, extent - 1);
    // -INT64_MIN does not exist; any step beyond -extent takes one element anyway.
    const int64_t stride = step == std::numeric_limits<int64_t>::min() ? extent : -step;
    if (axis.start > end) axis.count = (axis.start - end - 1) / stride + 1;
  }
  return axis;
}

}  // namespace hxcommon
