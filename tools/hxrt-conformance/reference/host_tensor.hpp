// Tensors on the host as the kit compares them: a dtype, a shape, and the values as doubles,
// as the core's reference cases (hxrt/op_reference.hpp) give them; and the bytes a device
// holds for one.
#pragma once

#include <hxrt/plugin_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hxrt_conformance {

using Shape = std::vector<int64_t>;

// The product of the extents: 1 for rank 0, 0 when an extent is 0.
int64_t element_count(const Shape& shape);
// "[3, 5]", "[]".
std::string shape_text(const Shape& shape);
// Dense row-major strides in elements, as the ABI passes them.
Shape dense_strides(const Shape& shape);

struct TensorSpec {
  hx_dtype dtype = HX_DTYPE_F32;
  Shape shape;
};

struct HostTensor {
  TensorSpec spec;
  std::vector<double> values;  // element_count(spec.shape) of them, row-major
};

// A tensor's memory as the device holds it.
struct TensorBytes {
  TensorSpec spec;
  std::vector<uint8_t> bytes;
};

// The integer dtypes (not bool): their arithmetic is exact and their division truncates.
bool is_integer_dtype(hx_dtype dtype);

TensorBytes encode(const HostTensor& tensor);
// The elements of `bytes` read as `dtype`; a bool byte reads as its value (so that a byte
// other than 0 or 1 shows as itself in a failure).
std::vector<double> decode(const TensorBytes& tensor);

}  // namespace hxrt_conformance
