// References of the element-wise core ops (Add, Sub, Mul, Div, AddN, Relu), computed in
// double on the exact input values; integer results are exact because the kit keeps integer
// inputs small.
#pragma once

#include <vector>

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

// The operands broadcast as NumPy's (broadcast.hpp). Integer division truncates toward zero;
// the caller keeps divisors nonzero.
HostTensor binary_reference(BinaryOp op, const HostTensor& x, const HostTensor& y);
// Inputs of one shape and dtype, at least one.
HostTensor add_n_reference(const std::vector<HostTensor>& inputs);
HostTensor relu_reference(const HostTensor& x);

}  // namespace hxrt_conformance
