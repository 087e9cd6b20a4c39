// The host memory a task's messages go from and come into: a tensor on another device is
// copied to the host before it is sent, and one received lands in a new tensor of this task's
// host device, written in place by MPI.
#pragma once

#include "devices/device_manager.hpp"
#include "eager/eager_ops.hpp"
#include "hxrt/tensor.hpp"

namespace hxrt::detail {

// The first of this task's devices whose memory is the host's and whose work completes as it
// is called (the CPU). Error(kFailedPrecondition) when none is: messages between tasks need
// one.
Device& host_device(const DeviceManager& devices);

// A tensor of `dtype` and `shape` on `host`, its elements unset, for a message to land in.
Tensor new_host_tensor(Device& host, DType dtype, const Shape& shape);

// `tensor`'s elements, in host memory that stays as it is while the returned tensor lives:
// the tensor itself once its work has completed, where its device's memory is the host's;
// else its copy on `host`.
Tensor readable_on_host(const Tensor& tensor, Device& host, EagerOps& eager);

// The first byte of a tensor's elements, on a device whose memory is the host's.
unsigned char* host_bytes(const Tensor& tensor);

}  // namespace hxrt::detail
