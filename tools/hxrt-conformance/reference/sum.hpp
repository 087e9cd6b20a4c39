// Reference of Sum: the input summed over a set of axes, in double.
#pragma once

#include <optional>
#include <vector>

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// `axes` as the attribute gives them (negative counts from the end; nullopt, the attribute
// absent, reduces every axis; an empty list none). Reduced axes are dropped from the output
// shape, or kept with extent 1 when `keep_dims`.
HostTensor sum_reference(const HostTensor& x, const std::optional<std::vector<int64_t>>& axes,
                         bool keep_dims);

// How many input elements each output element of that Sum adds up.
int64_t sum_length(const Shape& shape, const std::optional<std::vector<int64_t>>& axes);

}  // namespace hxrt_conformance
