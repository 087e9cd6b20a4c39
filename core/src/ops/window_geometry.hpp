// The sliding window of Conv and the pools over an input [N, C, D1, ..., Dn]: kernel extents,
// strides, dilations and pads from ONNX's attributes (kernel_shape, strides, dilations, pads,
// auto_pad), and the output's spatial extents from ONNX's formulas. Shape inference, the
// references and (through the output shape) the kernels all follow this one reading.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

struct WindowGeometry {
  std::vector<int64_t> kernel, strides, dilations, pads_begin, pads_end, output;
  size_t spatial() const { return kernel.size(); }
};

// `x` has rank 3 or more; `kernel` is the kernel's extents from the weights (Conv), or empty
// when the attribute kernel_shape is required (the pools). `ceil_mode` rounds the output up,
// dropping a last window that would start in the end padding (the pools' ceil_mode).
// Rejects the call, saying what to change, for lists of the wrong length, strides, dilations
// or kernel extents below 1, negative pads, pads with an auto_pad other than NOTSET, an
// unknown auto_pad, a window larger than the padded input, and sizes that overflow.
WindowGeometry window_geometry(const InferContext& call, const Shape& x,
                               const std::vector<int64_t>& kernel, bool ceil_mode);

// ConvTranspose's window: the output's spatial extents and the pads at their beginnings.
struct TransposedWindow {
  std::vector<int64_t> kernel, strides, dilations, pads_begin, output;
};

// Reads the attributes as window_geometry does, plus output_padding and output_shape, for X
// `x` and W's kernel `kernel`. Rejects the call as window_geometry does, and for an
// output_padding not below its stride or dilation, an output_shape of the wrong length, and a
// total padding below 0 or an output extent below 0.
TransposedWindow conv_transpose_geometry(const InferContext& call, const Shape& x,
                                         const std::vector<int64_t>& kernel);

// [N, channels, output...]; rejects the call when that shape is too large.
Shape windowed_output(const InferContext& call, int64_t batch, int64_t channels,
                      const WindowGeometry& window);

// The spatial attributes every windowed op declares (auto_pad, dilations, kernel_shape, pads,
// strides), for its schema.
std::vector<OpAttrInfo> window_attrs(bool with_dilations);

}  // namespace hxrt::detail
