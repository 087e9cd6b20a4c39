// Copying a strided view of a tensor into a dense output. Transpose, Expand, Slice, Split, Tile,
// DepthToSpace and SpaceToDepth each read their input as such a view, so one loop serves them
// all, by element size: moving elements needs no arithmetic on them, whatever their dtype.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels/kernel_call.hpp"

namespace hxcpu {

// Tile reads each axis as two (repeat, element), so a view has up to twice a tensor's rank.
inline constexpr int kMaxViewRank = 2 * HX_MAX_RANK;

struct StridedView {
  int rank = 0;
  int64_t shape[kMaxViewRank] = {};
  int64_t strides[kMaxViewRank] = {};  // in elements; 0 repeats, a negative one walks back

  void push(int64_t extent, int64_t stride) {
    shape[rank] = extent;
    strides[rank] = stride;
    ++rank;
  }
};

// Writes the view's elements, the first at `source`, to `target` in row-major order.
void copy_view(const void* source, const StridedView& view, void* target, size_t element_size);

// Writes `view` of input 0, whose first element is element `first` from the input's start,
// to output `output`, after checking that the two have one dtype and that the view has as many
// elements as the output (INVALID_ARGUMENT naming `op` otherwise).
hx_status* write_view(const KernelCall& call, const char* op, const StridedView& view,
                      int64_t first = 0, size_t output = 0);

}  // namespace hxcpu
