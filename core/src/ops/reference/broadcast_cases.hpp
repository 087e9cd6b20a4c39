// The references of element-wise ops whose operands broadcast as NumPy's (Add, Pow, Max,
// Where, Less, And): the operand shapes their cases try, and the output computed element by
// element from each operand's value at that element.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "hxrt/dtype.hpp"
#include "hxrt/op_reference.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

// Equal shapes, then pairs that broadcast: a trailing vector against a matrix on either side,
// two operands that both repeat, lower ranks, one-element, rank-0 and empty operands.
const std::vector<std::pair<Shape, Shape>>& binary_shapes();

// The tensor of `dtype` at the shape `inputs` broadcast to, each element `function` of the
// inputs' values there (in input order). The caller passes shapes that broadcast.
ReferenceTensor broadcast_map(const std::vector<ReferenceTensor>& inputs, DType dtype,
                              const std::function<double(const std::vector<double>&)>& function);

// Whether any input of `call` differs in shape from its output (ReferenceCase::broadcast).
bool broadcasts(const ReferenceCase& call);

}  // namespace hxrt::detail
