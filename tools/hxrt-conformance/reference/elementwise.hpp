// References of the element-wise core ops (Add, Sub, Mul, Div, AddN, Relu), computed in
// double on the exact input values; integer results are exact because the kit keeps integer
// inputs small.
#pragma once

#include <vector>

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

// The core's shape rule for the binary ops: equal shapes, or a one-element operand broadcast
// against the other (of two one-element operands the higher rank wins). The caller passes
// shapes the rule accepts.
Shape binary_output_shape(const Shape& x, const Shape& y);

// Integer division truncates toward zero; the caller keeps divisors nonzero.
HostTensor binary_reference(BinaryOp op, const HostTensor& x, const HostTensor& y);
// Inputs of one shape and dtype, at least one.
HostTensor add_n_reference(const std::vector<HostTensor>& inputs);
HostTensor relu_reference(const HostTensor& x);

}  // namespace hxrt_conformance
