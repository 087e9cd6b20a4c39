// The oneDNN window of one call of Conv or a pool, from ONNX's window attributes as the
// kernels read them at create (hxplugin/onnx_window.hpp): auto_pad resolved from the output's
// extent (which the core inferred), dilations less one, and the end padding that gives the
// output's extent exactly (ceil_mode's last window included).
#pragma once

#include <hxplugin/kernel_create.hpp>
#include <hxplugin/onnx_window.hpp>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <vector>

#include "kernels/kernel_call.hpp"

namespace hxcpu {

// UNIMPLEMENTED, naming `op`, unless input 0 ([N, C, spatial...]) has 1 to 3 spatial axes:
// what oneDNN's convolution and pooling primitives take. The check of Conv, ConvTranspose and
// the pools.
hx_status* check_spatial_rank(const KernelCall& call, const char* op);

using hxplugin::AutoPad;
using hxplugin::OnnxWindow;
using hxplugin::read_ints;
using hxplugin::read_onnx_window;

struct DnnlWindow {
  dnnl::memory::dims strides, dilates, pad_begin, pad_end;
  // The end padding the attributes give, which pad_end may pass (`extended`): the taps beyond
  // it count for no divisor of count_include_pad.
  dnnl::memory::dims given_pad_end;
  // A window reaches past the end padding the attributes give (ceil_mode's last window).
  bool extended = false;
};

// The window over x's spatial axes (x and y are [N, C, spatial...]) of the kernel `kernel`.
DnnlWindow dnnl_window(const OnnxWindow& window, const hx_tensor_view& x,
                       const hx_tensor_view& y, const int64_t* kernel);

// ConvTranspose's window: the pads ONNX gives or implies (output_shape, SAME_*) at the start,
// and the end padding that gives the output's extent (below 0 where output_padding adds
// elements past the last input's reach).
DnnlWindow dnnl_transposed_window(const OnnxWindow& window, bool output_shape_given,
                                  const std::vector<int64_t>& output_padding,
                                  const hx_tensor_view& x, const hx_tensor_view& y,
                                  const int64_t* kernel);

}  // namespace hxcpu
