// NumPy's broadcasting for the binary element-wise ops: the output shape of two operands, and
// an operand's strides over that shape (0 where it repeats), which are both the strides the
// core hands a kernel for a broadcast input and how the reference reads one.
#pragma once

#include <string>

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// Shapes aligned at their last dimension; each pair of extents equal or one of them 1. The
// caller passes shapes that broadcast.
Shape broadcast_shape(const Shape& x, const Shape& y);

// The strides in elements of a dense tensor of shape `input` read as shape `output` (which it
// broadcasts to): its own dense stride where its extent matches, 0 where it is 1 or missing.
Shape broadcast_strides(const Shape& input, const Shape& output);

// The element offset, in a tensor with `strides`, of the row-major element number `index` of
// `shape`.
int64_t strided_offset(int64_t index, const Shape& shape, const Shape& strides);

// Whether `op`'s inputs reach a kernel broadcast with stride 0 (its schema says "broadcasts").
bool op_broadcasts(const std::string& op);

}  // namespace hxrt_conformance
