#include "reference/host_tensor.hpp"

#include <cstring>

#include <hxcommon/float_formats.hpp>

#include "kit_core.hpp"

namespace hxrt_conformance {
namespace {

template <class T>
void store(std::vector<uint8_t>& bytes, size_t index, T element) {
  std::memcpy(bytes.data() + index * sizeof(T), &element, sizeof(T));
}

template <class T>
T load(const std::vector<uint8_t>& bytes, size_t index) {
  T element;
  std::memcpy(&element, bytes.data() + index * sizeof(T), sizeof(T));
  return element;
}

}  // namespace

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

bool is_integer_dtype(hx_dtype dtype) { return dtype == HX_DTYPE_I32 || dtype == HX_DTYPE_I64; }

TensorBytes encode(const HostTensor& tensor) {
  const hx_dtype dtype = tensor.spec.dtype;
  TensorBytes out{tensor.spec, std::vector<uint8_t>(tensor.values.size() * hx_dtype_size(dtype))};
  for (size_t i = 0; i < tensor.values.size(); ++i) {
    const double value = tensor.values[i];
    switch (dtype) {
      case HX_DTYPE_F32: store(out.bytes, i, static_cast<float>(value)); break;
      case HX_DTYPE_F64: store(out.bytes, i, value); break;
      case HX_DTYPE_F16: store(out.bytes, i, hxcommon::f16_from_double(value)); break;
      case HX_DTYPE_BF16: store(out.bytes, i, hxcommon::bf16_from_double(value)); break;
      case HX_DTYPE_I32: store(out.bytes, i, static_cast<int32_t>(value)); break;
      case HX_DTYPE_I64: store(out.bytes, i, static_cast<int64_t>(value)); break;
      case HX_DTYPE_BOOL: store(out.bytes, i, static_cast<uint8_t>(value != 0 ? 1 : 0)); break;
      case HX_DTYPE_INVALID: break;
    }
  }
  return out;
}

std::vector<double> decode(const TensorBytes& tensor) {
  const hx_dtype dtype = tensor.spec.dtype;
  const size_t size = hx_dtype_size(dtype);
  std::vector<double> values(size == 0 ? 0 : tensor.bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i) {
    switch (dtype) {
      case HX_DTYPE_F32: values[i] = load<float>(tensor.bytes, i); break;
      case HX_DTYPE_F64: values[i] = load<double>(tensor.bytes, i); break;
      case HX_DTYPE_F16:
        values[i] = hxcommon::f16_to_double(load<uint16_t>(tensor.bytes, i));
        break;
      case HX_DTYPE_BF16:
        values[i] = hxcommon::bf16_to_double(load<uint16_t>(tensor.bytes, i));
        break;
      case HX_DTYPE_I32: values[i] = load<int32_t>(tensor.bytes, i); break;
      case HX_DTYPE_I64: values[i] = static_cast<double>(load<int64_t>(tensor.bytes, i)); break;
      case HX_DTYPE_BOOL: values[i] = load<uint8_t>(tensor.bytes, i); break;
      case HX_DTYPE_INVALID: break;
    }
  }
  return values;
}

}  // namespace hxrt_conformance
