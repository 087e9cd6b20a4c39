// The reference of a reduction: which of x's elements each output element reduces.
#pragma once

#include <vector>

#include "hxrt/op_reference.hpp"

namespace hxrt::detail {

// For each element of the output, in row-major order, the values of the elements of x that
// it reduces (all of x's elements that agree with it on the axes not `reduced`). A set is
// empty when a reduced axis has extent 0.
std::vector<std::vector<double>> reduced_sets(const ReferenceTensor& x,
                                              const std::vector<bool>& reduced);

}  // namespace hxrt::detail
