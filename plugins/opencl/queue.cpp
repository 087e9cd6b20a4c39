#include "queue.hpp"

#include <memory>
#include <new>

#include "device.hpp"
#include "errors.hpp"
#include "event.hpp"
#include "platform.hpp"

namespace hxopencl {

Stream::~Stream() {
  device.forget_waiting(*this);
  const cl_command_queue made = queue();
  if (made == nullptr) return;  // made before its device was bound, or its queue failed
  clFinish(made);  // the core releases a stream when its work is done; be sure
  clReleaseCommandQueue(made);
}

cl_int Stream::open() {
  cl_int error = CL_SUCCESS;
  // No CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE: a stream runs its work in order.
  const cl_command_queue made =
      clCreateCommandQueue(device.platform->context, device.id, 0, &error);
  if (error == CL_SUCCESS) queue_.store(made, std::memory_order_release);
  return error;
}

cl_command_queue queue_for(const OpenClDevice& device, hx_stream* stream) {
  return stream != nullptr ? from_handle(stream)->queue() : device.synchronous_queue;
}

hx_status* complete_if_synchronous(const OpenClDevice& device, hx_stream* stream,
                                   const char* call) {
  if (stream != nullptr) return nullptr;
  return cl_status_about(device.services(), clFinish(device.synchronous_queue), "clFinish",
                         "after %s", call);
}

hx_status* stream_create(hx_device* handle, hx_stream** out_stream) {
  OpenClDevice& device = from_handle(handle);
  std::unique_ptr<Stream> stream(new (std::nothrow) Stream(device));
  if (!stream) return cl_status(device.services(), CL_OUT_OF_HOST_MEMORY, "creating a stream");
  if (hx_status* status =
          cl_status(device.services(), device.open_when_bound(*stream), "clCreateCommandQueue")) {
    return status;
  }
  *out_stream = to_handle(stream.release());
  return nullptr;
}

void stream_destroy(hx_device*, hx_stream* handle) { delete from_handle(handle); }

hx_status* stream_synchronize(hx_device* handle, hx_stream* stream) {
  const cl_command_queue queue = from_handle(stream)->queue();
  if (queue == nullptr) return nullptr;  // its device is not bound: nothing was queued
  return cl_status(from_handle(handle).services(), clFinish(queue), "clFinish");
}

hx_status* stream_query(hx_device* handle, hx_stream* stream, bool* out_done) {
  const cl_event last = from_handle(stream)->last();
  if (last == nullptr) {
    *out_done = true;
    return nullptr;
  }
  clFlush(from_handle(stream)->queue());  // so that the work can complete without a wait
  hx_status* status = marker_done(from_handle(handle), last, out_done);
  clReleaseEvent(last);
  return status;
}

hx_status* stream_wait_event(hx_device* handle, hx_stream* stream, hx_event* event_handle) {
  const OpenClDevice& device = from_handle(handle);
  const Event& event = from_handle(event_handle);
  const cl_event marker = event.get();
  if (marker == nullptr) return nullptr;  // never recorded: nothing to wait for
  cl_int error = CL_SUCCESS;
  const char* call = "clEnqueueBarrierWithWaitList";
  if (event.device().platform == device.platform) {
    // One context: the device itself waits, and the host goes on.
    Completion completion(stream);
    error = clEnqueueBarrierWithWaitList(from_handle(stream)->queue(), 1, &marker,
                                         completion.event());
  } else {
    // OpenCL orders queues only on events of their own context; across platforms the host
    // waits instead.
    call = "clWaitForEvents";
    error = clWaitForEvents(1, &marker);
  }
  clReleaseEvent(marker);
  return cl_status(device.services(), error, call);
}

}  // namespace hxopencl
