#include "hxplugin/broadcast.hpp"

namespace hxplugin {
namespace {

bool matches_output(const hx_tensor_view& input, const hx_tensor_view& out) {
  if (input.rank != out.rank) return false;
  for (int32_t axis = 0; axis < out.rank; ++axis) {
    if (input.shape[axis] != out.shape[axis] || input.strides[axis] < 0) return false;
  }
  return true;
}

}  // namespace

bool plan_binary_rows(const hx_tensor_view& x, const hx_tensor_view& y, const hx_tensor_view& out,
                      BinaryRows* rows) {
  *rows = BinaryRows{};
  if (!matches_output(x, out) || !matches_output(y, out)) return false;
  // Dimensions from the innermost out, extent-1 ones dropped (their stride never matters). A
  // dimension joins the one inside it when, for both inputs, stepping once along it is the same
  // as stepping along the whole inner one: stride == inner stride * inner extent. The output is
  // dense, so it always joins.
  int groups = 0;
  int64_t extent[HX_MAX_RANK];
  int64_t x_stride[HX_MAX_RANK];
  int64_t y_stride[HX_MAX_RANK];
  for (int32_t axis = out.rank - 1; axis >= 0; --axis) {
    const int64_t size = out.shape[axis];
    if (size == 0) return true;  // no elements: no rows
    if (size == 1) continue;
    const int inner = groups - 1;
    if (groups > 0 && x.strides[axis] == x_stride[inner] * extent[inner] &&
        y.strides[axis] == y_stride[inner] * extent[inner]) {
      extent[inner] *= size;
      continue;
    }
    extent[groups] = size;
    x_stride[groups] = x.strides[axis];
    y_stride[groups] = y.strides[axis];
    ++groups;
  }
  if (groups == 0) {  // a single element
    rows->row_length = 1;
    return true;
  }
  rows->row_length = extent[0];
  rows->x_step = x_stride[0];
  rows->y_step = y_stride[0];
  rows->outer_rank = groups - 1;
  for (int group = 1; group < groups; ++group) {  // groups run inside out; outer_* outside in
    const int axis = groups - 1 - group;
    rows->outer_shape[axis] = extent[group];
    rows->x_outer_stride[axis] = x_stride[group];
    rows->y_outer_stride[axis] = y_stride[group];
  }
  return true;
}

}  // namespace hxplugin
