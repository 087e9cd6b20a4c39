// The walk of a binary element-wise op over its output. The core hands each input of a
// "broadcasts" op over at the output's rank and shape, with stride 0 along the dimensions where
// the input repeats (hx_tensor_view.strides), so a flat index reads the wrong elements of a
// broadcast input. BinaryRows merges the dimensions that are contiguous for all three tensors
// and leaves rows that a plain loop runs: same-shape operands become one row with steps 1 and 1
// (the flat loop of the dense case), [4] + a scalar one row with steps 1 and 0, [2,3] + [3] two
// rows of three.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>

namespace hxplugin {

struct BinaryRows {
  int64_t row_length = 0;  // elements per row; 0 when the output has no elements
  int64_t x_step = 0;      // x's stride along a row, in elements (1 dense, 0 repeated)
  int64_t y_step = 0;      // y's stride along a row
  // The merged dimensions above the row, outermost first; the output is dense, so its row
  // offset is the row's index times row_length. Only the first outer_rank entries are set:
  // a default BinaryRows leaves the rest unwritten, which a tiny op's kernel would pay for.
  int outer_rank = 0;
  int64_t outer_shape[HX_MAX_RANK];
  int64_t x_outer_stride[HX_MAX_RANK];
  int64_t y_outer_stride[HX_MAX_RANK];

  // Calls row(out_offset, x_offset, y_offset) for every row in memory order; offsets are in
  // elements from element [0, ..., 0] of each tensor.
  template <class Row>
  void for_each_row(Row&& row) const {
    if (row_length == 0) return;
    int64_t index[HX_MAX_RANK] = {};
    int64_t x_offset = 0;
    int64_t y_offset = 0;
    for (int64_t out_offset = 0;; out_offset += row_length) {
      row(out_offset, x_offset, y_offset);
      int axis = outer_rank - 1;
      for (; axis >= 0; --axis) {  // advance the outer coordinates like an odometer
        x_offset += x_outer_stride[axis];
        y_offset += y_outer_stride[axis];
        if (++index[axis] < outer_shape[axis]) break;
        x_offset -= x_outer_stride[axis] * outer_shape[axis];
        y_offset -= y_outer_stride[axis] * outer_shape[axis];
        index[axis] = 0;
      }
      if (axis < 0) return;
    }
  }
};

// The rows of out = op(x, y). False when x or y does not have the output's rank and shape (the
// core never passes that for a "broadcasts" op), or when a stride is negative.
bool plan_binary_rows(const hx_tensor_view& x, const hx_tensor_view& y, const hx_tensor_view& out,
                      BinaryRows* rows);

}  // namespace hxplugin
