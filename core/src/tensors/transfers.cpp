#include "tensors/transfers.hpp"

#include <cstring>

namespace hxrt::detail {
namespace {

// Queues the upload of the `size` bytes at `host` to byte `offset` of `tensor` and returns the
// event recorded after it. If recording fails after the upload was queued, the host waits for
// the stream so that nothing reads `host` any more when the error reaches the caller.
std::shared_ptr<ReadyEvent> upload_range(TensorImpl& tensor, const void* host, size_t offset,
                                         size_t size, const std::string& work) {
  Device& target = *tensor.device;
  Device::Block range = tensor.memory;
  range.offset += offset;
  target.upload(range, host, size);
  try {
    return target.record(work);
  } catch (...) {
    target.clear_stream_failure();
    throw;
  }
}

// Queues the upload of the tensor's bytes at `host` (memory that stays valid and unchanged
// until the tensor is ready) and records its ready event.
void upload_direct(TensorImpl& tensor, const void* host, const std::string& work) {
  tensor.ready = upload_range(tensor, host, 0, tensor.bytes, work);
}

// Queues the upload of the tensor's bytes through its device's staging ring: `fill` writes
// each slice's bytes there.
void upload_staged(TensorImpl& tensor, const StagingRing::Fill& fill, const std::string& work) {
  tensor.ready = tensor.device->staging().transfer(
      tensor.bytes, fill, [&](const void* staged, size_t offset, size_t size) {
        return upload_range(tensor, staged, offset, size, work);
      });
}

std::string copy_work(const Device& source) { return "copy from " + source.short_name(); }

}  // namespace

void throw_known_failure(const TensorImpl& tensor, const std::string& op, size_t index) {
  const std::shared_ptr<const Error> failure = tensor.ready->known_failure();
  const std::string consumer =
      op.empty() ? "the source of a copy" : op + "'s input " + std::to_string(index);
  throw Error(failure->code(), consumer + " was written by work that failed: " + failure->what());
}

Tensor tensor_from_host(Device& target, DType dtype, const Shape& shape, const void* data,
                        size_t bytes, bool source_pinned) {
  Tensor made = make_tensor(target.shared_from_this(), dtype, shape);
  if (bytes == 0) return made;
  TensorImpl* tensor = made.impl();
  if (target.host_writable()) {
    std::memcpy(target.host_address(tensor->memory), data, bytes);
  } else if (!target.asynchronous()) {
    target.upload(tensor->memory, data, bytes);  // completes before it returns
  } else if (source_pinned) {
    // Page-locked already: the DMA reads it directly. The caller may reuse its memory once
    // this returns, so the host waits for this upload.
    upload_direct(*tensor, data, "from_host");
    tensor->ready->wait();
  } else {
    const auto* source = static_cast<const unsigned char*>(data);
    upload_staged(
        *tensor,
        [source](void* staged, size_t offset, size_t size) {
          std::memcpy(staged, source + offset, size);
        },
        "from_host");
  }
  return made;
}

void read_to_host(const TensorImpl& tensor, void* dst) {
  Device& device = *tensor.device;
  if (device.host_addressable()) {
    std::memcpy(dst, device.host_address(tensor.memory), tensor.bytes);
  } else {
    device.download(dst, tensor.memory, tensor.bytes);
  }
}

Tensor copy_to_device(const TensorImpl& source, Device& target) {
  Tensor made = make_tensor(target.shared_from_this(), source.dtype, source.shape, source.bytes);
  if (source.bytes == 0) return made;
  TensorImpl* copy = made.impl();
  Device& from = *source.device;
  if (&from.plugin() == &target.plugin()) {
    if (source.ready != nullptr) {
      check_not_failed(source, "", 0);
      target.wait_for(*source.ready);
    }
    target.copy_from(from, copy->memory, source.memory, source.bytes);
    copy->ready = target.record(copy_work(from));
    if (copy->ready != nullptr) source.add_reader(copy->ready);
    return made;
  }
  // Another plugin's streams cannot wait for this plugin's events: the host waits, for the
  // source's work only.
  source.wait_ready();
  if (target.host_writable()) {
    read_to_host(source, target.host_address(copy->memory));
  } else if (from.host_addressable()) {
    upload_direct(*copy, from.host_address(source.memory), copy_work(from));
    if (copy->ready != nullptr) source.add_reader(copy->ready);
  } else {
    // Slice by slice: the download of the next overlaps the upload of the one before.
    upload_staged(
        *copy,
        [&source, &from](void* staged, size_t offset, size_t size) {
          Device::Block range = source.memory;
          range.offset += offset;
          from.download(staged, range, size);
        },
        copy_work(from));
  }
  return made;
}

}  // namespace hxrt::detail
