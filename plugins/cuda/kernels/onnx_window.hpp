// The sliding window of Conv and the pools: ONNX's attributes (strides, dilations, pads,
// auto_pad) read once at create, and the window of one call as cuDNN takes it.
//
// ONNX pads the two ends of a spatial axis separately (`pads`, and SAME_UPPER or SAME_LOWER
// where the padding is odd); cuDNN pads both ends alike. A call is taken with cuDNN padding
// both ends by ONNX's begin padding when that gives the output's extent on every axis: the
// windows then start where ONNX's do, and none reaches an end padding ONNX does not have.
// Any other call is declined with the reason (the CPU takes it); padding the input by hand
// would need device memory the size of the input, which the plugin has nowhere to take from.
// (The attributes and their padding are read as every plugin reads them,
// hxplugin/onnx_window.hpp.)
#pragma once

#include <hxrt/plugin_api.h>
#include <hxplugin/kernel_call.hpp>
#include <hxplugin/kernel_create.hpp>
#include <hxplugin/onnx_window.hpp>

#include <cstdint>
#include <vector>

namespace hxcuda::kernels {

using hxplugin::AutoPad;
using hxplugin::OnnxWindow;
using hxplugin::read_ints;
using hxplugin::read_onnx_window;

// cuDNN takes 2 or 3 spatial axes; a 1-D window gets a leading axis of extent 1.
inline constexpr int kMaxCudnnSpatial = 3;

// One call's window over its spatial axes, as cuDNN's descriptors take it.
struct CudnnWindow {
  int spatial = 0;  // 2 or 3
  int kernel[kMaxCudnnSpatial] = {};
  int stride[kMaxCudnnSpatial] = {};
  int dilation[kMaxCudnnSpatial] = {};
  int pad[kMaxCudnnSpatial] = {};  // at both ends
  // Some window reaches past the end padding ONNX gives (ceil_mode's last window): taps that
  // AveragePool's count_include_pad does not count, and cuDNN would.
  bool past_end_padding = false;
};

// The window of Conv or a pool (`op`, for messages) of input x and output y ([N, C, D...], of
// one rank) and kernel extents `kernel` (one per spatial axis): NULL and *out, or
// UNIMPLEMENTED saying why cuDNN cannot compute the call: other than 1 to 3 spatial axes,
// sizes beyond cuDNN's 32-bit ints, or pads cuDNN cannot give (above).
hx_status* cudnn_window(const hxplugin::KernelCall& call, const char* op, const OnnxWindow& window,
                        const hx_tensor_view& x, const hx_tensor_view& y, const int64_t* kernel,
                        CudnnWindow* out);

}  // namespace hxcuda::kernels
