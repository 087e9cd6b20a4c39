#include "execution/transfers.hpp"

#include <cstring>

namespace hxrt::detail {
namespace {

// Releases `buffer` to `target`'s staging pool once `ready` (the upload that reads it) has
// completed; at once when there is no event (the upload completed before returning).
void release_staging_after(Device& target, StagingPool::Buffer buffer,
                           const std::shared_ptr<ReadyEvent>& ready) {
  StagingPool& pool = target.staging();
  if (ready == nullptr) {
    pool.release(buffer);
    return;
  }
  target.pending().add({ready}, [&pool, buffer] { pool.release(buffer); });
}

// Queues the upload of `bytes` at `staged` (host memory) into `tensor` and records its ready
// event. If recording fails after the upload was queued, the host waits for the stream so
// that nothing reads `staged` any more when the error reaches the caller.
void upload_staged(TensorImpl& tensor, const void* staged, const std::string& work) {
  Device& target = *tensor.device;
  target.upload(tensor.memory, staged, tensor.bytes);
  try {
    tensor.ready = target.record(work);
  } catch (...) {
    target.clear_stream_failure();
    throw;
  }
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
                        size_t bytes) {
  Tensor made = make_tensor(target.shared_from_this(), dtype, shape);
  if (bytes == 0) return made;
  TensorImpl* tensor = made.impl();
  if (target.host_writable()) {
    std::memcpy(target.host_address(tensor->memory), data, bytes);
  } else if (!target.asynchronous()) {
    target.upload(tensor->memory, data, bytes);  // completes before it returns
  } else {
    StagingPool::Buffer staging = target.staging().acquire(bytes);
    std::memcpy(staging.data, data, bytes);
    try {
      upload_staged(*tensor, staging.data, "from_host");
    } catch (...) {
      target.staging().release(staging);
      throw;
    }
    release_staging_after(target, staging, tensor->ready);
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
    upload_staged(*copy, from.host_address(source.memory), copy_work(from));
    if (copy->ready != nullptr) source.add_reader(copy->ready);
  } else {
    StagingPool::Buffer staging = target.staging().acquire(source.bytes);
    try {
      read_to_host(source, staging.data);
      upload_staged(*copy, staging.data, copy_work(from));
    } catch (...) {
      target.staging().release(staging);
      throw;
    }
    release_staging_after(target, staging, copy->ready);
  }
  return made;
}

}  // namespace hxrt::detail
