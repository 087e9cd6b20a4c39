#include "event.hpp"

#include <hxplugin/status.hpp>

#include <new>

#include "device.hpp"
#include "errors.hpp"
#include "queue.hpp"

namespace hxopencl {

hx_status* marker_done(const OpenClDevice& device, cl_event marker, bool* out_done) {
  cl_int state = CL_COMPLETE;
  if (hx_status* status = cl_status(
          device.services(),
          clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state,
                         nullptr),
          "clGetEventInfo")) {
    return status;
  }
  // A negative state is the error code of a command the marker waited for.
  if (hx_status* status = cl_status(device.services(), state < 0 ? state : CL_SUCCESS,
                                    "work before an event")) {
    return status;
  }
  *out_done = state == CL_COMPLETE;
  return nullptr;
}

hx_status* event_create(hx_device* handle, hx_event** out_event) {
  const OpenClDevice& device = from_handle(handle);
  auto* event = new (std::nothrow) Event(device);
  if (event == nullptr) {
    return cl_status(device.services(), CL_OUT_OF_HOST_MEMORY, "creating an event");
  }
  *out_event = to_handle(event);
  return nullptr;
}

void event_destroy(hx_device*, hx_event* event) { delete reinterpret_cast<Event*>(event); }

hx_status* event_record(hx_device* handle, hx_event* event, hx_stream* stream) {
  const OpenClDevice& device = from_handle(handle);
  cl_event marker = nullptr;
  const cl_int error =
      clEnqueueMarkerWithWaitList(from_handle(stream)->queue(), 0, nullptr, &marker);
  if (hx_status* status = cl_status(device.services(), error, "clEnqueueMarkerWithWaitList")) {
    return status;
  }
  clRetainEvent(marker);
  from_handle(stream)->remember(marker);
  // Flushed so that a host waiting on the event (or another queue) sees the work submitted.
  clFlush(from_handle(stream)->queue());
  from_handle(event).set(marker);
  return nullptr;
}

hx_status* event_synchronize(hx_device* handle, hx_event* event) {
  const cl_event marker = from_handle(event).get();
  if (marker == nullptr) return nullptr;
  const cl_int error = clWaitForEvents(1, &marker);
  clReleaseEvent(marker);
  return cl_status_about(from_handle(handle).services(), error, "clWaitForEvents",
                         "(a command before the event failed)");
}

hx_status* event_query(hx_device* handle, hx_event* event, bool* out_done) {
  const cl_event marker = from_handle(event).get();
  if (marker == nullptr) {
    *out_done = true;
    return nullptr;
  }
  hx_status* status = marker_done(from_handle(handle), marker, out_done);
  clReleaseEvent(marker);
  return status;
}

}  // namespace hxopencl
