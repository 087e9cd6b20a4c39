// Axes and extents that the shape and indexing ops take from their attributes, checked as ONNX
// defines them: an axis from -rank to rank-1 names one of a tensor's axes, a negative one
// counting from the end. Each check rejects the call (reject_call) naming the attribute.
#pragma once

#include <string>
#include <vector>

#include "ops/op_schema.hpp"

namespace hxrt::detail {

// "[1, -1]", as attributes print.
std::string ints_text(const std::vector<int64_t>& values);

// `axis` of attribute `attr` as an axis from 0 to rank-1 of a tensor of rank `rank`.
int resolve_axis(const InferContext& call, const char* attr, int64_t axis, int rank);
// Each of `axes` resolved, none named twice.
std::vector<int> resolve_axes(const InferContext& call, const char* attr,
                              const std::vector<int64_t>& axes, int rank);

// `dims` as a Shape (at most Shape::kMaxRank extents, none negative, their product within
// int64), or the call rejected saying what `what` would have been.
Shape checked_shape(const InferContext& call, const std::vector<int64_t>& dims,
                    const std::string& what);

}  // namespace hxrt::detail
