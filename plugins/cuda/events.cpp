#include "events.hpp"

#include <hxplugin/status.hpp>

#include <cmath>
#include <cstdint>
#include <utility>

#include "device.hpp"
#include "device_errors.hpp"
#include "errors.hpp"
#include "handle_errors.hpp"
#include "plugin_state.hpp"
#include "streams.hpp"

namespace hxcuda {
namespace {

hx_status* event_of_device(const CudaDevice& device, const hx_event* handle, CudaEvent** out) {
  CudaEvent* event = device.plugin().handles.find_event(handle);
  if (event == nullptr) return not_a_live_handle(device, "event", handle);
  if (&event->device() != &device) {
    return belongs_elsewhere(device, "event", handle, event->device());
  }
  *out = event;
  return nullptr;
}

}  // namespace

hx_status* event_create(hx_device* device, hx_event** out_event) {
  CudaDevice& gpu = from_handle(device);
  return hxplugin::guarded(gpu.services(), kPluginName, [&]() -> hx_status* {
    *out_event = gpu.plugin().handles.add_event(gpu);
    return nullptr;
  });
}

void event_destroy(hx_device* device, hx_event* event) {
  if (event == nullptr) return;
  const CudaDevice& gpu = from_handle(device);
  if (!gpu.plugin().handles.remove_event(gpu, event)) {
    gpu.plugin().log(HX_LOG_WARNING,
                     "%s: event_destroy(%p) ignored: not a live event of this device",
                     gpu.label().c_str(), static_cast<const void*>(event));
  }
}

hx_status* event_record(hx_device* device, hx_event* event, hx_stream* stream) {
  CudaDevice& gpu = from_handle(device);
  CudaEvent* recorded = nullptr;
  if (hx_status* status = event_of_device(gpu, event, &recorded)) return status;
  CudaStream* target = nullptr;
  if (hx_status* status = resolve_stream(gpu, stream, &target)) return status;
  if (hx_status* status = check_usable(gpu)) return status;
  // NULL-stream work is complete when its call returns, and a stream that never had work has
  // none pending: either way the point is already reached, and no context is needed.
  const cudaStream_t started = target != nullptr ? target->started() : nullptr;
  if (started == nullptr) {
    recorded->mark_reached(stream);
    return nullptr;
  }
  if (hx_status* status = gpu.make_current()) return status;
  return recorded->record(started, stream);
}

hx_status* event_synchronize(hx_device* device, hx_event* event) {
  CudaDevice& gpu = from_handle(device);
  CudaEvent* awaited = nullptr;
  if (hx_status* status = event_of_device(gpu, event, &awaited)) return status;
  // Even a point already reached reports a lost context: the core waits here for a tensor's
  // writer, and the tensor's memory is no longer readable. (See stream_synchronize for why
  // CUDA's errors of queued work are all of this kind.)
  if (hx_status* status = check_usable(gpu)) return status;
  const cudaEvent_t pending = awaited->pending();
  if (pending == nullptr) return nullptr;
  // The event's device is made current for every call on it: the host may wait from any
  // thread, whatever device that thread last used.
  if (hx_status* status = gpu.make_current()) return status;
  return device_error(gpu, cudaEventSynchronize(pending), "cudaEventSynchronize");
}

hx_status* event_elapsed_ns(hx_device* device, hx_event* start, hx_event* end,
                            uint64_t* out_ns) {
  CudaDevice& gpu = from_handle(device);
  CudaEvent* first = nullptr;
  CudaEvent* last = nullptr;
  if (hx_status* status = event_of_device(gpu, start, &first)) return status;
  if (hx_status* status = event_of_device(gpu, end, &last)) return status;
  if (hx_status* status = check_usable(gpu)) return status;
  const CudaEvent::Point from = first->point();
  const CudaEvent::Point to = last->point();
  for (const auto& [point, handle] : {std::pair(from, start), std::pair(to, end)}) {
    if (point.stream == nullptr) {
      return hxplugin::make_status(
          gpu.services(), HX_FAILED_PRECONDITION,
          "%s: event %p was never recorded on a stream (never recorded, or recorded with "
          "stream NULL), so it marks no point of a stream's work to time; record both events "
          "on the stream the timed work is queued on",
          gpu.label().c_str(), static_cast<const void*>(handle));
    }
  }
  if (from.stream != to.stream) {
    return hxplugin::make_status(gpu.services(), HX_INVALID_ARGUMENT,
                                 "%s: events %p and %p were recorded on different streams; time "
                                 "work between two events of one stream",
                                 gpu.label().c_str(), static_cast<const void*>(start),
                                 static_cast<const void*>(end));
  }
  const auto start_after_end = [&] {
    return hxplugin::make_status(gpu.services(), HX_INVALID_ARGUMENT,
                                 "%s: the start event %p was recorded after the end event %p; "
                                 "pass the earlier event as start",
                                 gpu.label().c_str(), static_cast<const void*>(start),
                                 static_cast<const void*>(end));
  };
  if (to.event == nullptr) {
    // `end` was recorded before the stream had work, so `start` was too, or after `end`.
    if (from.event != nullptr) return start_after_end();
    *out_ns = 0;
    return nullptr;
  }
  cudaEvent_t began = from.event;
  if (began == nullptr) {
    // Recorded before the stream's first work: its point is where that work starts. The
    // stream has started (`end` was recorded on it with work), unless it is gone.
    const CudaStream* stream = gpu.plugin().handles.find_stream(from.stream);
    if (stream != nullptr) began = stream->first_work();
    if (began == nullptr) {
      return hxplugin::make_status(gpu.services(), HX_FAILED_PRECONDITION,
                                   "%s: the stream events %p and %p were recorded on was "
                                   "destroyed; ask for the time while it lives",
                                   gpu.label().c_str(), static_cast<const void*>(start),
                                   static_cast<const void*>(end));
    }
  }
  if (hx_status* status = gpu.make_current()) return status;  // see event_synchronize
  float milliseconds = 0;
  const cudaError_t error = cudaEventElapsedTime(&milliseconds, began, to.event);
  if (error == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return hxplugin::make_status(gpu.services(), HX_FAILED_PRECONDITION,
                                 "%s: the work before event %p or %p has not completed yet; "
                                 "synchronize the end event before asking for the time",
                                 gpu.label().c_str(), static_cast<const void*>(start),
                                 static_cast<const void*>(end));
  }
  if (hx_status* status = device_error(gpu, error, "cudaEventElapsedTime")) return status;
  if (milliseconds < 0) return start_after_end();
  *out_ns = static_cast<uint64_t>(std::llround(static_cast<double>(milliseconds) * 1e6));
  return nullptr;
}

hx_status* event_query(hx_device* device, hx_event* event, bool* out_done) {
  CudaDevice& gpu = from_handle(device);
  CudaEvent* queried = nullptr;
  if (hx_status* status = event_of_device(gpu, event, &queried)) return status;
  if (hx_status* status = check_usable(gpu)) return status;
  const cudaEvent_t pending = queried->pending();
  if (pending == nullptr) {
    *out_done = true;
    return nullptr;
  }
  if (hx_status* status = gpu.make_current()) return status;  // see event_synchronize
  return device_query(gpu, cudaEventQuery(pending), "cudaEventQuery", out_done);
}

}  // namespace hxcuda
