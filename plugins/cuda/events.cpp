#include "events.hpp"

#include <hxplugin/status.hpp>

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
    recorded->mark_reached();
    return nullptr;
  }
  if (hx_status* status = gpu.make_current()) return status;
  return recorded->record(started);
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
