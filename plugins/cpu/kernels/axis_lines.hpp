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
  for (int32_t i = 0; i < view.rank; ++i) {
    if (i < a) lines->outer *= view.shape[i];
    if (i > a) lines->inner *= view.shape[i];
  }
  lines->extent = view.shape[a];
  return true;
}

}  // namespace hxcpu
