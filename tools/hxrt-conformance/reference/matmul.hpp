// Reference of MatMul: op(a) [m, k] times op(b) [k, n], where op transposes when the
// attribute transpose_a / transpose_b is true. Products are summed in double.
#pragma once

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// `a` and `b` are rank 2 with agreeing inner extents after the transposes.
HostTensor matmul_reference(const HostTensor& a, const HostTensor& b, bool transpose_a,
                            bool transpose_b);

}  // namespace hxrt_conformance
