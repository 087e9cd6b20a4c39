// What a Tensor handle points to: dtype, shape and one device buffer, freed with the last
// handle. The device (and through it the plugin) stays alive as long as the buffer does.
#pragma once

#include <memory>

#include "devices/device.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"

namespace hxrt::detail {

struct TensorImpl {
  TensorImpl(std::shared_ptr<Device> device, DType dtype, const Shape& shape);
  ~TensorImpl();
  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;

  std::shared_ptr<Device> device;
  DType dtype;
  Shape shape;
  size_t bytes;
  Device::Block memory;  // (buffer, byte offset) of the elements
};

}  // namespace hxrt::detail
