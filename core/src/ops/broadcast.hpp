// NumPy's broadcasting, the rule of every op whose schema says `broadcasts`: computed once here,
// for shape inference and for the views kernels receive, never again in a plugin.
#pragma once

#include <cstdint>

#include "hxrt/shape.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// The shape `x` and `y` broadcast to. Aligned at their last axes (a missing leading axis counts
// as extent 1), each pair of extents must be equal or one of them 1; the result has the larger
// rank and, on each axis, the extent that is not 1. Throws Error(kInvalidArgument) naming the
// op, both shapes and the first axis that differs, e.g. "Add: operands could not be broadcast
// together with shapes [2, 3] and [4]: axis 1 of the result (-1 from the end) has extent 3 in
// the first and 4 in the second; ...", or when the result would be too large a shape.
Shape broadcast_shapes(const InferContext& call, const Shape& x, const Shape& y);

// The shape every input of the call broadcasts to, x with y, then that with the next: Where's
// three operands, Max's any number.
Shape broadcast_inputs(const InferContext& call);

// Writes output.rank() strides, in elements, that read the dense row-major tensor `input` as
// the shape `output` it broadcasts to: 0 along each axis where the input repeats (an axis it
// lacks, or one of extent 1 where the output's is not), its dense stride elsewhere.
// `input` must broadcast to `output` (broadcast_shapes said so).
void broadcast_strides(const Shape& input, const Shape& output, int64_t* strides);

}  // namespace hxrt::detail
