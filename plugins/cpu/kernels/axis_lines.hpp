// The kernels that work along one axis (ArgMax, Softmax): their attribute `axis`, read once at
// create, and a dense tensor seen as lines along it.
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_create.hpp>

#include <cstdint>

namespace hxcpu {

// The view around `axis`: `outer` blocks of `extent` x `inner` elements; line (b, j) holds
// elements b * extent * inner + k * inner + j for k below extent.
struct AxisLines {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};

// False for an axis outside -rank .. rank-1 (negative counts from the end).
inline bool split_at_axis(const hx_tensor_view& view, int64_t axis, AxisLines* lines) {
  const int64_t a = axis < 0 ? axis + view.rank : axis;
  if (a < 0 || a >= view.rank) return false;
  *lines = AxisLines{};
  lines->extent = view.shape[a];
  // A tensor of no elements has no lines, whatever its other extents: a loop over 2^40 empty
  // lines never ends (execute_fuzz found a Softmax of shape [2^40, 0]).
  for (int32_t i = 0; i < view.rank; ++i) {
    if (view.shape[i] == 0) {
      lines->outer = 0;
      lines->inner = 0;
      return true;
    }
  }
  for (int32_t i = 0; i < view.rank; ++i) {
    if (i < a) lines->outer *= view.shape[i];
    if (i > a) lines->inner *= view.shape[i];
  }
  return true;
}

}  // namespace hxcpu
