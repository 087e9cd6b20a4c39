// What is known of a tensor before it exists: its dtype, shape and size in bytes. Shape
// inference gives it for an op's outputs, compile for a graph's values, and the trace records
// it for each op's inputs.
#pragma once

#include <cstddef>

#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

struct TensorMeta {
  DType dtype = DType::kF32;
  Shape shape;
  size_t bytes = 0;  // tensor_bytes(dtype, shape): set for outputs by check_outputs
};

}  // namespace hxrt::detail
