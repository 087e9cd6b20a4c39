#include "hxrt/tensor.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tensor_impl.hpp"

namespace hxrt {
namespace detail {

TensorImpl::TensorImpl(std::shared_ptr<Device> device_in, DType dtype_in, const Shape& shape_in)
    : device(std::move(device_in)), dtype(dtype_in), shape(shape_in) {
  bytes = static_cast<size_t>(shape.num_elements()) * dtype_size(dtype);
  data = device->allocate(bytes);
}

TensorImpl::~TensorImpl() { device->deallocate(data); }

}  // namespace detail

namespace {

const detail::TensorImpl& checked(const std::shared_ptr<detail::TensorImpl>& impl) {
  if (!impl) {
    throw Error(StatusCode::kFailedPrecondition,
                "this Tensor is empty (default-constructed or moved from)");
  }
  return *impl;
}

double half_bits_to_double(uint16_t bits, DType dtype) {
  if (dtype == DType::kBF16) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
  }
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

std::string format_element(const unsigned char* bytes, DType dtype) {
  char text[64];
  double value = 0;
  switch (dtype) {
    case DType::kBool:
      return *bytes ? "true" : "false";
    case DType::kI32: {
      int32_t v;
      std::memcpy(&v, bytes, sizeof v);
      return std::to_string(v);
    }
    case DType::kI64: {
      int64_t v;
      std::memcpy(&v, bytes, sizeof v);
      return std::to_string(v);
    }
    case DType::kF32: {
      float v;
      std::memcpy(&v, bytes, sizeof v);
      value = v;
      break;
    }
    case DType::kF64:
      std::memcpy(&value, bytes, sizeof value);
      break;
    case DType::kF16:
    case DType::kBF16: {
      uint16_t v;
      std::memcpy(&v, bytes, sizeof v);
      value = half_bits_to_double(v, dtype);
      break;
    }
  }
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

void format_dimension(const unsigned char* bytes, DType dtype, const Shape& shape, int axis,
                      int64_t offset, std::string& out) {
  if (axis == shape.rank()) {
    out += format_element(bytes + offset * dtype_size(dtype), dtype);
    return;
  }
  int64_t stride = 1;
  for (int i = axis + 1; i < shape.rank(); ++i) stride *= shape[i];
  out += "[";
  for (int64_t i = 0; i < shape[axis]; ++i) {
    if (i > 0) out += ", ";
    format_dimension(bytes, dtype, shape, axis + 1, offset + i * stride, out);
  }
  out += "]";
}

}  // namespace

DType Tensor::dtype() const { return checked(impl_).dtype; }
const Shape& Tensor::shape() const { return checked(impl_).shape; }
size_t Tensor::byte_size() const { return checked(impl_).bytes; }
const std::string& Tensor::device() const { return checked(impl_).device->name(); }

void Tensor::copy_to_host(void* dst, size_t bytes) const {
  const detail::TensorImpl& impl = checked(impl_);
  if (bytes != impl.bytes) {
    throw Error(StatusCode::kInvalidArgument,
                "copy_to_host: the tensor holds " + std::to_string(impl.bytes) +
                    " bytes, the destination " + std::to_string(bytes));
  }
  if (bytes == 0) return;
  impl.device->copy_to_host(dst, impl.data, bytes);
}

void Tensor::check_element_type(DType requested) const {
  if (dtype() != requested) {
    throw Error(StatusCode::kInvalidArgument, std::string("to_vector<") + dtype_name(requested) +
                                                  ">() on a tensor of dtype " +
                                                  dtype_name(dtype()));
  }
}

std::string Tensor::to_string() const {
  const detail::TensorImpl& impl = checked(impl_);
  std::vector<unsigned char> host(impl.bytes);
  copy_to_host(host.data(), host.size());
  std::string out;
  format_dimension(host.data(), impl.dtype, impl.shape, 0, 0, out);
  return out;
}

}  // namespace hxrt
