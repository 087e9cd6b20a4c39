#include "kernels/onnx_window.hpp"

#include <algorithm>
#include <climits>

namespace hxcuda::kernels {

using hxplugin::axis_pads;
using hxplugin::window_value_or;
hx_status* cudnn_window(const hxplugin::KernelCall& call, const char* op, const OnnxWindow& window,
                        const hx_tensor_view& x, const hx_tensor_view& y, const int64_t* kernel,
                        CudnnWindow* out) {
  if (x.rank < 3 || x.rank > 5 || y.rank != x.rank) {
    return call.error(HX_UNIMPLEMENTED,
                      "%s on GPU: cuDNN takes 1 to 3 spatial axes, got an input of rank %d", op,
                      static_cast<int>(x.rank));
  }
  const size_t spatial = static_cast<size_t>(x.rank - 2);
  const int first = spatial == 1 ? 1 : 0;  // a 1-D window is cuDNN's 2-D one of height 1
  *out = CudnnWindow{};
  out->spatial = first + static_cast<int>(spatial);
  if (first == 1) {
    out->kernel[0] = out->stride[0] = out->dilation[0] = 1;
    out->pad[0] = 0;
  }
  for (size_t axis = 0; axis < spatial; ++axis) {
    const int64_t in = x.shape[axis + 2];
    const int64_t extent = y.shape[axis + 2];
    const int64_t stride = window_value_or(window.strides, axis, 1);
    const int64_t dilation = window_value_or(window.dilations, axis, 1);
    const int64_t reach = (kernel[axis] - 1) * dilation + 1;
    const hxplugin::AxisPads pads = axis_pads(window, axis, spatial, in, extent, stride, reach);
    for (const int64_t value :
         {kernel[axis], stride, dilation, pads.begin, reach, in + 2 * pads.begin}) {
      if (value > INT_MAX) {
        return call.error(HX_UNIMPLEMENTED,
                          "%s on GPU: the window on spatial axis %zu has a size of %lld, beyond "
                          "cuDNN's 32-bit sizes",
                          op, axis, static_cast<long long>(value));
      }
    }
    const int64_t padded = in + 2 * pads.begin;
    const int64_t cudnn_extent = padded < reach ? 0 : (padded - reach) / stride + 1;
    if (cudnn_extent != extent) {
      return call.error(HX_UNIMPLEMENTED,
                        "%s on GPU: spatial axis %zu gives %lld outputs, padded by %lld at its "
                        "start and %lld at its end; cuDNN pads both ends alike (by %lld) and "
                        "drops a last window that does not fit, which gives %lld",
                        op, axis, static_cast<long long>(extent),
                        static_cast<long long>(pads.begin), static_cast<long long>(pads.end),
                        static_cast<long long>(pads.begin), static_cast<long long>(cudnn_extent));
    }
    if ((extent - 1) * stride - pads.begin + reach > in + pads.end) out->past_end_padding = true;
    const size_t at = static_cast<size_t>(first) + axis;
    out->kernel[at] = static_cast<int>(kernel[axis]);
    out->stride[at] = static_cast<int>(stride);
    out->dilation[at] = static_cast<int>(dilation);
    out->pad[at] = static_cast<int>(pads.begin);
  }
  return nullptr;
}

}  // namespace hxcuda::kernels
