// Tensors whose channels come in blocks: [N, C, H, W] held as [N, ceil(C / b), H, W, b], the
// channel c of pixel (h, w) at [n, c / b, h, w, c % b] and the channels past C zero. A CPU's
// vector of b floats then holds b channels of one pixel, which is how oneDNN's and ONNX
// Runtime's fast convolutions and pools read and write them (oneDNN's nChw16c); a chain of them
// in this layout skips the reorders between each (graph/optimize/block_channels.cpp). The ops:
// BlockedConv (Conv, and FusedConv's activation, of a plain or blocked X, to a blocked or plain
// Y), BlockedMaxPool and BlockedGlobalAveragePool (of a blocked X). 2-D images only.
#pragma once

#include <cstdint>

#include "hxrt/op_reference.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

// The block the fusion pass uses: 16 floats, one AVX-512 register and one cache line.
inline constexpr int64_t kChannelBlock = 16;

// [N, C, H, W] in blocks of `block`: [N, ceil(C / block), H, W, block].
Shape blocked_shape(const Shape& plain, int64_t block);

// A plain [N, C, H, W] reference tensor in blocks, the padding channels zero; and back, the
// first `channels` channels.
ReferenceTensor to_channel_blocks(const ReferenceTensor& plain, int64_t block);
ReferenceTensor from_channel_blocks(const ReferenceTensor& blocked, int64_t channels);

}  // namespace hxrt::detail
