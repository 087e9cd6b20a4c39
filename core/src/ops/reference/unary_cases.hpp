// The reference cases of an element-wise function of one input (Relu and the unary family),
// over shapes of every kind: plain, rank 0, one element, empty, rank 3 and a longer run.
#pragma once

#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/op_reference.hpp"
#include "ops/reference/random_values.hpp"

namespace hxrt::detail {

// `function` of each input element, computed in double on the element's exact value, with
// the inputs drawn from `range` and the dtype's element tolerance.
std::vector<ReferenceCase> unary_cases(double (*function)(double), DType type, ValueRange range,
                                       RandomValues& random);

}  // namespace hxrt::detail
