// Streams: each is an in-order OpenCL command queue of one device. Work given no stream goes
// through the device's synchronous queue and is waited for before the call returns.
#pragma once

#include <hxrt/plugin_api.h>

#include <CL/cl.h>

#include "event_slot.hpp"

namespace hxopencl {

struct OpenClDevice;

class Stream {
 public:
  Stream(const OpenClDevice& device, cl_command_queue queue) : device(device), queue(queue) {}
  ~Stream();  // releases the queue (after its work) and the last command's event
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Keeps `event` (takes ownership) as the stream's last command, releasing the one before.
  void remember(cl_event event) { last_.replace(event); }
  // The last command's event, retained for the caller; NULL when nothing was enqueued.
  cl_event last() const { return last_.retained(); }

  const OpenClDevice& device;
  const cl_command_queue queue;

 private:
  // OpenCL cannot ask a queue whether it is idle; in order, the queue is idle when its last
  // command has completed.
  EventSlot last_;
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
