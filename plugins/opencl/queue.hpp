// Streams: each is an in-order OpenCL command queue of one device. Work given no stream goes
// through the device's synchronous queue and is waited for before the call returns.
//
// A stream of a device listed from the device cache and not yet bound has no queue until the
// device is bound (OpenClDevice::bind): the core makes one stream per device at start-up, and
// nothing can be queued on it before an allocation or a kernel binds the device.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include <atomic>

#include "event_slot.hpp"

namespace hxopencl {

struct OpenClDevice;

class Stream {
 public:
  explicit Stream(OpenClDevice& device) : device(device) {}
  // Releases the queue (after its work) and the last command's event; a stream still waiting
  // for its device to be bound is forgotten by the device.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Keeps `event` (takes ownership) as the stream's last command, releasing the one before.
  void remember(cl_event event) { last_.replace(event); }
  // The last command's event, retained for the caller; NULL when nothing was enqueued.
  cl_event last() const { return last_.retained(); }

  // Creates the queue on the bound device: CL_SUCCESS or clCreateCommandQueue's error.
  cl_int open();
  // NULL only while the device is not bound, when nothing has been queued on the stream.
  cl_command_queue queue() const { return queue_.load(std::memory_order_acquire); }

  OpenClDevice& device;

 private:
  // OpenCL cannot ask a queue whether it is idle; in order, the queue is idle when its last
  // command has completed.
  EventSlot last_;
  std::atomic<cl_command_queue> queue_{nullptr};
};

inline hx_stream* to_handle(Stream* stream) { return reinterpret_cast<hx_stream*>(stream); }
inline Stream* from_handle(hx_stream* stream) { return reinterpret_cast<Stream*>(stream); }

// The event argument of one enqueue: with a stream, a slot whose event the stream keeps as its
// last command when this goes out of scope; with none, NULL (no event is made).
class Completion {
 public:
  explicit Completion(hx_stream* stream) : stream_(from_handle(stream)) {}
  ~Completion() {
    if (event_ != nullptr) stream_->remember(event_);
  }
  Completion(const Completion&) = delete;
  Completion& operator=(const Completion&) = delete;
  cl_event* event() { return stream_ != nullptr ? &event_ : nullptr; }

 private:
  Stream* stream_;
  cl_event event_ = nullptr;
};

// The queue work for `stream` goes on: the stream's own, or the synchronous one for NULL.
cl_command_queue queue_for(const OpenClDevice& device, hx_stream* stream);
// With no stream, waits until the synchronous queue has finished (so the call completes
// before it returns, as the ABI asks); with a stream, nothing. A failure of that work comes
// back as a status naming `call`.
hx_status* complete_if_synchronous(const OpenClDevice& device, hx_stream* stream,
                                   const char* call);

// Function-table entries (the stream group).
hx_status* stream_create(hx_device* device, hx_stream** out_stream);
void stream_destroy(hx_device* device, hx_stream* stream);
hx_status* stream_synchronize(hx_device* device, hx_stream* stream);
hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done);
hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event);

}  // namespace hxopencl
