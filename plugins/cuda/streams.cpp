#include "streams.hpp"

#include <hxplugin/status.hpp>

#include "device_errors.hpp"
#include "errors.hpp"
#include "handle_errors.hpp"
#include "plugin_state.hpp"

namespace hxcuda {

hx_status* resolve_stream(const CudaDevice& device, const hx_stream* handle, CudaStream** out) {
  *out = nullptr;
  if (handle == nullptr) return nullptr;
  CudaStream* stream = device.plugin().handles.find_stream(handle);
  if (stream == nullptr) return not_a_live_handle(device, "stream", handle);
  if (&stream->device() != &device) {
    return belongs_elsewhere(device, "stream", handle, stream->device());
  }
  *out = stream;
  return nullptr;
}

hx_status* live_stream(const CudaDevice& device, const hx_stream* handle, CudaStream** out) {
  if (handle == nullptr) return not_a_live_handle(device, "stream", handle);
  return resolve_stream(device, handle, out);
}

hx_status* stream_for_work(CudaDevice& device, CudaStream* stream, cudaStream_t* out) {
  if (hx_status* status = device.make_current()) return status;
  if (stream == nullptr) {
    *out = cudaStreamPerThread;  // see streams.hpp: never the legacy default stream
    return nullptr;
  }
  return stream->for_work(out);
}

hx_status* stream_create(hx_device* device, hx_stream** out_stream) {
  CudaDevice& gpu = from_handle(device);
  return hxplugin::guarded(gpu.services(), kPluginName, [&]() -> hx_status* {
    *out_stream = gpu.plugin().handles.add_stream(gpu);
    return nullptr;
  });
}

void stream_destroy(hx_device* device, hx_stream* stream) {
  if (stream == nullptr) return;
  const CudaDevice& gpu = from_handle(device);
  if (!gpu.plugin().handles.remove_stream(gpu, stream)) {
    gpu.plugin().log(HX_LOG_WARNING,
                     "%s: stream_destroy(%p) ignored: not a live stream of this device",
                     gpu.label().c_str(), static_cast<const void*>(stream));
  }
}

// Errors of queued work (plugin_api.h, the stream section): on CUDA the kernel faults that
// surface after the launch returned (illegal address, trap, assert) are sticky, so "stream
// synchronize clears the failure" cannot hold: the device's context is lost, and this and
// every later call say so (device_errors.hpp). Each status names the device, since the core
// reports it at a later wait. Non-sticky failures of queued work do not exist in CUDA's
// asynchronous model: a call that fails at once fails the call that enqueued it.
hx_status* stream_synchronize(hx_device* device, hx_stream* stream) {
  const CudaDevice& gpu = from_handle(device);
  CudaStream* live = nullptr;
  if (hx_status* status = live_stream(gpu, stream, &live)) return status;
  if (hx_status* status = check_usable(gpu)) return status;
  const cudaStream_t cuda_stream = live->started();
  if (cuda_stream == nullptr) return nullptr;  // nothing was ever enqueued
  // The stream's device is made current: the host may wait from any thread.
  if (hx_status* status = gpu.make_current()) return status;
  return device_error(gpu, cudaStreamSynchronize(cuda_stream), "cudaStreamSynchronize");
}

hx_status* stream_query(hx_device* device, hx_stream* stream, bool* out_done) {
  const CudaDevice& gpu = from_handle(device);
  CudaStream* live = nullptr;
  if (hx_status* status = live_stream(gpu, stream, &live)) return status;
  if (hx_status* status = check_usable(gpu)) return status;
  const cudaStream_t cuda_stream = live->started();
  if (cuda_stream == nullptr) {
    *out_done = true;
    return nullptr;
  }
  if (hx_status* status = gpu.make_current()) return status;  // see stream_synchronize
  return device_query(gpu, cudaStreamQuery(cuda_stream), "cudaStreamQuery", out_done);
}

hx_status* stream_wait_event(hx_device* device, hx_stream* stream, hx_event* event) {
  CudaDevice& gpu = from_handle(device);
  CudaStream* live = nullptr;
  if (hx_status* status = live_stream(gpu, stream, &live)) return status;
  // The event may be of any device of this plugin: that is how work on one GPU waits for
  // work on another.
  const CudaEvent* awaited = gpu.plugin().handles.find_event(event);
  if (awaited == nullptr) return not_a_live_handle(gpu, "event", event);
  if (hx_status* status = check_usable(awaited->device())) return status;
  const cudaEvent_t pending = awaited->pending();
  if (pending == nullptr) return nullptr;  // the recorded point is already reached
  // The waiting stream's device is made current (stream_for_work): cudaStreamWaitEvent takes
  // an event of any device, but the stream must be used with its own device current.
  cudaStream_t cuda_stream = nullptr;
  if (hx_status* status = stream_for_work(gpu, live, &cuda_stream)) return status;
  return device_error(gpu, cudaStreamWaitEvent(cuda_stream, pending, 0), "cudaStreamWaitEvent");
}

}  // namespace hxcuda
