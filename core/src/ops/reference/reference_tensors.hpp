// What the ops' references (hxrt/op_reference.hpp) compute with: row-major indexing of a
// ReferenceTensor, NumPy's broadcasting as strides, and a double rounded to a dtype's value.
#pragma once

#include <cstdint>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/op_reference.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

using Strides = std::vector<int64_t>;  // in elements

// Dense row-major strides, as the ABI passes a tensor that does not repeat.
Strides dense_strides(const Shape& shape);

// The shape two operands broadcast to, aligned at their last axes. The caller passes shapes
// that broadcast (the case lists hold only those).
Shape broadcast_shape(const Shape& x, const Shape& y);

// The strides of a dense tensor of shape `input` read as shape `output`, which it broadcasts
// to: its own dense stride where its extent matches, 0 where it is 1 or missing. These are
// also the strides the core hands a kernel for a broadcast input.
Strides broadcast_strides(const Shape& input, const Shape& output);

// The element offset, in a tensor of `strides`, of row-major element `index` of `shape`.
int64_t strided_offset(int64_t index, const Shape& shape, const Strides& strides);

// `value` as a value of `dtype`, as integer arithmetic and Cast from another integer type
// give it: rounded to nearest even for the float types (the 8-bit floats saturating at their
// largest value), truncated toward zero and wrapped modulo 2^bits into range for the integer
// types (uint8's -3 is 253), 0 or 1 for bool.
double round_to(double value, DType dtype);

// `value` as Cast converts a floating value to `dtype`: as round_to, except that the integer
// types saturate at their limits (and NaN gives 0) instead of wrapping.
double saturate_to(double value, DType dtype);

// A tensor of `dtype` and `shape` with no values yet, ready for push_back in row-major order.
ReferenceTensor empty_reference(DType dtype, const Shape& shape);

}  // namespace hxrt::detail
