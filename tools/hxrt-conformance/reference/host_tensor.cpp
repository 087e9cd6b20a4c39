#include "reference/host_tensor.hpp"


#include <hxcommon/element_values.hpp>

#include "kit_core.hpp"

namespace hxrt_conformance {

int64_t element_count(const Shape& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

std::string shape_text(const Shape& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

Shape dense_strides(const Shape& shape) {
  Shape strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

bool is_integer_dtype(hx_dtype dtype) {
  return hx_dtype_is_valid(dtype) && dtype != HX_DTYPE_BOOL && dtype != HX_DTYPE_F32 &&
         dtype != HX_DTYPE_F64 && dtype != HX_DTYPE_F16 && dtype != HX_DTYPE_BF16;
}

// The reference's values are exact values of the dtype, so converting them is exact.
TensorBytes encode(const HostTensor& tensor) {
  const hx_dtype dtype = tensor.spec.dtype;
  TensorBytes out{tensor.spec, std::vector<uint8_t>(tensor.values.size() * hx_dtype_size(dtype))};
  for (size_t i = 0; i < tensor.values.size(); ++i) {
    hxcommon::element_from_double(tensor.values[i], dtype, out.bytes.data(), i);
  }
  return out;
}

std::vector<double> decode(const TensorBytes& tensor) {
  const hx_dtype dtype = tensor.spec.dtype;
  const size_t size = hx_dtype_size(dtype);
  std::vector<double> values(size == 0 ? 0 : tensor.bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = hxcommon::element_to_double(tensor.bytes.data(), dtype, i);
  }
  return values;
}

}  // namespace hxrt_conformance
