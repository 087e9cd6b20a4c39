// What the references of the windowed ops (Conv, the pools) share: the window of a case, read
// as shape inference reads it, and the coordinates of a flat index.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hxrt/op_reference.hpp"
#include "ops/window_geometry.hpp"

namespace hxrt::detail {

// The window of `op` called with the case's inputs and attributes; `kernel` as for
// window_geometry.
WindowGeometry case_window(const std::string& op, const ReferenceCase& call,
                           const std::vector<int64_t>& kernel, bool ceil_mode);

// [N, C, output...] of a windowed op on x [N, C, ...].
Shape windowed_shape(const Shape& x, const WindowGeometry& window);

// The row-major coordinates of element `index` of a tensor of `extents`.
std::vector<int64_t> coordinates(int64_t index, const std::vector<int64_t>& extents);

// The product of `extents` (1 for none).
int64_t count_of(const std::vector<int64_t>& extents);

}  // namespace hxrt::detail
