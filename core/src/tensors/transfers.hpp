// How bytes move between the host and devices and between devices, without the host waiting
// for more than the work that writes what it reads (docs/embedding.md, "Asynchronous execution"):
// - host to device: into the memory directly on a synchronous host-memory device (the CPU);
//   else through the device's staging ring (execution/staging_ring.hpp), slice by slice, which
//   the uploads queued on the device's stream read after from_host has returned; or straight
//   from page-locked memory the runtime gave (Runtime::pinned_memory);
// - device to host: after the tensor's own event, directly from host memory or by a copy that
//   waits for nothing else;
// - between devices of one plugin: queued on the destination's stream behind the source's
//   event, the source's memory held until the copy has read it;
// - between plugins: the host waits for the source's event, then one copy where either side
//   is host memory, else two through the destination's staging ring, slice by slice.
#pragma once

#include <memory>

#include "devices/device.hpp"
#include "hxrt/dtype.hpp"
#include "hxrt/shape.hpp"
#include "tensors/tensor_impl.hpp"

namespace hxrt::detail {

// A tensor on `target` holding the `bytes` bytes at `data` (tensor_bytes(dtype, shape)),
// which the caller may reuse as soon as this returns. `source_pinned`: `data` is page-locked
// memory of `target`'s plugin, which the upload reads directly (and waits for).
Tensor tensor_from_host(Device& target, DType dtype, const Shape& shape, const void* data,
                        size_t bytes, bool source_pinned = false);
// Copies the tensor's bytes to `dst`; the caller has waited for the tensor's work.
void read_to_host(const TensorImpl& tensor, void* dst);
// A copy of `source` on `target`, another device, ready when its event completes.
Tensor copy_to_device(const TensorImpl& source, Device& target);
// Throws the failure of the work that writes `tensor` when it is known already, naming the
// consumer (input `index` of `op`; `op` "" for a copy): work that reads it could only
// produce garbage. Cheap when nothing failed.
[[noreturn]] void throw_known_failure(const TensorImpl& tensor, const std::string& op,
                                      size_t index);
inline void check_not_failed(const TensorImpl& tensor, const std::string& op, size_t index) {
  if (tensor.ready != nullptr && tensor.ready->known_failure_fast()) {
    throw_known_failure(tensor, op, index);
  }
}

}  // namespace hxrt::detail
