#include "dnnl/onnx_window.hpp"

#include <algorithm>

namespace hxcpu {

using hxplugin::axis_pads;
using hxplugin::window_value_or;

hx_status* check_spatial_rank(const KernelCall& call, const char* op) {
  const int32_t rank = call.input(0).rank;
  if (rank >= 3 && rank <= 5) return nullptr;
  return call.error(HX_UNIMPLEMENTED,
                    "%s on CPU: oneDNN takes 1 to 3 spatial axes, got an input of rank %d", op,
                    static_cast<int>(rank));
}
DnnlWindow dnnl_window(const OnnxWindow& window, const hx_tensor_view& x,
                       const hx_tensor_view& y, const int64_t* kernel) {
  DnnlWindow dnnl;
  const size_t spatial = static_cast<size_t>(x.rank - 2);
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x.shape[axis + 2];
    const int64_t out = y.shape[axis + 2];
    const int64_t stride = window_value_or(window.strides, axis, 1);
    const int64_t dilation = window_value_or(window.dilations, axis, 1);
    const int64_t reach = (kernel[axis] - 1) * dilation + 1;
    const int64_t needed = std::max<int64_t>((out - 1) * stride + reach - in, 0);
    const hxplugin::AxisPads pads = axis_pads(window, axis, spatial, in, out, stride, reach);
    const int64_t begin = pads.begin;
    const int64_t end = pads.end;
    if (needed - begin > end) dnnl.extended = true;
    dnnl.strides.push_back(stride);
    dnnl.dilates.push_back(dilation - 1);
    dnnl.pad_begin.push_back(begin);
    dnnl.pad_end.push_back(std::max(end, needed - begin));
    dnnl.given_pad_end.push_back(end);
  }
  return dnnl;
}

DnnlWindow dnnl_transposed_window(const OnnxWindow& window, bool output_shape_given,
                                  const std::vector<int64_t>& output_padding,
                                  const hx_tensor_view& x, const hx_tensor_view& y,
                                  const int64_t* kernel) {
  DnnlWindow dnnl;
  const size_t spatial = static_cast<size_t>(x.rank - 2);
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x.shape[axis + 2];
    const int64_t out = y.shape[axis + 2];
    const int64_t stride = window_value_or(window.strides, axis, 1);
    const int64_t dilation = window_value_or(window.dilations, axis, 1);
    const int64_t reach = (kernel[axis] - 1) * dilation + 1;
    const int64_t natural = stride * (in - 1) + reach;  // without pads or output_padding
    int64_t begin = window_value_or(window.pads, axis, 0);
    if (output_shape_given || window.auto_pad == AutoPad::kSameUpper ||
        window.auto_pad == AutoPad::kSameLower) {
      // As the core's shape inference: a larger output than that is not padded at the start.
      const int64_t total =
          std::max<int64_t>(natural + window_value_or(output_padding, axis, 0) - out, 0);
      begin = window.auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
    } else if (window.auto_pad == AutoPad::kValid) {
      begin = 0;
    }
    dnnl.strides.push_back(stride);
    dnnl.dilates.push_back(dilation - 1);
    dnnl.pad_begin.push_back(begin);
    dnnl.pad_end.push_back(natural - begin - out);
  }
  return dnnl;
}

}  // namespace hxcpu
