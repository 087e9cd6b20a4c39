// References of the core ops that move or convert values without arithmetic: Cast, Fill and
// Identity.
#pragma once

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// Each element converted to `dtype` (see to_dtype for the rules).
HostTensor cast_reference(const HostTensor& x, hx_dtype dtype);
// A tensor of `shape` and `dtype` whose every element is `value` converted as Cast would.
HostTensor fill_reference(const Shape& shape, double value, hx_dtype dtype);
HostTensor identity_reference(const HostTensor& x);

}  // namespace hxrt_conformance
