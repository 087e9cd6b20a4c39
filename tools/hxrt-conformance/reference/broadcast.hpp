// The strides the core hands a kernel for an input of an op that broadcasts (OpInfo::
// broadcasts): the input read as the output's shape, repeating with stride 0.
#pragma once

#include "reference/host_tensor.hpp"

namespace hxrt_conformance {

// The strides in elements of a dense tensor of shape `input` read as shape `output` (which it
// broadcasts to): its own dense stride where its extent matches, 0 where it is 1 or missing.
Shape broadcast_strides(const Shape& input, const Shape& output);

}  // namespace hxrt_conformance
