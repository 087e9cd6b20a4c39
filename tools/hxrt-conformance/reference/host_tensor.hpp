// Tensors on the host as the reference sees them: a dtype, a shape, and the values as doubles.
// Every value the kit generates is representable in its dtype (and integers are kept small),
// so a double holds each exactly and the references compute in double without losing inputs.
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

// i32 and i64: the dtypes whose arithmetic is exact and whose division truncates.
bool is_integer_dtype(hx_dtype dtype);

// `value` as a value of `dtype`, as Cast converts it: rounded to nearest even for the float
// types, truncated toward zero for the integer types (the kit keeps values within their
// range), 0 or 1 for bool.
double to_dtype(double value, hx_dtype dtype);

TensorBytes encode(const HostTensor& tensor);
// The elements of `bytes` read as `dtype`; a bool byte reads as its value (so that a byte
// other than 0 or 1 shows as itself in a failure).
std::vector<double> decode(const TensorBytes& tensor);

}  // namespace hxrt_conformance
