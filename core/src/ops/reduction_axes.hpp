// The axes an op of the reduction family works along, checked against its input's rank for
// every op alike: Sum's and the Reduce ops' lists of axes, and the one axis of ArgMax,
// Softmax, CumSum and TopK. Each check rejects the call (reject_call) with what was wrong.
#pragma once

#include <cstdint>
#include <vector>

#include "hxrt/shape.hpp"
#include "ops/op_schema.hpp"

namespace hxrt::detail {

// Which axes of `input` the list `axes` names: each from -rank to rank-1 (negative ones count
// from the end), none twice.
std::vector<bool> checked_axes(const InferContext& call, const Shape& input,
                               const std::vector<int64_t>& axes);

// Attribute `attr`'s one axis of `input`, from -rank to rank-1, as an index from 0.
int checked_axis(const InferContext& call, const Shape& input, const char* attr, int64_t axis);

// `input` without the `reduced` axes, or with extent 1 in their place when `keep_dims`.
Shape reduced_shape(const Shape& input, const std::vector<bool>& reduced, bool keep_dims);

}  // namespace hxrt::detail
