#include "cluster/host_tensors.hpp"

#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

Device& host_device(const DeviceManager& devices) {
  for (const std::shared_ptr<Device>& device : devices.all()) {
    if (device->host_writable()) return *device;
  }
  throw Error(StatusCode::kFailedPrecondition,
              "tensors go between tasks through host memory, and this task has no device "
              "whose memory is the host's: enable the CPU plugin (devices.plugins)");
}

Tensor new_host_tensor(Device& host, DType dtype, const Shape& shape) {
  return make_tensor(host.shared_from_this(), dtype, shape, tensor_bytes(dtype, shape),
                     nullptr);
}

Tensor readable_on_host(const Tensor& tensor, Device& host, EagerOps& eager) {
  Tensor readable = tensor.impl()->device->host_addressable() ? tensor
                                                              : eager.copy_to(tensor, host);
  readable.impl()->wait_ready();
  return readable;
}

unsigned char* host_bytes(const Tensor& tensor) {
  const TensorImpl& held = *tensor.impl();
  return held.device->host_address(held.memory);
}

}  // namespace hxrt::detail
